// The controllers kapi runs as kube-controller-manager would, by their kube names, selected
// with --controllers (framework/names.ts). Each is made fresh for every leadership term, on
// the informers the manager shares among them, and writes through a ControllerClient that
// checks leadership before every write.

import type { Logger } from 'pino';
import type { GenericStore } from '../registry/generic/store.js';
import { informersOf, type Controller, type ControllerContext, type ControllerFactory } from './manager.js';
import { ControllerClient } from './framework/client.js';
import { controllerEnabled } from './framework/names.js';
import type { InformerFactory } from './framework/informer.js';
import { NamespaceController } from './namespace/controller.js';
import { StatefulSetController } from './statefulset/controller.js';
import { GarbageCollector } from './garbagecollector/collector.js';
import { DisruptionController } from './disruption/controller.js';
import { PvcProtectionController } from './pvc-protection.js';
import { PvProtectionController } from './pv-protection.js';
import { ClusterRoleAggregationController } from './clusterrole-aggregation.js';
import { ServiceAccountsController } from './serviceaccounts.js';

export interface ControllerHost {
  storeFor(group: string, resource: string): GenericStore | undefined;
  /** Every served resource's store. */
  stores(): GenericStore[];
  log: Logger;
}

interface Made {
  informers: InformerFactory;
  client: ControllerClient;
  ctx: ControllerContext;
}

function made(host: ControllerHost, ctx: ControllerContext): Made {
  return { informers: informersOf(ctx), client: new ControllerClient(host, ctx.leading), ctx };
}

const KUBE_CONTROLLERS: { name: string; create(host: ControllerHost, m: Made): Controller }[] = [
  {
    name: 'namespace-controller',
    create: (host, m) =>
      new NamespaceController(
        m.informers.for('', 'namespaces'),
        () => host.stores().filter((s) => s.def.namespaced),
        m.ctx.leading,
        host.log,
      ),
  },
  { name: 'disruption-controller', create: (host, m) => new DisruptionController(m.informers, m.client, host.log) },
  { name: 'garbage-collector-controller', create: (host, m) => new GarbageCollector(m.informers, () => host.stores(), m.client, host.log) },
  { name: 'statefulset-controller', create: (host, m) => new StatefulSetController(m.informers, m.client, host.log) },
  {
    name: 'persistentvolumeclaim-protection-controller',
    create: (host, m) => new PvcProtectionController(host.storeFor('', 'persistentvolumeclaims')!, host.storeFor('', 'pods')!, host.log, m.ctx),
  },
  {
    name: 'persistentvolume-protection-controller',
    create: (host, m) => new PvProtectionController(host.storeFor('', 'persistentvolumes')!, host.log, m.ctx),
  },
  {
    name: 'clusterrole-aggregation-controller',
    create: (host, m) => new ClusterRoleAggregationController(host.storeFor('rbac.authorization.k8s.io', 'clusterroles')!, host.log, m.ctx),
  },
  {
    name: 'serviceaccount-controller',
    create: (host, m) => new ServiceAccountsController(host.storeFor('', 'namespaces')!, host.storeFor('', 'serviceaccounts')!, host.log, m.ctx),
  },
];

/** The factories of the controllers `--controllers` enables (kube's names, `*`, `-name`). */
export function kubeControllerFactories(host: ControllerHost, controllers: readonly string[]): ControllerFactory[] {
  return KUBE_CONTROLLERS.filter((c) => controllerEnabled(c.name, controllers)).map((c) => ({
    name: c.name,
    create: (ctx) => c.create(host, made(host, ctx)),
  }));
}

/** The controllers kapi implements, by kube name. */
export const IMPLEMENTED_CONTROLLERS = KUBE_CONTROLLERS.map((c) => c.name);
