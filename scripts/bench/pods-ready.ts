// How fast simulated nodes run pods: a fresh `kapi serve --simulate-nodes NODES` with no start
// delay, PODS bare pods created at once (32 in flight), timed from the first create until
// every pod is Running and Ready (seen on a watch); the server's CPU seconds over that window
// per pod (the scheduler, the in-process kubelets and the API work together, in one process).
//
//   npx tsc -p tsconfig.json && PODS=1000 NODES=10 node dist/scripts/bench/pods-ready.js

import { join } from 'node:path';
import { readKubeconfig } from '../../src/client/kubeconfig.js';
import { RestClient } from '../../src/client/rest.js';
import { startFreshKapi } from './fresh-kapi.js';
import { readCpuSeconds } from './procstat.js';

const PODS = Number(process.env.PODS ?? 100);
const NODES = Number(process.env.NODES ?? 1);

async function main(): Promise<void> {
  const maxPods = String(Math.max(110, Math.ceil(PODS / NODES) + 10));
  const kapi = await startFreshKapi('kapi-pods-bench-', ['--simulate-nodes', String(NODES), '--pod-start-delay', '0s', '--max-pods', maxPods]);
  const proc = kapi.proc;
  try {
    const client = new RestClient(readKubeconfig(join(kapi.dataDir, 'admin.kubeconfig')), { userAgent: 'pods-bench', maxSockets: 40 });
    const ready = new Set<string>();
    let allReady!: () => void;
    const done = new Promise<void>((r) => (allReady = r));
    const list = await client.get<{ metadata: { resourceVersion: string } }>('/api/v1/namespaces/default/pods');
    const w = client.watch('/api/v1/namespaces/default/pods', { resourceVersion: list.metadata.resourceVersion }, (ev) => {
      const p = ev.object as { metadata: { name: string }; status?: { phase?: string; conditions?: { type: string; status: string }[] } };
      if (p.status?.phase === 'Running' && p.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')) ready.add(p.metadata.name);
      if (ready.size === PODS) allReady();
    });
    const cpu0 = readCpuSeconds(proc.pid) ?? 0;
    const t0 = performance.now();
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < PODS) {
        const i = next++;
        await client.create('/api/v1/namespaces/default/pods', {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: `bench-${i}`, labels: { app: 'bench' } },
          spec: { containers: [{ name: 'app', image: 'registry.k8s.io/nginx-slim:0.8', resources: { requests: { cpu: '10m', memory: '16Mi' } } }] },
        });
      }
    };
    await Promise.all(Array.from({ length: 32 }, worker));
    const created = performance.now() - t0;
    await Promise.race([done, new Promise((_, rej) => setTimeout(() => rej(new Error(`only ${ready.size}/${PODS} ready after 120 s`)), 120_000))]);
    const total = performance.now() - t0;
    const cpu = (readCpuSeconds(proc.pid) ?? 0) - cpu0;
    w.stop();
    client.close();
    process.stdout.write(
      `${JSON.stringify({ pods: PODS, nodes: NODES, createdSeconds: +(created / 1000).toFixed(2), allReadySeconds: +(total / 1000).toFixed(2), serverCpuSeconds: +cpu.toFixed(2), cpuMsPerPod: +((cpu * 1000) / PODS).toFixed(2) })}\n`,
    );
  } finally {
    await kapi.stop();
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${(e as Error).stack}\n`);
  process.exit(1);
});
