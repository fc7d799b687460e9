// The watch metrics: apiserver_watch_events_total and apiserver_watch_events_sizes as kube's
// watch server counts them (every event written to every watcher), and
// apiserver_registered_watchers (kube removed it in 1.25 in favour of
// apiserver_longrunning_requests; kept for kapi's own dashboards and tests).

import { Gauge } from 'prom-client';
import { kubeHelp, registry } from '../machinery/metrics-registry.js';
import { LabeledCounter, LabeledHistogram } from '../machinery/labeled-metrics.js';

export const registeredWatchers = new Gauge({
  name: 'apiserver_registered_watchers',
  help: 'Number of currently registered watchers for a given resources',
  labelNames: ['group', 'version', 'kind'] as const,
  registers: [registry],
});

export const watchEventsTotal = new LabeledCounter(
  'apiserver_watch_events_total',
  kubeHelp('ALPHA', 'Number of events sent in watch clients'),
  ['group', 'version', 'kind'],
  registry,
);

/** 1 KiB to 128 KiB, doubling, as kube's buckets. */
export const watchEventsSizes = new LabeledHistogram(
  'apiserver_watch_events_sizes',
  kubeHelp('ALPHA', 'Watch event size distribution in bytes'),
  ['group', 'version', 'kind'],
  [1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072],
  registry,
);

/** Call when a watch starts serving (kind as in the watch events, e.g. StatefulSet). */
export function watcherRegistered(group: string, version: string, kind: string): void {
  registeredWatchers.inc({ group, version, kind });
}

/** Call when a watch ends, however it ends. */
export function watcherUnregistered(group: string, version: string, kind: string): void {
  registeredWatchers.dec({ group, version, kind });
}

export function setRegisteredWatchers(group: string, version: string, kind: string, count: number): void {
  registeredWatchers.set({ group, version, kind }, count);
}
