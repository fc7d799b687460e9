// PATCH with application/apply-patch+yaml or +cbor: Server-Side Apply. The configuration is
// decoded once (src/codec/apply-body.ts) and merged into the latest object inside the store's
// update loop, or creates the object when it is missing (201).

import { decodeApplyConfiguration } from '../codec/apply-body.js';
import type { KObject } from '../machinery/object.js';
import { DecodeError, decodeTyped } from '../schema/decode.js';
import { SCHEMAS, goRoundTrip } from '../schema/types/index.js';
import { respondObject, respondStatus } from './respond.js';
import { scaleOf, scaledObject } from './scale.js';
import { addWarnings, readWriteBody, type Scope } from './scope.js';
import { plainError } from '../patch/ssa/plain-error.js';
import { configTypeErrors } from '../patch/ssa/typed.js';
import type { FieldOwner } from '../patch/ssa/field-manager.js';
import { OPTIMISTIC_LOCK_MESSAGE, badRequest, conflict, genericNotFound } from '../machinery/errors.js';
import { parseWriteOptions, strconvParam, type WriteOptions } from './write-options.js';
import { strconvParseBool } from '../machinery/go-format.js';

export async function handleApplyPatch(s: Scope, mediaType: string): Promise<void> {
  // handlePatch has refused the paths PATCH does not serve (collections, unknown subresources).
  const { info, def, store } = s;
  const opts = parseWriteOptions(s.query, 'PatchOptions', 'apply');
  const force = strconvParam(s.query, 'force', strconvParseBool) ?? false;
  const { config, warnings } = decodeApplyConfiguration(await readWriteBody(s), mediaType, opts.fieldValidation);
  addWarnings(s, warnings);
  if (info.subresource === 'scale') return applyScale(s, config, opts, force);
  const owner = { manager: opts.fieldManager ?? '', subresource: info.subresource, apply: true };
  // Kind and managedFields are refused before the typed check, as kube's chain orders them.
  store.fieldManager.checkConfig(config);
  checkTyped(s, config);
  const build = (live: KObject | null): KObject => appliedObject(s, config, live, owner, force);
  const canCreate = info.subresource === '';
  if (canCreate) await store.checkCreatable(info.namespace, info.name);
  const res = await store.guaranteedUpdate(info.namespace, info.name, info.subresource, build, canCreate ? () => build(null) : undefined, opts.dryRun, owner);
  addWarnings(s, res.warnings);
  respondObject(s.ctx, res.created ? 201 : 200, def, res.bytes, s.out, s.pretty);
}

/**
 * The typed check kube's type converter makes of an apply configuration (unknown fields,
 * wrong types). kube reports its failure as a plain error, hence the 500.
 */
function checkTyped(s: Scope, config: Record<string, unknown>): void {
  // kube names the configuration by its own namespace and name (objectGVKNN of the patch).
  const cm = (config.metadata ?? {}) as { namespace?: unknown; name?: unknown };
  const what = `${typeof cm.namespace === 'string' ? cm.namespace : ''}/${typeof cm.name === 'string' ? cm.name : ''}; ${s.store.apiVersion}, Kind=${s.def.kind}`;
  try {
    decodeTyped(config, s.store.definition, SCHEMAS);
  } catch (e) {
    if (e instanceof DecodeError) throw plainError(`failed to create typed patch object (${what}): ${e.message}`);
    throw e;
  }
  const fm = s.store.fieldManager;
  // Unknown fields and repeated list keys; several read as the converter's aggregate.
  const errs = configTypeErrors(fm.resolver, fm.root, config);
  if (errs.length === 1) throw plainError(`failed to create typed patch object (${what}): ${errs[0]}`);
  if (errs.length > 1) throw plainError(`failed to create typed patch object (${what}): errors:\n  ${errs.join('\n  ')}`);
}

/** The object an apply of `config` makes of `live` (null: the object the apply creates). */
function appliedObject(s: Scope, config: Record<string, unknown>, live: KObject | null, owner: FieldOwner, force: boolean): KObject {
  const { info, def, store } = s;
  // A resourceVersion in the config is a precondition, as for any update.
  const wantRv = (config.metadata as { resourceVersion?: unknown } | undefined)?.resourceVersion;
  if (typeof wantRv === 'string' && wantRv !== '' && wantRv !== live?.metadata.resourceVersion) {
    throw conflict(store.gr, info.name, OPTIMISTIC_LOCK_MESSAGE);
  }
  const merged = store.fieldManager.apply(live, config, owner, force);
  const uid = merged.metadata?.uid;
  if (!live && typeof uid === 'string' && uid !== '') {
    // An apply that would create names a uid nobody has (kube's patcher refuses it).
    throw conflict(store.gr, info.name, `uid mismatch: the provided object specified uid ${uid}, and no existing object was found`);
  }
  let obj: KObject;
  try {
    obj = decodeTyped(merged, store.definition, SCHEMAS).object as KObject;
  } catch (e) {
    if (e instanceof DecodeError) throw badRequest(e.message);
    throw e;
  }
  // What kube stores is the typed object: Go's omitempty drops the empty maps a config may carry.
  goRoundTrip(obj, store.definition, SCHEMAS);
  obj.metadata ??= {};
  const name = obj.metadata.name ?? '';
  if (name !== info.name) throw badRequest(`the name of the object (${name}) does not match the name on the URL (${info.name})`);
  const ns = obj.metadata.namespace;
  if (def.namespaced && ns && ns !== info.namespace) {
    throw badRequest(`the namespace of the object (${ns}) does not match the namespace on the URL (${info.namespace})`);
  }
  return obj;
}

/**
 * Apply of an autoscaling/v1 Scale to /scale: the Scale's spec.replicas is applied to the
 * object's replicas by the manager, tracked with subresource "scale" (kube's scale handler).
 */
async function applyScale(s: Scope, config: Record<string, unknown>, opts: WriteOptions, force: boolean): Promise<void> {
  const { info, def, store } = s;
  if (!def.scale) throw genericNotFound();
  const av = typeof config.apiVersion === 'string' ? config.apiVersion : '';
  const kind = typeof config.kind === 'string' ? config.kind : '';
  if (av !== 'autoscaling/v1' || kind !== 'Scale') {
    const i = av.indexOf('/');
    throw badRequest(`invalid object type: ${i >= 0 ? av.slice(0, i) : ''}/${i >= 0 ? av.slice(i + 1) : av}, Kind=${kind}`);
  }
  const meta = (config.metadata ?? {}) as { managedFields?: unknown; resourceVersion?: string };
  if (Array.isArray(meta.managedFields)) throw badRequest('metadata.managedFields must be nil');
  const owner = { manager: opts.fieldManager ?? '', subresource: 'scale', apply: true };
  const res = await store.guaranteedUpdate(
    info.namespace,
    info.name,
    '',
    (old) => {
      const merged = store.fieldManager.applyScale(old, config, owner, force);
      const want = (merged.spec as { replicas?: unknown } | undefined)?.replicas;
      return scaledObject(s, merged, { metadata: { resourceVersion: meta.resourceVersion }, spec: { replicas: want ?? 0 } });
    },
    undefined,
    opts.dryRun,
    owner,
  );
  addWarnings(s, res.warnings);
  respondStatus(s.ctx, scaleOf(def, res.obj), 200, s.out, s.pretty);
}
