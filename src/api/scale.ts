// The /scale subresource: an autoscaling/v1 Scale view of a workload's replicas, read
// from and written back to the object through the store's one update loop.

import type { ResourceDef } from '../registry/types.js';
import type { KObject } from '../machinery/object.js';
import { decodeObject } from '../machinery/stored-bytes.js';
import { clone } from '../machinery/meta.js';
import { decodeBody } from '../codec/body.js';
import { respondStatus } from './respond.js';
import { addWarnings, readWriteBody, type Scope } from './scope.js';
import { parseWriteOptions, writeOwner } from './write-options.js';
import { OPTIMISTIC_LOCK_MESSAGE, badRequest, conflict, genericNotFound, invalid } from '../machinery/errors.js';

export function scaleOf(def: ResourceDef, obj: KObject): Record<string, unknown> {
  const scale = def.scale!;
  const m = obj.metadata;
  const metadata: Record<string, unknown> = { name: m.name };
  if (m.namespace) metadata.namespace = m.namespace;
  metadata.uid = m.uid;
  metadata.resourceVersion = m.resourceVersion;
  metadata.creationTimestamp = m.creationTimestamp;
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata,
    // ScaleSpec.replicas is omitempty in kube's Scale: 0 is left out.
    spec: scale.specReplicas(obj) === 0 ? {} : { replicas: scale.specReplicas(obj) },
    status: { replicas: scale.statusReplicas(obj), selector: scale.selector(obj) },
  };
}

function send(s: Scope, code: number, scale: Record<string, unknown>): void {
  // A Scale is written like any object; respondStatus writes a plain JSON document.
  respondStatus(s.ctx, scale, code, s.out, s.pretty);
}

export async function handleScaleGet(s: Scope): Promise<void> {
  if (!s.def.scale) throw genericNotFound();
  const entry = await s.store.get(s.info.namespace, s.info.name, s.query.get('resourceVersion') ?? undefined);
  send(s, 200, scaleOf(s.def, decodeObject(entry.bytes)));
}

/**
 * The object with the replicas a Scale asks for: the Scale's resourceVersion is a
 * precondition and its replicas must be a non-negative integer. Runs inside the update loop.
 */
export function scaledObject(s: Scope, old: KObject, scale: { metadata?: { resourceVersion?: string }; spec?: { replicas?: unknown } }): KObject {
  const name = s.info.name;
  const wantRv = scale.metadata?.resourceVersion;
  if (wantRv && wantRv !== old.metadata.resourceVersion) throw conflict(s.store.gr, name, OPTIMISTIC_LOCK_MESSAGE);
  const replicas = scale.spec?.replicas ?? 0;
  if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0) {
    throw invalid('Scale', 'autoscaling', name, [
      { type: 'FieldValueInvalid', field: 'spec.replicas', badValue: replicas, detail: 'must be greater than or equal to 0' },
    ]);
  }
  const obj = clone(old);
  s.def.scale!.setSpecReplicas(obj, replicas);
  return obj;
}

export async function handleScaleUpdate(s: Scope): Promise<void> {
  const def = s.def;
  if (!def.scale) throw genericNotFound();
  const { namespace, name } = s.info;
  const doc = decodeBody(await readWriteBody(s), s.ctx.get('content-type') || undefined, { kind: 'Scale', apiVersion: 'autoscaling/v1' });
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw badRequest('Scale in version "v1" cannot be handled as a Scale: expected an object');
  const body = doc as { metadata?: { name?: string; resourceVersion?: string }; spec?: { replicas?: unknown } };
  if (body.metadata?.name !== undefined && body.metadata.name !== name) {
    throw badRequest(`the name of the object (${body.metadata.name}) does not match the name on the URL (${name})`);
  }
  const opts = parseWriteOptions(s.query, 'UpdateOptions');
  const res = await s.store.guaranteedUpdate(namespace, name, '', (old) => scaledObject(s, old, body), undefined, opts.dryRun, writeOwner(opts, s.ctx.get('user-agent'), 'scale'));
  addWarnings(s, res.warnings);
  send(s, 200, scaleOf(def, res.obj));
}
