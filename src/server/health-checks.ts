// The named health checks kube-apiserver 1.33 registers, in its order, so that
// `/readyz?verbose`, `/livez/etcd` and the rest answer as kube's do. The storage check
// carries kube's name `etcd` whatever the backend; the post-start hooks of parts kapi does
// not have pass once the server has started, as kube's do; those kapi runs pass when done.

import type { HealthCheck } from './health.js';

export interface HealthSources {
  /** Throws when the store does not answer. */
  storage(): Promise<void>;
  /** Whether the storage check (`etcd`) is a liveness check too, as in kube. */
  storageInLivez: boolean;
  /** Resolves when the watch caches have their first state. */
  informersSynced(): Promise<void>;
  /** Whether a post-start hook (`poststarthook/<name>`) has finished. */
  hookFinished(name: string): boolean;
  /** The `shutdown` readiness check: fails once shutdown has begun. */
  shutdown: HealthCheck;
}

const HOOKS_BEFORE_AUTOREGISTER = [
  'start-apiserver-admission-initializer',
  'generic-apiserver-start-informers',
  'priority-and-fairness-config-consumer',
  'priority-and-fairness-filter',
  'storage-object-count-tracker-hook',
  'start-apiextensions-informers',
  'start-apiextensions-controllers',
  'crd-informer-synced',
  'start-system-namespaces-controller',
  'start-cluster-authentication-info-controller',
  'start-kube-apiserver-identity-lease-controller',
  'start-kube-apiserver-identity-lease-garbage-collector',
  'start-legacy-token-tracking-controller',
  'start-service-ip-repair-controllers',
  'scheduling/bootstrap-system-priority-classes',
  'priority-and-fairness-config-producer',
  'bootstrap-controller',
  'start-kubernetes-service-cidr-controller',
  'start-kube-aggregator-informers',
  'apiservice-status-local-available-controller',
  'apiservice-status-remote-available-controller',
  'apiservice-registration-controller',
  'apiservice-discovery-controller',
  'kube-apiserver-autoregistration',
];
const HOOKS_AFTER_AUTOREGISTER = ['apiservice-openapi-controller', 'apiservice-openapiv3-controller'];

/** kube's checks after `ping` and `log`: both lists, readiness-only ones flagged. */
export function kubeHealthChecks(src: HealthSources): HealthCheck[] {
  const hook = (name: string): HealthCheck => ({
    name: `poststarthook/${name}`,
    livez: true,
    readyz: true,
    postStartHook: true,
    run: async () => {
      if (!src.hookFinished(`poststarthook/${name}`)) throw new Error('not finished');
    },
  });
  const ready = (name: string, run: () => Promise<void>): HealthCheck => ({ name, livez: false, readyz: true, run });
  return [
    { name: 'etcd', livez: src.storageInLivez, readyz: true, run: src.storage },
    ready('etcd-readiness', src.storage),
    ready('informer-sync', src.informersSynced),
    ...HOOKS_BEFORE_AUTOREGISTER.map(hook),
    { name: 'autoregister-completion', livez: true, readyz: true, run: async () => {} },
    ...HOOKS_AFTER_AUTOREGISTER.map(hook),
    src.shutdown,
  ];
}
