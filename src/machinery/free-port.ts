// A port for a server that another process (etcd, a kapi node) will bind later. Asking the
// kernel for port 0 and releasing it is racy in a way that bites here: that port comes from
// the ephemeral range, which every outgoing connection also draws from, so between the
// release and the child's bind an etcd peer link or a gRPC client may take it (EADDRINUSE).
// A port below the ephemeral range is never handed to a connection, so only another
// listener can take it, and the bind check below sees listeners that are already there.

import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** Where the search starts: above the registered ports most services use. */
const LOWEST = 10_000;
/** Below this many candidates the range is too small to pick from at random. */
const MIN_RANGE = 1_000;
const TRIES = 64;

/** Ports this process handed out: two picks in one process never collide. */
const handedOut = new Set<number>();

/** The first port of the kernel's ephemeral range (Linux; 32768 elsewhere, its default). */
function ephemeralLow(): number {
  try {
    const first = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    if (Number.isInteger(first) && first > 0) return first;
  } catch {
    // Not Linux, or no procfs: fall through to the usual default.
  }
  return 32_768;
}

/** Binds `port` on `host` (0: any) and releases it; resolves the port bound, or 0 when taken. */
function tryBind(host: string, port: number): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.unref();
    srv.once('error', () => resolve(0));
    srv.listen(port, host, () => {
      const a = srv.address();
      const bound = typeof a === 'object' && a ? a.port : 0;
      srv.close(() => resolve(bound));
    });
  });
}

/** A TCP port on `host` that nothing listens on, outside the kernel's ephemeral range when it can. */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  const high = ephemeralLow() - 1;
  if (high - LOWEST + 1 >= MIN_RANGE) {
    for (let i = 0; i < TRIES; i++) {
      const port = LOWEST + Math.floor(Math.random() * (high - LOWEST + 1));
      if (handedOut.has(port)) continue;
      if ((await tryBind(host, port)) === port) {
        handedOut.add(port);
        return port;
      }
    }
  }
  // A crowded or unusual range: the kernel's pick, with the race this module avoids otherwise.
  const port = await tryBind(host, 0);
  if (port === 0) throw new Error(`no free TCP port on ${host}`);
  handedOut.add(port);
  return port;
}
