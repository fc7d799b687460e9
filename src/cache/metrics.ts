// The watch metrics kube-apiserver's cacher reports (apiserver_registered_watchers).

import { Gauge } from 'prom-client';
import { registry } from '../machinery/metrics-registry.js';

export const registeredWatchers = new Gauge({
  name: 'apiserver_registered_watchers',
  help: 'Number of currently registered watchers for a given resources',
  labelNames: ['group', 'version', 'kind'] as const,
  registers: [registry],
});

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
