import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../../src/machinery/free-port.js';

const listen = (port: number): Promise<Server> =>
  new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(port, '127.0.0.1', () => resolve(srv));
  });
const close = (srv: Server): Promise<void> => new Promise((r) => srv.close(() => r()));

describe('freePort', () => {
  it('picks distinct ports below the ephemeral range that a later bind gets', async () => {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    const ports: number[] = [];
    for (let i = 0; i < 20; i++) ports.push(await freePort());
    expect(new Set(ports).size).toBe(ports.length);
    for (const p of ports) {
      expect(p).toBeGreaterThanOrEqual(10_000);
      expect(p).toBeLessThan(low);
    }
    // Each is free: a server binds every one of them, all at once.
    const servers = await Promise.all(ports.map(listen));
    await Promise.all(servers.map(close));
  });

  it('never hands out a port something already listens on', async () => {
    // Hold about a tenth of the range: without the bind check, 50 picks would almost surely hit one.
    const held: Server[] = [];
    const heldPorts = new Set<number>();
    for (let i = 0; i < 2000; i++) {
      const p = 10_000 + Math.floor(Math.random() * 20_000);
      try {
        held.push(await listen(p));
        heldPorts.add(p);
      } catch {
        // Taken already; that is fine for this check too.
      }
    }
    try {
      for (let i = 0; i < 50; i++) expect(heldPorts.has(await freePort())).toBe(false);
    } finally {
      await Promise.all(held.map(close));
    }
  });
});
