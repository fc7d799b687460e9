// PATCH with application/apply-patch+yaml or +cbor: Server-Side Apply. The configuration is
// decoded once (src/codec/apply-body.ts) and merged into the latest object inside the store's
// update loop, or creates the object when it is missing (201).

import { decodeApplyConfiguration } from '../codec/apply-body.js';
import type { KObject } from '../machinery/object.js';
import { DecodeError, decodeTyped } from '../schema/decode.js';
import { SCHEMAS, goRoundTrip } from '../schema/types/index.js';
import { respondObject, respondStatus } from './respond.js';
import { addWarnings, readWriteBody, type Scope } from './scope.js';
import { plainError } from '../patch/ssa/plain-error.js';
import { configTypeErrors } from '../patch/ssa/typed.js';
import type { FieldOwner } from '../patch/ssa/field-manager.js';
import { OPTIMISTIC_LOCK_MESSAGE, badRequest, conflict } from '../machinery/errors.js';
import { parseWriteOptions, strconvParam } from './write-options.js';
import { strconvParseBool } from '../machinery/go-format.js';
import { carryExactInts } from '../machinery/raw-json.js';
import { withWriteChecks } from './authorization.js';

export async function handleApplyPatch(s: Scope, mediaType: string): Promise<void> {
  // handlePatch has refused the paths PATCH does not serve (collections, unknown subresources).
  const { info, def, store } = s;
  const opts = parseWriteOptions(s.query, 'PatchOptions', 'apply');
  const force = strconvParam(s.query, 'force', strconvParseBool) ?? false;
  const decoded = decodeApplyConfiguration(await readWriteBody(s), mediaType, opts.fieldValidation);
  const { config } = decoded;
  const own = store.subresourceREST(info.subresource);
  if (own) {
    if (decoded.strictError) throw decoded.strictError;
    addWarnings(s, decoded.warnings);
    // A subresource of its own kind (a Scale) applies through its own object.
    const res = await own.apply(info.namespace, info.name, config, { manager: opts.fieldManager ?? '', force, dryRun: opts.dryRun });
    addWarnings(s, res.warnings);
    respondStatus(s.ctx, res.object, 200, s.out, s.pretty);
    return;
  }
  // An apply that may create is authorized as a create too (kube's patch handler).
  const owner = withWriteChecks(s, { manager: opts.fieldManager ?? '', subresource: info.subresource, apply: true }, info.subresource === '');
  // Kind and managedFields are refused before the typed check, as kube's chain orders them.
  store.fieldManager.checkConfig(config);
  checkTyped(s, config);
  // The strict reading of the body comes once the apply has merged and converted it.
  let strictDone = false;
  const strict = (): void => {
    if (decoded.strictError) throw decoded.strictError;
    if (!strictDone) addWarnings(s, decoded.warnings);
    strictDone = true;
  };
  const build = (live: KObject | null): KObject => appliedObject(s, config, live, owner, force, strict);
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
  const fm = s.store.fieldManager;
  // structured-merge-diff's pass: unknown fields, repeated list keys, scalars of the wrong kind
  // (several read as the converter's aggregate). Any number fits an integer field here.
  const errs = configTypeErrors(fm.resolver, fm.root, config);
  if (errs.length === 1) throw plainError(`failed to create typed patch object (${what}): ${errs[0]}`);
  if (errs.length > 1) throw plainError(`failed to create typed patch object (${what}): errors:\n  ${errs.join('\n  ')}`);
  // The shapes it leaves to the typed decoding (a list where a map belongs, a bad quantity).
  try {
    decodeTyped(config, s.store.definition, SCHEMAS, { integers: 'any' });
  } catch (e) {
    if (e instanceof DecodeError) throw plainError(`failed to create typed patch object (${what}): ${e.message}`);
    throw e;
  }
}

/** The object an apply of `config` makes of `live` (null: the object the apply creates). */
function appliedObject(s: Scope, config: Record<string, unknown>, live: KObject | null, owner: FieldOwner, force: boolean, strict: () => void): KObject {
  const { info, def, store } = s;
  // A resourceVersion in the config is a precondition, as for any update.
  const wantRv = (config.metadata as { resourceVersion?: unknown } | undefined)?.resourceVersion;
  if (typeof wantRv === 'string' && wantRv !== '' && wantRv !== live?.metadata.resourceVersion) {
    throw conflict(store.gr, info.name, OPTIMISTIC_LOCK_MESSAGE);
  }
  const merged = store.fieldManager.apply(live, config, owner, force);
  // The configuration's exact integers (beyond 2^53) where the merge put them.
  carryExactInts(config, merged);
  const uid = merged.metadata?.uid;
  if (!live && typeof uid === 'string' && uid !== '') {
    // An apply that would create names a uid nobody has (kube's patcher refuses it).
    throw conflict(store.gr, info.name, `uid mismatch: the provided object specified uid ${uid}, and no existing object was found`);
  }
  let obj: KObject;
  try {
    // The merged object converts to the typed one as kube's unstructured converter does: an
    // integer beyond the field wraps (validation then judges it), a fraction is refused.
    obj = decodeTyped(merged, store.definition, SCHEMAS, { integers: 'unstructured' }).object as KObject;
  } catch (e) {
    if (e instanceof DecodeError) {
      const kind = `${store.apiVersion}, Kind=${def.kind}`;
      // kube names the object as the configuration names it.
      const cm = (config.metadata ?? {}) as { namespace?: unknown; name?: unknown };
      const nn = `${typeof cm.namespace === 'string' ? cm.namespace : ''}/${typeof cm.name === 'string' ? cm.name : ''}`;
      throw plainError(`failed to convert new object (${nn}; ${kind}) to proper version: unable to convert unstructured object to ${kind}: ${e.message}`);
    }
    throw e;
  }
  strict();
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
