// The /scale subresource as an object of its own, after kube's ScaleREST
// (pkg/registry/apps/statefulset/storage/storage.go): an autoscaling/v1 Scale view of a
// workload's replicas, read from the parent object and written back to it through the
// parent's one update loop, so an update or patch of the Scale re-applies to the latest
// parent after a concurrent write. The verbs use it through SubresourceREST.

import type { CacheEntry } from '../../cache/watch-cache.js';
import { OPTIMISTIC_LOCK_MESSAGE, badRequest, conflict, invalid, type GroupResource } from '../../machinery/errors.js';
import { clone } from '../../machinery/meta.js';
import type { KObject } from '../../machinery/object.js';
import { decodeObject } from '../../machinery/stored-bytes.js';
import type { FieldManager, FieldOwner } from '../../patch/ssa/field-manager.js';
import type { ResourceDef, ScaleSpec, SubresourceREST, SubresourceWriteResult } from '../types.js';

type Scale = Record<string, unknown>;

/** What a Scale needs of its parent's store (GenericStore). */
export interface ScaleParent {
  readonly def: ResourceDef;
  readonly gr: GroupResource;
  readonly apiVersion: string;
  readonly fieldManager: FieldManager;
  get(namespace: string, name: string, resourceVersion?: string): Promise<CacheEntry>;
  guaranteedUpdate(
    namespace: string,
    name: string,
    subresource: string,
    tryUpdate: (old: KObject) => KObject,
    createIfMissing?: () => KObject,
    dryRun?: boolean,
    owner?: FieldOwner & { apply?: boolean },
  ): Promise<{ obj: KObject; warnings: string[] }>;
}

export class ScaleREST implements SubresourceREST {
  readonly kind = { group: 'autoscaling', version: 'v1', kind: 'Scale', definition: 'io.k8s.api.autoscaling.v1.Scale' };

  constructor(
    private readonly parent: ScaleParent,
    private readonly spec: ScaleSpec,
  ) {}

  async get(namespace: string, name: string, resourceVersion?: string): Promise<Scale> {
    const entry = await this.parent.get(namespace, name, resourceVersion);
    return this.scaleOf(decodeObject(entry.bytes));
  }

  async update(namespace: string, name: string, tryUpdate: (current: Scale) => unknown, dryRun: boolean, owner: FieldOwner): Promise<SubresourceWriteResult> {
    const res = await this.parent.guaranteedUpdate(namespace, name, '', (old) => this.scaled(name, old, tryUpdate(this.scaleOf(old))), undefined, dryRun, owner);
    return { object: this.scaleOf(res.obj), warnings: res.warnings };
  }

  /**
   * Apply of a Scale: the field manager applies it to the Scale, with the parent's replicas
   * entries as the Scale's own (kube's scale handler), and folds the result back into the
   * parent's replicas and managedFields, tracked with subresource "scale".
   */
  async apply(namespace: string, name: string, config: Record<string, unknown>, opts: { manager: string; force: boolean; dryRun: boolean }): Promise<SubresourceWriteResult> {
    const av = typeof config.apiVersion === 'string' ? config.apiVersion : '';
    const kind = typeof config.kind === 'string' ? config.kind : '';
    if (av !== `${this.kind.group}/${this.kind.version}` || kind !== this.kind.kind) {
      const i = av.indexOf('/');
      throw badRequest(`invalid object type: ${i >= 0 ? av.slice(0, i) : ''}/${i >= 0 ? av.slice(i + 1) : av}, Kind=${kind}`);
    }
    const meta = (config.metadata ?? {}) as { managedFields?: unknown; resourceVersion?: string };
    if (Array.isArray(meta.managedFields)) throw badRequest('metadata.managedFields must be nil');
    const owner = { manager: opts.manager, subresource: 'scale', apply: true };
    const res = await this.parent.guaranteedUpdate(
      namespace,
      name,
      '',
      (old) => {
        const merged = this.parent.fieldManager.applyScale(old, config, owner, opts.force);
        const want = (merged.spec as { replicas?: unknown } | undefined)?.replicas;
        return this.scaled(name, merged, { metadata: { resourceVersion: meta.resourceVersion }, spec: { replicas: want ?? 0 } });
      },
      undefined,
      opts.dryRun,
      owner,
    );
    return { object: this.scaleOf(res.obj), warnings: res.warnings };
  }

  private scaleOf(obj: KObject): Scale {
    const m = obj.metadata;
    const metadata: Record<string, unknown> = { name: m.name };
    if (m.namespace) metadata.namespace = m.namespace;
    metadata.uid = m.uid;
    metadata.resourceVersion = m.resourceVersion;
    metadata.creationTimestamp = m.creationTimestamp;
    return {
      kind: this.kind.kind,
      apiVersion: `${this.kind.group}/${this.kind.version}`,
      metadata,
      // ScaleSpec.replicas is omitempty in kube's Scale: 0 is left out.
      spec: this.spec.specReplicas(obj) === 0 ? {} : { replicas: this.spec.specReplicas(obj) },
      status: { replicas: this.spec.statusReplicas(obj), selector: this.spec.selector(obj) },
    };
  }

  /**
   * The parent with the replicas a Scale asks for: the Scale's resourceVersion is a
   * precondition and its replicas must be a non-negative integer. Runs inside the update loop.
   */
  private scaled(name: string, old: KObject, want: unknown): KObject {
    const scale = want as { metadata?: { resourceVersion?: string }; spec?: { replicas?: unknown } };
    const wantRv = scale.metadata?.resourceVersion;
    if (wantRv && wantRv !== old.metadata.resourceVersion) throw conflict(this.parent.gr, name, OPTIMISTIC_LOCK_MESSAGE);
    const replicas = scale.spec?.replicas ?? 0;
    if (typeof replicas === 'number' && replicas > 2147483647) {
      // Only an apply gets here with one (PUT and patches decode the Scale): ScaleSpec.replicas is an int32.
      throw badRequest(`json: cannot unmarshal number ${replicas} into Go struct field ScaleSpec.spec.replicas of type int32`);
    }
    if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0) {
      throw invalid(this.kind.kind, this.kind.group, name, [
        { type: 'FieldValueInvalid', field: 'spec.replicas', badValue: replicas, detail: 'must be greater than or equal to 0' },
      ]);
    }
    const obj = clone(old);
    this.spec.setSpecReplicas(obj, replicas);
    return obj;
  }
}
