// docker-compose.yml runs what `npm run cluster` runs: each service's command is the
// launcher's plan (cluster/plan.ts) for the compose layout, flag for flag, and
// cluster/haproxy.cfg is the plan's haproxy configuration for it.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  COMPOSE_HAPROXY_CONFIG,
  composeLayout,
  etcdArgs,
  haproxyArgs,
  haproxyConfig,
  localLayout,
  nodeArgs,
  pkiArgs,
} from '../../cluster/plan.js';

const ROOT = join(import.meta.dirname, '..', '..');

interface Service {
  image?: string;
  command?: string[];
  profiles?: string[];
  depends_on?: Record<string, unknown> | string[];
  volumes?: string[];
}

const compose = parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as { services: Record<string, Service> };
const services = compose.services;
const layout = composeLayout();

describe('docker-compose.yml', () => {
  it('has the etcd members, the kapi nodes and haproxy of the plan, and the one-node service as a profile', () => {
    const cluster = Object.entries(services).filter(([, s]) => !s.profiles).map(([n]) => n).sort();
    expect(cluster).toEqual(['build', 'etcd-1', 'etcd-2', 'etcd-3', 'haproxy', 'kapi-1', 'kapi-2', 'kapi-3', 'pki']);
    expect(services.kapi?.profiles).toEqual(['single']);
    expect(services.kapi?.command?.join(' ')).toContain('serve --bind-address 0.0.0.0 --secure-port 6443 --data-dir /data');
  });

  it('runs each etcd member with the launcher\'s flags', () => {
    for (const m of layout.etcd) {
      expect(services[m.name]?.command, m.name).toEqual(['etcd', ...etcdArgs(layout, m)]);
      expect(services[m.name]?.volumes).toContain(`${m.name}:${m.dataDir}`);
    }
  });

  it('makes the shared PKI once, as the launcher does', () => {
    expect(services.pki?.command).toEqual(['node', 'dist/src/cli.js', ...pkiArgs(layout)]);
    expect(services.pki?.volumes).toContain(`pki:${layout.pki.dir}`);
  });

  it('runs each kapi node with the launcher\'s flags, after the PKI and etcd', () => {
    for (const n of layout.nodes) {
      expect(services[n.name]?.command, n.name).toEqual(['node', 'dist/src/cli.js', ...nodeArgs(layout, n)]);
      expect(services[n.name]?.volumes).toContain(`pki:${layout.pki.dir}:ro`);
      expect(Object.keys(services[n.name]?.depends_on ?? {}).sort()).toEqual([...layout.etcd.map((m) => m.name), 'pki']);
    }
  });

  it('runs haproxy on cluster/haproxy.cfg, which is the plan\'s configuration', () => {
    expect(services.haproxy?.command).toEqual(['haproxy', ...haproxyArgs(COMPOSE_HAPROXY_CONFIG)]);
    expect(services.haproxy?.volumes).toContain(`./cluster/haproxy.cfg:${COMPOSE_HAPROXY_CONFIG}:ro`);
    expect(readFileSync(join(ROOT, 'cluster', 'haproxy.cfg'), 'utf8')).toBe(haproxyConfig(layout));
  });

  it('differs from the one-machine plan only in addresses, ports and directories', () => {
    const local = localLayout('/d', { balancer: 1, nodes: [2, 3, 4], checks: [11, 12, 13], etcd: [{ client: 5, peer: 6 }, { client: 7, peer: 8 }, { client: 9, peer: 10 }] });
    const flags = (args: string[]) => args.filter((a) => a.startsWith('--'));
    // The containers' certificate names the nodes and the balancer by service name; on one
    // machine everything is 127.0.0.1, which the certificate always covers.
    const noSans = (args: string[]) => flags(args).filter((f) => f !== '--tls-san');
    expect(noSans(nodeArgs(local, local.nodes[0]!))).toEqual(noSans(nodeArgs(layout, layout.nodes[0]!)));
    expect(noSans(pkiArgs(local))).toEqual(noSans(pkiArgs(layout)));
    expect(flags(etcdArgs(local, local.etcd[0]!))).toEqual(flags(etcdArgs(layout, layout.etcd[0]!)));
    const checks = (cfg: string) => cfg.split('\n').filter((l) => !/^\s*(server|bind|nameserver|resolvers|hold)\b/.test(l) && l.trim());
    expect(checks(haproxyConfig(local))).toEqual(checks(haproxyConfig(layout)));
  });
});
