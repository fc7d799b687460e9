// The one Prometheus registry of the process (component-base's legacyregistry): every layer
// defines its own metrics under kube's names and registers them here; /metrics serves it. A
// private registry keeps tests and embedders from colliding with prom-client's global one.

import { Registry, collectDefaultMetrics } from 'prom-client';

export const registry = new Registry();
collectDefaultMetrics({ register: registry });
