// Requests to a deprecated API version, as kube-apiserver answers them (its installer and
// MonitorRequest): a `Warning: 299` header worded as kube words it, the audit annotations
// k8s.io/deprecated (and k8s.io/removed-release), and apiserver_requested_deprecated_apis
// set to 1 for the group, version, resource, subresource and removal release.

import type { Context } from 'koa';
import { Gauge } from 'prom-client';
import { kubeHelp, registry } from '../machinery/metrics-registry.js';
import type { APILifecycle, ResourceDef } from '../registry/types.js';
import { apiVersionOf } from '../machinery/api-resource.js';
import { addAuditAnnotation } from './audit-annotations.js';

export const requestedDeprecatedAPIs = new Gauge({
  name: 'apiserver_requested_deprecated_apis',
  help: kubeHelp('STABLE', 'Gauge of deprecated APIs that have been requested, broken out by API group, version, resource, subresource, and removed_release.'),
  labelNames: ['group', 'version', 'resource', 'subresource', 'removed_release'] as const,
  registers: [registry],
});

/** The release kapi answers as; a lifecycle deprecated after it is not yet deprecated. */
const CURRENT: readonly [number, number] = [1, 33];

const atOrBefore = (v: readonly [number, number], cur: readonly [number, number]): boolean => v[0] < cur[0] || (v[0] === cur[0] && v[1] <= cur[1]);

export function isDeprecated(l: APILifecycle | undefined): l is APILifecycle {
  return l !== undefined && atOrBefore(l.deprecated, CURRENT);
}

/** kube's deprecation.WarningMessage. */
export function deprecationWarning(def: ResourceDef, l: APILifecycle): string {
  let msg = `${apiVersionOf(def)} ${def.kind} is deprecated in v${l.deprecated[0]}.${l.deprecated[1]}+`;
  if (l.removed) msg += `, unavailable in v${l.removed[0]}.${l.removed[1]}+`;
  if (l.replacement) msg += `; use ${apiVersionOf(l.replacement)} ${l.replacement.kind}`;
  return msg;
}

/** Marks a request to a deprecated resource: the warning, the audit annotations and the gauge. */
export function noteDeprecatedRequest(ctx: Context, def: ResourceDef, subresource: string): void {
  const l = def.lifecycle;
  if (!isDeprecated(l)) return;
  ctx.append('Warning', `299 - ${JSON.stringify(deprecationWarning(def, l))}`);
  const removed = l.removed ? `${l.removed[0]}.${l.removed[1]}` : '';
  addAuditAnnotation(ctx, 'k8s.io/deprecated', 'true');
  if (removed) addAuditAnnotation(ctx, 'k8s.io/removed-release', removed);
  requestedDeprecatedAPIs.set({ group: def.group, version: def.version, resource: def.resource, subresource, removed_release: removed }, 1);
}
