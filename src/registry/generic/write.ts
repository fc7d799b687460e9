// Writes of the generic store: create, update (PUT) and the one update loop every
// other write goes through (guaranteedUpdate: patch, apply, scale, /status). The steps
// run in kube's fixed order (rest.BeforeCreate, rest.BeforeUpdate): type meta and
// namespace, server-owned metadata cleared, defaults (the schema's, then the strategy's),
// managedFields, mutating admission, the strategy's prepare step, uid and timestamps,
// canonicalize, validation (object meta, then the strategy), validating admission, then the
// commit through the kind's actor. Every path runs the same steps: POST, PUT, each patch
// type, apply, /status, /scale and the creates an apply or a PUT makes.

import { type Decision, type Mutation, type Outcome } from '../../actors/kind-actor.js';
import {
  OPTIMISTIC_LOCK_MESSAGE,
  StatusError,
  alreadyExists,
  badRequest,
  conflict,
  invalid as invalidStatus,
  notFound,
  type FieldError,
  qualifiedResource,
} from '../../machinery/errors.js';
import { type AdmissionAttributes, type AdmissionContext, type Strategy, type WriteChecks, type WriteHooks, type WriteTxn } from '../types.js';
import type { KeyValue } from '../../storage/interface.js';
import { afterDelete } from './after-delete.js';
import { type KObject } from '../../machinery/object.js';
import { storedLengthsDiffer, withResourceVersion } from '../../machinery/stored-bytes.js';
import { carryExactInts, exactIntsDiffer } from '../../machinery/raw-json.js';
import { goQuote } from '../../machinery/go-format.js';
import { clone, generateName, hasPendingFinalizers, newUID, nowTimestamp } from '../../machinery/meta.js';
import { deepEqual } from '../../machinery/json-view.js';
import { validateKubeFinalizerNames, validateObjectMeta, validateObjectMetaUpdate } from '../../machinery/validation/object-meta.js';
import { nameIsPathSegment } from '../../machinery/validation/names.js';
import { checkStoredSize, isStorageTooLarge, objectTooLarge } from './object-size.js';
import { SCHEMAS, applySchemaDefaults, goRoundTrip } from '../../schema/types/index.js';
import type { FieldOwner } from '../../patch/ssa/field-manager.js';
import { canonical, type StoreContext } from './context.js';

/**
 * Who a write is for, so managedFields follow it. `apply` marks a Server-Side Apply, whose
 * handler already computed the object's managedFields.
 */
export interface WriteOwner extends FieldOwner {
  apply?: boolean;
  /** What the layers above require of this write beyond the type's rules (authorization's checks). */
  checks?: WriteChecks;
}

/**
 * Runs a mutation through the kind's actor, or, for a dry run, on the store's current
 * state without writing: every step runs but the commit, and no revision is consumed.
 */
export async function commit(ctx: StoreContext, key: string, mutate: Mutation, dryRun: boolean): Promise<Outcome> {
  if (!dryRun) {
    // The stored-object size limit, for every backend, before anything is written.
    const sized: Mutation = (cur) => {
      const d = mutate(cur);
      if (d.kind === 'put') checkStoredSize(key, d.value);
      return d;
    };
    try {
      return await ctx.actor.submit(key, sized);
    } catch (e) {
      if (isStorageTooLarge(e)) throw objectTooLarge();
      throw e;
    }
  }
  const cur = await ctx.deps.storage.get(key);
  const d = mutate(cur);
  if (d.kind === 'put') {
    // A dry-run create has no resourceVersion yet; a dry-run update keeps the current one.
    const rev = cur?.modRevision ?? 0;
    return { decision: 'put', revision: rev, current: { key, value: d.value, modRevision: rev, createRevision: cur?.createRevision ?? 0 }, previous: cur };
  }
  return { decision: d.kind, revision: cur?.modRevision ?? 0, current: d.kind === 'delete' ? null : cur, previous: cur };
}

function invalid(ctx: StoreContext, obj: KObject, errs: FieldError[]): StatusError {
  // kube names the kind it validates: the stored (internal) one, for a resource served from another's storage.
  return invalidStatus(ctx.def.kind, ctx.def.storedAs ? ctx.def.storedAs.group : ctx.def.group, obj.metadata?.name ?? '', errs);
}

async function checkNamespace(ctx: StoreContext, namespace: string, name = ''): Promise<void> {
  if (!ctx.def.namespaced) return;
  const ns = await ctx.deps.namespaceOf(namespace);
  if (!ns) throw notFound({ group: '', resource: 'namespaces' }, namespace);
  if (ns.metadata.deletionTimestamp || (ns.status as { phase?: string } | undefined)?.phase === 'Terminating') {
    throw new StatusError(
      403,
      'Forbidden',
      `${qualifiedResource(ctx.gr)} "${name}" is forbidden: unable to create new content in namespace ${namespace} because it is being terminated`,
      {
        name,
        group: ctx.def.group,
        kind: ctx.def.resource,
        causes: [{ reason: 'NamespaceTerminating', message: `namespace ${namespace} is being terminated`, field: 'metadata.namespace' }],
      },
    );
  }
}

/** Aligns the object's namespace with the request's: set it when empty, refuse a mismatch. */
function alignNamespace(ctx: StoreContext, obj: KObject, namespace: string): void {
  if (!ctx.def.namespaced) {
    delete obj.metadata.namespace;
    return;
  }
  if (!obj.metadata.namespace) obj.metadata.namespace = namespace;
  else if (obj.metadata.namespace !== namespace) {
    throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
  }
}

/** What a write answers: the object, its bytes, and the strategy's warnings for it. */
export interface WriteResult {
  bytes: Buffer;
  obj: KObject;
  warnings: string[];
}

function admissionContext(ctx: StoreContext): AdmissionContext {
  const disabled = ctx.deps.options?.disabledAdmissionPlugins ?? [];
  return { list: (r, namespace) => ctx.deps.admissionList(r.group, r.resource, namespace), enabled: (p) => !disabled.includes(p) };
}

/** The attributes admission sees of a write to `obj` (`old`: the object an update replaces). */
function attributes(obj: KObject, namespace: string, subresource: string, old?: KObject): AdmissionAttributes {
  return old
    ? { operation: 'UPDATE', name: obj.metadata.name ?? '', namespace, subresource, old }
    : { operation: 'CREATE', name: obj.metadata.name ?? '', namespace, subresource };
}

/** managedFields of a non-apply write, then mutating admission: what runs between the defaults and the strategy's prepare step. */
function beforePrepare(ctx: StoreContext, obj: KObject, attrs: AdmissionAttributes, strategy: Strategy, owner?: WriteOwner): () => void {
  const track = trackFields(ctx, attrs.old ?? null, obj, strategy, owner);
  return () => {
    track?.();
    ctx.def.admission?.admit?.(obj, attrs, admissionContext(ctx));
  };
}

/** Validating admission, after the strategy's validation. */
function validateAdmission(ctx: StoreContext, obj: KObject, attrs: AdmissionAttributes): void {
  ctx.def.admission?.validate?.(obj, { ...attrs, name: obj.metadata.name ?? attrs.name }, admissionContext(ctx));
}

export async function createObject(ctx: StoreContext, namespace: string, input: KObject, dryRun = false, owner?: WriteOwner): Promise<WriteResult> {
  const obj = input;
  alignNamespace(ctx, obj, namespace);
  owner?.checks?.create?.(obj);
  await checkNamespace(ctx, namespace, obj.metadata.name ?? '');
  const attrs = attributes(obj, namespace, '');
  await ctx.def.admission?.awaitCreate?.(obj, attrs, admissionContext(ctx));
  prepareCreate(ctx, obj, namespace, beforePrepare(ctx, obj, attrs, ctx.def.strategy, owner));
  const base = obj.metadata.generateName && !obj.metadata.name ? obj.metadata.generateName : undefined;
  if (base) obj.metadata.name = generateName(base);
  ctx.def.strategy.canonicalize?.(obj);
  const hooks = ctx.hooks;
  // kube's BeginCreate: after the name is known, before validation; undone if the create fails.
  let txn: WriteTxn | undefined = hooks ? await hooks.beginCreate(obj, dryRun) : undefined;
  try {
    validateCreate(ctx, obj);
    owner?.checks?.createValidated?.(obj);
    const warnings = ctx.def.strategy.warningsOnCreate?.(obj) ?? [];
    validateAdmission(ctx, obj, attrs);
    // A generated name can collide; try a few fresh names before giving up, as kube does.
    for (let attempt = 0; ; attempt++) {
      try {
        const created = await commitCreate(ctx, obj, dryRun);
        const done = txn;
        txn = undefined;
        await done?.commit();
        return { ...created, warnings };
      } catch (e) {
        if (base && attempt < 7 && e instanceof StatusError && e.reason === 'AlreadyExists') {
          obj.metadata.name = generateName(base);
          ctx.def.strategy.canonicalize?.(obj);
          if (hooks && txn) {
            // What was allocated for the old name goes back; the new name allocates afresh.
            const undo = txn;
            txn = undefined;
            await undo.revert();
            txn = await hooks.beginCreate(obj, dryRun);
          }
          continue;
        }
        throw e;
      }
    }
  } catch (e) {
    await txn?.revert();
    throw e;
  }
}

async function commitCreate(ctx: StoreContext, obj: KObject, dryRun: boolean): Promise<{ bytes: Buffer; obj: KObject }> {
  const name = obj.metadata.name!;
  const value = storedForm(ctx, obj);
  const out = await commit(
    ctx,
    ctx.keyFor(obj.metadata.namespace ?? '', name),
    (cur) => {
      if (cur) throw alreadyExists(ctx.gr, name);
      return { kind: 'put', value };
    },
    dryRun,
  );
  if (out.revision > 0) obj.metadata.resourceVersion = String(out.revision);
  return { bytes: answerBytes(ctx, obj, ctx.stored.answer(obj, value), out.revision, dryRun), obj };
}

/** The bytes stored for a validated object, after what kube's protobuf storage does to it. */
function storedForm(ctx: StoreContext, obj: KObject): Buffer {
  return ctx.stored.storedForm(obj, ctx.definition);
}

/**
 * kube's rest.BeforeCreate, in its order. `afterDefaults` runs where kube's field manager
 * does: on the defaulted object, before the strategy prepares it.
 */
function prepareCreate(ctx: StoreContext, obj: KObject, namespace: string, afterDefaults?: () => void): void {
  obj.apiVersion = ctx.apiVersion;
  obj.kind = ctx.def.kind;
  alignNamespace(ctx, obj, namespace);
  const meta = obj.metadata;
  delete meta.deletionTimestamp;
  delete meta.deletionGracePeriodSeconds;
  delete meta.selfLink;
  delete meta.resourceVersion;
  applyDefaults(ctx, obj, ctx.def.strategy);
  afterDefaults?.();
  ctx.def.strategy.prepareForCreate(obj);
  meta.uid = newUID();
  meta.creationTimestamp = nowTimestamp();
  if (ctx.def.strategy.tracksGeneration) meta.generation = 1;
  else delete meta.generation;
}

/**
 * rest.BeforeCreate's validation: the strategy's (which for most types starts with core's
 * ValidateObjectMeta: the type's name rule and core's finalizer names); then, only when it
 * passed, the generic metadata check with path-segment names (the only one a type whose
 * strategy validates no metadata gets).
 */
function validateCreate(ctx: StoreContext, obj: KObject): void {
  const def = ctx.def;
  const errs = def.genericMetadataOnly
    ? []
    : [...validateObjectMeta(obj.metadata, def.namespaced, def.nameValidator, { kubeFinalizerNames: true })];
  errs.push(...def.strategy.validate(obj));
  if (errs.length) throw invalid(ctx, obj, errs);
  const generic = validateObjectMeta(obj.metadata, def.namespaced, nameIsPathSegment, { kubeFinalizerNames: false });
  if (generic.length) throw invalid(ctx, obj, generic);
}

/**
 * rest.BeforeUpdate's validation, all in one list as kube gathers it (the message names each
 * distinct error once, the causes keep every one): the generic checks of the new metadata and
 * of the update, then the strategy's, which for most types repeats the update checks (core's
 * ValidateObjectMetaUpdate, with its finalizer names) before its own.
 */
function validateUpdate(ctx: StoreContext, strategy: Strategy, obj: KObject, old: KObject): FieldError[] {
  const def = ctx.def;
  const errs = [
    ...validateObjectMeta(obj.metadata, def.namespaced, nameIsPathSegment, { kubeFinalizerNames: false }),
    ...validateObjectMetaUpdate(obj.metadata, old.metadata),
  ];
  if (!def.genericMetadataOnly) errs.push(...validateObjectMetaUpdate(obj.metadata, old.metadata), ...validateKubeFinalizerNames(obj.metadata));
  errs.push(...strategy.validateUpdate(obj, old));
  return errs;
}

/** PUT (GenericStore.update): the body replaces the object, through the update loop. */
export async function updateObject(
  ctx: StoreContext,
  namespace: string,
  name: string,
  input: KObject,
  subresource = '',
  dryRun = false,
  owner?: WriteOwner,
): Promise<WriteResult & { created: boolean }> {
  const strategy = strategyFor(ctx, subresource);
  if (!input.metadata.name) {
    throw badRequest(`the name of the object (${name} based on URL) was undeterminable: name must be provided`);
  }
  if (input.metadata.name !== name) {
    throw badRequest(`the name of the object (${input.metadata.name}) does not match the name on the URL (${name})`);
  }
  alignNamespace(ctx, input, namespace);
  const wantRv = input.metadata.resourceVersion;
  const canCreate = strategy.allowCreateOnUpdate && subresource === '';
  if (canCreate && !ctx.cache.get(ctx.keyFor(namespace, name))) {
    // Create-on-update must respect namespace lifecycle like a POST does.
    await checkNamespace(ctx, namespace, name);
  }
  return guaranteedUpdate(
    ctx,
    namespace,
    name,
    subresource,
    (old) => {
      const obj = clone(input);
      // A uid in the body is a precondition, checked by the store's update as kube's etcd3
      // store does (hence its StorageError wording, with kube's key for the object).
      if (obj.metadata.uid && obj.metadata.uid !== old.metadata.uid) {
        throw conflict(
          ctx.gr,
          name,
          `StorageError: invalid object, Code: 4, Key: ${kubeStorageKey(ctx, namespace, name)}, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: ${obj.metadata.uid}, UID in object meta: ${old.metadata.uid ?? ''}`,
        );
      }
      // kube parses the body's resourceVersion (strconv.ParseUint) and answers its error with a
      // 500; bad input keeps a 400 here, with kube's words.
      if (wantRv) checkResourceVersionSyntax(wantRv);
      // Compared as numbers, as kube compares the parsed versions ("007" is 7).
      if (wantRv && BigInt(wantRv) !== BigInt(old.metadata.resourceVersion ?? '0')) throw conflict(ctx.gr, name, OPTIMISTIC_LOCK_MESSAGE);
      if (!wantRv && !strategy.allowUnconditionalUpdate) {
        // kube's Store.Update names the resource here, not the kind, and prints the parsed
        // resourceVersion (a uint64 0) with %#v.
        throw invalidStatus(ctx.def.resource, ctx.def.group, name, [
          { type: 'FieldValueInvalid', field: 'metadata.resourceVersion', badValue: { goString: '0x0' }, detail: 'must be specified for an update' },
        ]);
      }
      return obj;
    },
    canCreate
      ? () => {
          if (wantRv) checkResourceVersionSyntax(wantRv);
          if (wantRv) throw conflict(ctx.gr, name, OPTIMISTIC_LOCK_MESSAGE);
          return clone(input);
        }
      : undefined,
    dryRun,
    owner,
  );
}

/** Refuses a create into a missing or terminating namespace (for writes that may create). */
export async function checkCreatable(ctx: StoreContext, namespace: string, name: string): Promise<void> {
  if (!ctx.cache.get(ctx.keyFor(namespace, name))) await checkNamespace(ctx, namespace, name);
}

/**
 * The one update loop (kube's GuaranteedUpdate): `tryUpdate` turns the current object
 * into the desired one and may throw; it runs again on a fresh object when another
 * writer got there first, so a patch or a scale change re-applies to the latest state.
 * `tryUpdate` must return a new object and leave its argument as it was: the old object
 * is compared with the result afterwards (one decode per attempt, not two).
 */
export async function guaranteedUpdate(
  ctx: StoreContext,
  namespace: string,
  name: string,
  subresource: string,
  tryUpdate: (old: KObject) => KObject,
  createIfMissing?: () => KObject,
  dryRun = false,
  owner?: WriteOwner,
): Promise<WriteResult & { created: boolean }> {
  const hooks = subresource === '' ? ctx.hooks : undefined;
  if (hooks) return hookedUpdate(ctx, hooks, namespace, name, tryUpdate, createIfMissing, dryRun, owner);
  return updateLoop(ctx, namespace, name, subresource, tryUpdate, createIfMissing, dryRun, owner);
}

/** Thrown inside an attempt of a hooked update whose state changed under it: the attempt starts over. */
const STALE_ATTEMPT = new Error('stale update attempt');

/**
 * The update loop of a type with write hooks. A hook works outside the store (it allocates
 * through other objects, asynchronously), so each attempt is prepared here, on the state read
 * first, and committed only if that state is still current: kube's BeginUpdate per attempt of
 * GuaranteedUpdate, with the attempt's allocations undone when it loses.
 */
async function hookedUpdate(
  ctx: StoreContext,
  hooks: WriteHooks,
  namespace: string,
  name: string,
  tryUpdate: (old: KObject) => KObject,
  createIfMissing: (() => KObject) | undefined,
  dryRun: boolean,
  owner: WriteOwner | undefined,
): Promise<WriteResult & { created: boolean }> {
  const strategy = ctx.def.strategy;
  const key = ctx.keyFor(namespace, name);
  for (let attempt = 0; ; attempt++) {
    const cur = await currentKv(ctx, key, attempt > 0);
    let prepared: KObject;
    let txn: WriteTxn;
    if (!cur) {
      if (!createIfMissing) throw notFound(ctx.gr, name);
      prepared = createIfMissing();
      prepareCreate(ctx, prepared, namespace, trackFields(ctx, null, prepared, strategy, owner));
      strategy.canonicalize?.(prepared);
      txn = await hooks.beginCreate(prepared, dryRun);
    } else {
      const old = ctx.stored.decode(cur);
      prepared = tryUpdate(old);
      prepareUpdate(ctx, prepared, old, strategy, trackFields(ctx, old, prepared, strategy, owner));
      strategy.canonicalize?.(prepared);
      txn = await hooks.beginUpdate(prepared, old, dryRun);
    }
    const expected = cur ? String(cur.modRevision) : '';
    const stale = (): never => {
      throw STALE_ATTEMPT;
    };
    try {
      // managedFields were tracked above, before the hook: what it allocates is no manager's.
      const res = await updateLoop(
        ctx,
        namespace,
        name,
        '',
        (now) => (now.metadata.resourceVersion === expected ? clone(prepared) : stale()),
        cur ? (createIfMissing ? stale : undefined) : () => clone(prepared),
        dryRun,
        owner?.apply ? owner : undefined,
      );
      await txn.commit();
      return res;
    } catch (e) {
      await txn.revert();
      if (e === STALE_ATTEMPT && attempt < 16) continue;
      if (e === STALE_ATTEMPT) throw conflict(ctx.gr, name, OPTIMISTIC_LOCK_MESSAGE);
      throw e;
    }
  }
}

/** The current stored state of a key: the cache's (cheap, maybe stale) or the store's. */
async function currentKv(ctx: StoreContext, key: string, fromStore: boolean): Promise<KeyValue | null> {
  const e = fromStore ? undefined : ctx.cache.get(key);
  return e ? ctx.stored.kvOf(e) : ctx.deps.storage.get(key);
}

async function updateLoop(
  ctx: StoreContext,
  namespace: string,
  name: string,
  subresource: string,
  tryUpdate: (old: KObject) => KObject,
  createIfMissing: (() => KObject) | undefined,
  dryRun: boolean,
  owner: WriteOwner | undefined,
): Promise<WriteResult & { created: boolean }> {
  const strategy = strategyFor(ctx, subresource);
  const key = ctx.keyFor(namespace, name);
  let created = false;
  let warnings: string[] = [];
  let result: KObject | undefined;
  // The stored form of `result`, kept for the answer (encoding twice costs a stringify).
  let stored: Buffer | undefined;
  const out = await commit(ctx, key, (cur): Decision => {
    stored = undefined;
    if (!cur) {
      if (!createIfMissing) throw notFound(ctx.gr, name);
      const obj = createIfMissing();
      owner?.checks?.create?.(obj);
      const attrs = attributes(obj, namespace, subresource);
      prepareCreate(ctx, obj, namespace, beforePrepare(ctx, obj, attrs, strategy, owner));
      strategy.canonicalize?.(obj);
      validateCreate(ctx, obj);
      owner?.checks?.createValidated?.(obj);
      warnings = strategy.warningsOnCreate?.(obj) ?? [];
      validateAdmission(ctx, obj, attrs);
      created = true;
      result = obj;
      stored = storedForm(ctx, obj);
      return { kind: 'put', value: stored };
    }
    created = false;
    const old = ctx.stored.decode(cur);
    const obj = tryUpdate(old);
    // What the update left as it was keeps the exact integers the old object had.
    carryExactInts(old, obj);
    const attrs = attributes(obj, namespace, subresource, old);
    owner?.checks?.update?.(obj, old);
    prepareUpdate(ctx, obj, old, strategy, beforePrepare(ctx, obj, attrs, strategy, owner));
    strategy.canonicalize?.(obj);
    const errs = validateUpdate(ctx, strategy, obj, old);
    if (errs.length) throw invalid(ctx, obj, errs);
    warnings = strategy.warningsOnUpdate?.(obj, old) ?? [];
    validateAdmission(ctx, obj, attrs);
    result = obj;
    ctx.fieldManager.keepTimesOfNoop(old, obj, (a, b) => deepEqual(canonical(a), canonical(b)));
    if (obj.metadata.deletionTimestamp && !hasPendingFinalizers(obj) && !hasTypeFinalizers(ctx, obj) && !((old.metadata.deletionGracePeriodSeconds ?? 0) > 0)) {
      // The last finalizer is gone (and no grace period runs): the update completes the deletion.
      return { kind: 'delete' };
    }
    const value = storedForm(ctx, obj);
    // Most updates change something: their length alone shows it, without the deep compare.
    // A value read by other than the writing encryption key is written again all the same
    // (kube's stale read): that is how a key rotation reaches every object.
    if (!cur.stale && (value.equals(cur.value) || (!storedLengthsDiffer(cur.value, value) && deepEqual(canonical(obj), canonical(old)) && sameManagedFieldsText(obj, old) && !exactIntsDiffer(obj, old)))) {
      return { kind: 'none' };
    }
    stored = value;
    return { kind: 'put', value };
  }, dryRun);
  if (!result) throw new Error('update produced no object');
  if (out.decision === 'delete') await afterDelete(ctx, result, dryRun);
  if (out.decision === 'none' && out.current) {
    const obj = ctx.stored.decode(out.current);
    return { bytes: withResourceVersion(ctx.stored.view(out.current.value), out.current.modRevision).bytes, obj, created: false, warnings };
  }
  if (out.revision > 0) result.metadata.resourceVersion = String(out.revision);
  return { bytes: answerBytes(ctx, result, ctx.stored.answer(result, stored), out.revision, dryRun), obj: result, created, warnings };
}

/** kube's rest.BeforeUpdate: what an update may never change, then the strategy's rules. */
function prepareUpdate(ctx: StoreContext, obj: KObject, old: KObject, strategy: Strategy, afterDefaults?: () => void): void {
  obj.apiVersion = ctx.apiVersion;
  obj.kind = ctx.def.kind;
  const meta = obj.metadata;
  const om = old.metadata;
  applyDefaults(ctx, obj, strategy);
  afterDefaults?.();
  if (om.generation !== undefined) meta.generation = om.generation;
  else delete meta.generation;
  strategy.prepareForUpdate(obj, old);
  if (!meta.uid) meta.uid = om.uid;
  meta.creationTimestamp = om.creationTimestamp;
  // An update never removes or changes a deletion mark (rest.BeforeUpdate); setting one where
  // there was none is left for validation to refuse.
  if (om.deletionTimestamp) meta.deletionTimestamp = om.deletionTimestamp;
  if (om.deletionGracePeriodSeconds !== undefined && meta.deletionGracePeriodSeconds === undefined) meta.deletionGracePeriodSeconds = om.deletionGracePeriodSeconds;
  delete meta.selfLink;
}

/**
 * The schema's defaults (kube's SetDefaults_* as data), then what only the type knows; then
 * the object as Go's struct holds it (a struct that is present has all its non-omitempty
 * fields, e.g. `ordinals: {}` is `{start: 0}`), which is what managedFields see in kube.
 */
function applyDefaults(ctx: StoreContext, obj: KObject, strategy: Strategy): void {
  applySchemaDefaults(obj, ctx.definition, SCHEMAS);
  strategy.applyDefaults(obj);
  goRoundTrip(obj, ctx.definition, SCHEMAS);
}

/**
 * Whether two objects' managedFields are the same text: kube compares the bytes it stores,
 * and FieldsV1 written in another key order (as its /scale writes leave it) is a change.
 */
function sameManagedFieldsText(a: KObject, b: KObject): boolean {
  return JSON.stringify(a.metadata.managedFields) === JSON.stringify(b.metadata.managedFields);
}

/**
 * The managedFields step of a non-apply write: on the defaulted object (canonical names
 * included, as kube's defaulting sets them), before the strategy's own changes.
 */
function trackFields(ctx: StoreContext, live: KObject | null, obj: KObject, strategy: Strategy, owner?: WriteOwner): (() => void) | undefined {
  if (!owner || owner.apply) return undefined;
  return () => {
    strategy.canonicalize?.(obj);
    try {
      ctx.fieldManager.update(live, obj, owner, { rawFields: true });
    } catch {
      // kube's UpdateNoErrors: a non-apply write never fails on field tracking (an object
      // validation will refuse, e.g. a list item without its key, cannot be tracked); it
      // goes on with its managedFields removed.
      delete obj.metadata.managedFields;
    }
  };
}

/**
 * Response bytes for a value this store just wrote at `revision` (0: a dry-run create, which
 * has no resourceVersion yet). The watch cache usually holds them already: the embedded
 * store feeds it before the write is acknowledged, and its bytes are the same. A dry run
 * wrote nothing: its revision is the current object's, whose bytes are not the answer.
 */
function answerBytes(ctx: StoreContext, obj: KObject, value: Buffer, revision: number, dryRun: boolean): Buffer {
  if (revision <= 0) return value;
  const hit = dryRun ? undefined : ctx.cache.get(ctx.keyFor(obj.metadata.namespace ?? '', obj.metadata.name!));
  if (hit && hit.rv === revision) return hit.bytes;
  return withResourceVersion(value, revision).bytes;
}

function hasTypeFinalizers(ctx: StoreContext, obj: KObject): boolean {
  return ctx.def.pendingTypeFinalizers?.(obj) ?? false;
}

function strategyFor(ctx: StoreContext, subresource: string): Strategy {
  if (subresource === '') return ctx.def.strategy;
  const s = ctx.def.subresources?.[subresource] ?? ctx.def.actions?.[subresource]?.strategy;
  if (!s) throw notFound(ctx.gr, '');
  return s;
}

/** Where kube's etcd3 store keeps an object (`/registry/<resource>/<namespace>/<name>`), as its errors name it. */
function kubeStorageKey(ctx: StoreContext, namespace: string, name: string): string {
  const path = ctx.def.kubeStoragePath ?? ctx.def.resource;
  return ctx.def.namespaced ? `${ctx.deps.storagePrefix}/${path}/${namespace}/${name}` : `${ctx.deps.storagePrefix}/${path}/${name}`;
}

/** Go's strconv.ParseUint(rv, 10, 64) error for a resourceVersion that is no uint64. */
function checkResourceVersionSyntax(rv: string): void {
  if (!/^[0-9]+$/.test(rv)) throw badRequest(`strconv.ParseUint: parsing ${goQuote(rv)}: invalid syntax`);
  if (BigInt(rv) > 0xffffffffffffffffn) throw badRequest(`strconv.ParseUint: parsing ${goQuote(rv)}: value out of range`);
}
