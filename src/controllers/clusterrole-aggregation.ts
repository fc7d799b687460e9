// The ClusterRole aggregation controller (kube-controller-manager's
// clusterrole-aggregation-controller): a ClusterRole with an aggregationRule gets, as its
// rules, the rules of every other ClusterRole its selectors match (roles in name order, each
// rule once), written by Server-Side Apply with force as field manager
// `clusterrole-aggregation-controller`. Any change to any ClusterRole re-checks every
// aggregated role, as kube does (the set is small and the dependencies are not indexed).

import type { Logger } from 'pino';
import type { GenericStore } from '../registry/generic/store.js';
import type { KObject } from '../machinery/object.js';
import { decodeObject } from '../machinery/stored-bytes.js';
import { deepEqual } from '../machinery/json-view.js';
import { StatusError } from '../machinery/errors.js';
import { selectorMatches } from '../machinery/validation/object-meta.js';
import { decodeTyped } from '../schema/decode.js';
import { SCHEMAS, goRoundTrip } from '../schema/types/index.js';
import type { PolicyRule, RoleObject } from '../registry/rbac/types.js';
import { NotLeadingError, type Controller, type ControllerContext } from './manager.js';

export const AGGREGATION_MANAGER = 'clusterrole-aggregation-controller';

/** Go's semantic equality of rules: an empty list is no list. */
function normalRule(r: PolicyRule): PolicyRule {
  const out: PolicyRule = { verbs: r.verbs ?? [] };
  if (r.apiGroups?.length) out.apiGroups = r.apiGroups;
  if (r.resources?.length) out.resources = r.resources;
  if (r.resourceNames?.length) out.resourceNames = r.resourceNames;
  if (r.nonResourceURLs?.length) out.nonResourceURLs = r.nonResourceURLs;
  return out;
}

/** The rules an aggregated role should have, from every role in `all` (keyed by name). */
export function aggregatedRules(role: RoleObject, all: readonly RoleObject[]): PolicyRule[] {
  const rules: PolicyRule[] = [];
  const byName = [...all].sort((a, b) => ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1));
  for (const selector of role.aggregationRule?.clusterRoleSelectors ?? []) {
    for (const other of byName) {
      if (other.metadata.name === role.metadata.name) continue;
      if (!selectorMatches(selector, other.metadata.labels)) continue;
      for (const r of other.rules ?? []) {
        const n = normalRule(r);
        if (!rules.some((x) => deepEqual(x, n))) rules.push(n);
      }
    }
  }
  return rules;
}

export class ClusterRoleAggregationController implements Controller {
  private unsubscribe?: () => void;
  private unreset?: () => void;
  private scheduled = false;
  private running = false;
  private again = false;
  private stopped = false;

  constructor(
    private readonly clusterRoles: GenericStore,
    private readonly log: Logger,
    private readonly ctx: Pick<ControllerContext, 'leading'> = { leading: () => true },
  ) {}

  start(): void {
    this.unsubscribe = this.clusterRoles.cache.subscribe(() => this.schedule());
    this.unreset = this.clusterRoles.cache.onReset(() => this.schedule());
    this.schedule();
  }

  stop(): void {
    this.stopped = true;
    this.unsubscribe?.();
    this.unreset?.();
  }

  /** Everything that changes together (a batch of events, a burst of writes) is synced once. */
  private schedule(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.syncAll();
    });
  }

  private async syncAll(): Promise<void> {
    this.running = true;
    this.again = false;
    let failed = false;
    try {
      const all = this.clusterRoles.cache.list(this.clusterRoles.prefix).map((e) => decodeObject(e.bytes) as RoleObject);
      for (const role of all) {
        if (!role.aggregationRule || this.stopped) continue;
        const want = aggregatedRules(role, all);
        const have = (role.rules ?? []).map(normalRule);
        if (deepEqual(want, have)) continue;
        try {
          await this.apply(role.metadata.name!, want);
        } catch (e) {
          if (e instanceof StatusError && e.code === 404) continue;
          if (e instanceof NotLeadingError) return;
          failed = true;
          this.log.warn({ clusterRole: role.metadata.name, err: (e as Error).message }, 'clusterrole aggregation failed; will retry');
        }
      }
    } finally {
      this.running = false;
    }
    if (this.again) this.schedule();
    else if (failed && !this.stopped) setTimeout(() => this.schedule(), 1000).unref();
  }

  /** Server-Side Apply of `{rules}` with force, as kube's controller applies it. */
  private async apply(name: string, rules: PolicyRule[]): Promise<void> {
    // A node that stopped leading (or was told to stop) writes no more.
    if (this.stopped || !this.ctx.leading()) throw new NotLeadingError();
    const store = this.clusterRoles;
    const config = { apiVersion: store.apiVersion, kind: 'ClusterRole', metadata: { name }, rules };
    const owner = { manager: AGGREGATION_MANAGER, subresource: '', apply: true };
    await store.guaranteedUpdate(
      '',
      name,
      '',
      (live) => {
        const merged = store.fieldManager.apply(live, config, owner, true);
        const obj = decodeTyped(merged, store.definition, SCHEMAS).object as KObject;
        goRoundTrip(obj, store.definition, SCHEMAS);
        return obj;
      },
      undefined,
      false,
      owner,
    );
  }
}
