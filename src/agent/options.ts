// The node agent's settings, named after the kubelet flags that set them where one exists.

export type Fault = 'never-ready' | 'crash-loop' | 'fail';

/** The pod annotation that injects a fault into one pod (see README, Simulated nodes). */
export const SIMULATE_ANNOTATION = 'kapi.io/simulate';
export const FAULTS: readonly Fault[] = ['never-ready', 'crash-loop', 'fail'];

export interface AgentOptions {
  /** The nodes' names (one simulated kubelet each). */
  nodeNames: string[];
  /** How long a pod stays ContainerCreating (and each init container runs), ms. */
  podStartDelayMs: number;
  /**
   * How long a container takes to exit after SIGTERM, ms, at most the pod's grace period;
   * undefined: it takes the whole grace period (a process that ignores SIGTERM).
   */
  podStopDelayMs?: number;
  /** How long a crash-looping container runs before it exits, ms. */
  crashAfterMs: number;
  /** kubelet's --node-status-update-frequency (10 s) and --node-status-report-frequency (5 m). */
  nodeStatusUpdateFrequencyMs: number;
  nodeStatusReportFrequencyMs: number;
  /** kubelet's --node-lease-duration-seconds (40); the lease is renewed every quarter of it. */
  nodeLeaseDurationSeconds: number;
  /** Node capacity (cpu, memory, pods, ephemeral-storage); allocatable is the same. */
  capacity: Record<string, string>;
  /** kubelet's --node-labels and --register-with-taints. */
  labels: Record<string, string>;
  taints: { key: string; value?: string; effect: string }[];
  /** kubelet's --event-qps and --event-burst. */
  eventQPS: number;
  eventBurst: number;
}

export const DEFAULT_AGENT_OPTIONS: Omit<AgentOptions, 'nodeNames'> = {
  podStartDelayMs: 1000,
  crashAfterMs: 1000,
  nodeStatusUpdateFrequencyMs: 10_000,
  nodeStatusReportFrequencyMs: 300_000,
  nodeLeaseDurationSeconds: 40,
  capacity: { cpu: '8', memory: '32Gi', pods: '110', 'ephemeral-storage': '100Gi', 'hugepages-1Gi': '0', 'hugepages-2Mi': '0' },
  labels: {},
  taints: [],
  eventQPS: 50,
  eventBurst: 100,
};

/** Names `<prefix>1` .. `<prefix>N`. */
export const nodeNames = (prefix: string, n: number): string[] => Array.from({ length: n }, (_, i) => `${prefix}${i + 1}`);
