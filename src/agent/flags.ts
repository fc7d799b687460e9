// `kapi agent`'s flags, with the kubelet's names where it has one (--node-labels,
// --register-with-taints, --max-pods, --node-status-update-frequency, ...).

import { parseArgs } from 'node:util';
import { parseDuration } from '../machinery/duration.js';
import { DEFAULT_AGENT_OPTIONS, nodeNames, type AgentOptions } from './options.js';

export const AGENT_USAGE = `Usage: kapi agent --kubeconfig FILE [flags]

Simulated nodes: N kubelets in one process, against any kapi node (or any apiserver).

Flags:
  --kubeconfig string                    the server to talk to, and the credentials to use without --cert-dir (required)
  --cert-dir string                      a folder with the cluster CA (ca.crt, ca.key): each node then gets a client
                                         certificate of its own, user system:node:<name> in group system:nodes
  --nodes int                            how many nodes (default 1)
  --node-name-prefix string              nodes are named <prefix>1 .. <prefix>N (default "worker-")
  --node-names strings                   the nodes' names instead (comma-separated)
  --pod-start-delay duration             how long a pod stays ContainerCreating (default 1s)
  --pod-stop-delay duration              how long a container takes to stop after SIGTERM, at most the grace
                                         period (default: the whole grace period)
  --crash-loop-run-time duration         how long a crash-looping container runs before it exits (default 1s)
  --node-status-update-frequency dur     how often the node's status is computed (default 10s)
  --node-status-report-frequency dur     how often it is written when nothing changed (default 5m0s)
  --node-lease-duration-seconds int      the node lease's duration; renewed every quarter of it (default 40)
  --node-cpu string                      each node's cpu capacity (default "8")
  --node-memory string                   each node's memory capacity (default "32Gi")
  --max-pods int                         pods per node (default 110)
  --node-labels strings                  extra labels, key=value (comma-separated)
  --register-with-taints strings         taints to register with, key=value:Effect (comma-separated)
  --event-qps int                        events written per second (default 50)
  --event-burst int                      events written in a burst (default 100)
  -v, --v int                            log verbosity (0 info, 1+ debug)
`;

export interface AgentFlags {
  kubeconfig: string;
  certDir?: string;
  options: AgentOptions;
  verbosity: number;
}

const listOf = (v: string[] | undefined): string[] => (v ?? []).flatMap((x) => x.split(',')).map((x) => x.trim()).filter(Boolean);

function count(v: string, flag: string, min: number): number {
  const n = Number(v);
  if (!/^[0-9]+$/.test(v) || n < min) throw new Error(`--${flag} must be an integer >= ${min}, got ${JSON.stringify(v)}`);
  return n;
}

/** key=value:Effect, as --register-with-taints takes them. */
export function parseTaint(s: string): { key: string; value?: string; effect: string } {
  const m = /^([^=:]+)(?:=([^:]*))?:(NoSchedule|PreferNoSchedule|NoExecute)$/.exec(s);
  if (!m) throw new Error(`invalid taint ${JSON.stringify(s)}: want key=value:Effect`);
  return m[2] !== undefined && m[2] !== '' ? { key: m[1]!, value: m[2], effect: m[3]! } : { key: m[1]!, effect: m[3]! };
}

/** The agent options a set of flags asks for, over the defaults. */
export function agentOptionsFrom(values: Record<string, string | string[] | boolean | undefined>, names: string[]): AgentOptions {
  const d = DEFAULT_AGENT_OPTIONS;
  const s = (k: string): string | undefined => values[k] as string | undefined;
  const labels: Record<string, string> = {};
  for (const kv of listOf(values['node-labels'] as string[] | undefined)) {
    const i = kv.indexOf('=');
    if (i <= 0) throw new Error(`invalid label ${JSON.stringify(kv)}: want key=value`);
    labels[kv.slice(0, i)] = kv.slice(i + 1);
  }
  return {
    nodeNames: names,
    podStartDelayMs: s('pod-start-delay') !== undefined ? parseDuration(s('pod-start-delay')!) : d.podStartDelayMs,
    podStopDelayMs: s('pod-stop-delay') !== undefined ? parseDuration(s('pod-stop-delay')!) : undefined,
    crashAfterMs: s('crash-loop-run-time') !== undefined ? parseDuration(s('crash-loop-run-time')!) : d.crashAfterMs,
    nodeStatusUpdateFrequencyMs: s('node-status-update-frequency') !== undefined ? parseDuration(s('node-status-update-frequency')!) : d.nodeStatusUpdateFrequencyMs,
    nodeStatusReportFrequencyMs: s('node-status-report-frequency') !== undefined ? parseDuration(s('node-status-report-frequency')!) : d.nodeStatusReportFrequencyMs,
    nodeLeaseDurationSeconds: s('node-lease-duration-seconds') !== undefined ? count(s('node-lease-duration-seconds')!, 'node-lease-duration-seconds', 1) : d.nodeLeaseDurationSeconds,
    capacity: {
      ...d.capacity,
      ...(s('node-cpu') ? { cpu: s('node-cpu')! } : {}),
      ...(s('node-memory') ? { memory: s('node-memory')! } : {}),
      ...(s('max-pods') ? { pods: String(count(s('max-pods')!, 'max-pods', 1)) } : {}),
    },
    labels,
    taints: listOf(values['register-with-taints'] as string[] | undefined).map(parseTaint),
    eventQPS: s('event-qps') !== undefined ? count(s('event-qps')!, 'event-qps', 1) : d.eventQPS,
    eventBurst: s('event-burst') !== undefined ? count(s('event-burst')!, 'event-burst', 1) : d.eventBurst,
  };
}

/** The agent flags, also used (some of them) by `kapi serve` for its in-process nodes. */
export const AGENT_FLAG_OPTIONS = {
  'pod-start-delay': { type: 'string' },
  'pod-stop-delay': { type: 'string' },
  'crash-loop-run-time': { type: 'string' },
  'node-status-update-frequency': { type: 'string' },
  'node-status-report-frequency': { type: 'string' },
  'node-lease-duration-seconds': { type: 'string' },
  'node-cpu': { type: 'string' },
  'node-memory': { type: 'string' },
  'max-pods': { type: 'string' },
  'node-labels': { type: 'string', multiple: true },
  'register-with-taints': { type: 'string', multiple: true },
  'event-qps': { type: 'string' },
  'event-burst': { type: 'string' },
} as const;

export function parseAgentFlags(argv: string[]): AgentFlags | 'help' {
  const { values } = parseArgs({
    args: argv,
    options: {
      kubeconfig: { type: 'string' },
      'cert-dir': { type: 'string' },
      nodes: { type: 'string', default: '1' },
      'node-name-prefix': { type: 'string', default: 'worker-' },
      'node-names': { type: 'string', multiple: true },
      ...AGENT_FLAG_OPTIONS,
      v: { type: 'string', short: 'v', default: '0' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) return 'help';
  if (!values.kubeconfig) throw new Error('--kubeconfig is required');
  const explicit = listOf(values['node-names']);
  const names = explicit.length > 0 ? explicit : nodeNames(values['node-name-prefix'], count(values.nodes, 'nodes', 1));
  if (new Set(names).size !== names.length) throw new Error('node names must be unique');
  return { kubeconfig: values.kubeconfig, certDir: values['cert-dir'], options: agentOptionsFrom(values, names), verbosity: Number(values.v) || 0 };
}
