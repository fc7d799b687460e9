// How fast the StatefulSet controller fills sets: a fresh `kapi serve` with every controller on,
// SETS Parallel StatefulSets of REPLICAS pods each created at once, timed from the first create
// until every set reports readyReplicas == replicas (the controller's own count, polled every
// 50 ms), with the server's CPU seconds over that window per pod. The pods must be run by
// someone: NODES simulated nodes (`--simulate-nodes`, with no start delay) when the node agent is
// built in; SERVE_ARGS adds flags.
//
//   npx tsc -p tsconfig.json && SETS=1 REPLICAS=100 NODES=2 node dist/scripts/bench/statefulset-ready.js
//   SETS=10 REPLICAS=100 NODES=10 node dist/scripts/bench/statefulset-ready.js

import { join } from 'node:path';
import { makeAgent, request, type Endpoint } from './http.js';
import { startFreshKapi } from './fresh-kapi.js';
import { readCpuSeconds } from './procstat.js';
import { readKubeconfig } from './servers.js';

const SETS = Number(process.env.SETS ?? 1);
const REPLICAS = Number(process.env.REPLICAS ?? 100);
const NODES = Number(process.env.NODES ?? 2);

async function main(): Promise<void> {
  const maxPods = String(Math.max(110, Math.ceil((SETS * REPLICAS) / Math.max(1, NODES)) + 10));
  const nodeArgs = NODES > 0 ? ['--simulate-nodes', String(NODES), '--pod-start-delay', '0s', '--max-pods', maxPods] : [];
  const extra = (process.env.SERVE_ARGS ?? '').split(' ').filter(Boolean);
  const kapi = await startFreshKapi('kapi-sts-bench-', [...nodeArgs, ...extra]);
  const { proc, url } = kapi;
  try {
    const kc = readKubeconfig(join(kapi.dataDir, 'admin.kubeconfig'));
    const ep: Endpoint & { agent: ReturnType<typeof makeAgent> } = { host: new URL(url).hostname, port: Number(new URL(url).port), tls: kc.tls, agent: makeAgent(16, kc.tls) };
    const path = '/apis/apps/v1/namespaces/default/statefulsets';
    const cpu0 = readCpuSeconds(proc.pid) ?? 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: SETS }, async (_, i) => {
        const name = `bench-${i}`;
        const set = {
          apiVersion: 'apps/v1',
          kind: 'StatefulSet',
          metadata: { name },
          spec: {
            replicas: REPLICAS,
            podManagementPolicy: 'Parallel',
            serviceName: name,
            selector: { matchLabels: { app: name } },
            template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app', image: 'registry.k8s.io/nginx-slim:0.8', resources: { requests: { cpu: '1m', memory: '1Mi' } } }] } },
          },
        };
        const r = await request(ep, { method: 'POST', path, body: Buffer.from(JSON.stringify(set)) }, { timeoutMs: 30_000, expect: 201 });
        if (r.status !== 201) throw new Error(`create ${name}: ${r.status} ${r.body?.toString()}`);
      }),
    );
    const deadline = Date.now() + 180_000;
    let ready = 0;
    for (;;) {
      const r = await request(ep, { method: 'GET', path }, { timeoutMs: 30_000, collectBody: true });
      const list = JSON.parse(r.body!.toString()) as { items: { status?: { readyReplicas?: number } }[] };
      ready = list.items.reduce((n, s) => n + (s.status?.readyReplicas ?? 0), 0);
      if (ready >= SETS * REPLICAS) break;
      if (Date.now() > deadline) throw new Error(`only ${ready}/${SETS * REPLICAS} ready after 180 s`);
      await new Promise((r2) => setTimeout(r2, 50));
    }
    const total = performance.now() - t0;
    const cpu = (readCpuSeconds(proc.pid) ?? 0) - cpu0;
    ep.agent.destroy();
    process.stdout.write(
      `${JSON.stringify({ sets: SETS, replicas: REPLICAS, pods: SETS * REPLICAS, nodes: NODES, allReadySeconds: +(total / 1000).toFixed(2), serverCpuSeconds: +cpu.toFixed(2), cpuMsPerPod: +((cpu * 1000) / (SETS * REPLICAS)).toFixed(2) })}\n`,
    );
  } finally {
    await kapi.stop();
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${(e as Error).stack}\n`);
  process.exit(1);
});
