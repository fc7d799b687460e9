// PATCH. JSON Patch, JSON Merge Patch and strategic merge patch are applied to the latest
// object inside the store's update loop, so a concurrent write makes the patch re-apply
// rather than fail; the result is decoded through the schema like any body and validated
// by the type's strategy. Server-Side Apply is served elsewhere.

import { baseMediaType } from '../codec/body.js';
import { goDecodeUtf8 } from '../machinery/utf8.js';
import { decodeTypedDocument, type TypedTarget } from '../codec/typed-body.js';
import type { KObject } from '../machinery/object.js';
import { SCHEMAS, rootDefinition } from '../schema/types/index.js';
import { DecodeError, interpretTypeMeta } from '../schema/decode.js';
import { parsePatch, supportedPatchTypes, unsupportedPatchType, APPLY_PATCH_YAML, APPLY_PATCH_CBOR, type ParsedPatch } from './patch-types.js';
import { respondObject, respondStatus } from './respond.js';
import { addWarnings, readWriteBody, type Scope } from './scope.js';
import { OPTIMISTIC_LOCK_MESSAGE, StatusError, badRequest, conflict, fieldErrorMessage, genericNotFound, methodNotAllowed } from '../machinery/errors.js';
import { parseWriteOptions, writeOwner } from './write-options.js';
import { handleApplyPatch } from './apply.js';
import { withWriteChecks } from './authorization.js';

/** The cause inside a decode error's message, without the "X cannot be handled as a Y: " lead. */
function decodeCause(message: string): string {
  const m = /^.*? cannot be handled as a [A-Za-z]+: /.exec(message);
  return m ? message.slice(m[0].length) : message;
}

/**
 * A patched object that does not decode: kube's patcher reports it as 422 on the field
 * "patch", quoting the patched document (JSON and merge patch) or the patch (strategic).
 */
function patchedObjectInvalid(quoted: string, cause: string): StatusError {
  const text = fieldErrorMessage({ type: 'FieldValueInvalid', field: 'patch', badValue: quoted, detail: cause });
  return new StatusError(422, 'Invalid', ` "" is invalid: ${text}`, {
    causes: [{ reason: 'FieldValueInvalid', message: text.slice('patch: '.length), field: 'patch' }],
  });
}

export async function handlePatch(s: Scope): Promise<void> {
  const { info, def, store } = s;
  if (!info.name) throw methodNotAllowed();
  const own = store.subresourceREST(info.subresource);
  if (info.subresource && !own && !def.subresources?.[info.subresource]) throw genericNotFound();
  const mt = baseMediaType(s.ctx.get('content-type') || undefined);
  if (!supportedPatchTypes().includes(mt)) throw unsupportedPatchType();
  if (mt === APPLY_PATCH_YAML || mt === APPLY_PATCH_CBOR) return handleApplyPatch(s, mt);
  const opts = parseWriteOptions(s.query, 'PatchOptions', 'other');
  const body = goDecodeUtf8(await readWriteBody(s));
  // kube decodes the patch only once it holds the object (its patcher's applyPatch): a patch it
  // cannot read answers the object's NotFound when there is no object.
  let parsed: ParsedPatch | undefined;
  let unreadable: unknown;
  try {
    parsed = parsePatch(mt, body, opts.fieldValidation);
  } catch (e) {
    if (!(e instanceof StatusError) || e.code >= 500) throw e;
    unreadable = e;
  }
  const readPatch = (): ParsedPatch => {
    if (!parsed) throw unreadable;
    return parsed;
  };

  if (own) {
    // A subresource of its own kind (a Scale): the patch applies to it, inside the parent's update loop.
    const owner = withWriteChecks(s, writeOwner(opts, s.ctx.get('user-agent'), info.subresource));
    const ownTarget = { kind: own.kind.kind, group: own.kind.group, version: own.kind.version, definition: own.kind.definition };
    let ownWarnings: string[] = [];
    // The patched Scale is decoded as a Scale, as any patched object is (its int32 replicas among the checks).
    const res = await own.update(
      info.namespace,
      info.name,
      (current) => patchedObject(readPatch(), current as unknown as KObject, own.kind.definition, ownTarget, opts.fieldValidation, (w) => (ownWarnings = w)),
      opts.dryRun,
      owner,
    );
    addWarnings(s, [...ownWarnings, ...res.warnings]);
    respondStatus(s.ctx, res.object, 200, s.out, s.pretty);
    return;
  }

  const root = rootDefinition(def.group, def.version, def.kind);
  const target = { kind: def.kind, group: def.group, version: def.version, definition: root };
  let warnings: string[] = [];
  const res = await store.guaranteedUpdate(
    info.namespace,
    info.name,
    info.subresource,
    (old) => {
      const obj = patchedObject(readPatch(), old, root, target, opts.fieldValidation, (w) => (warnings = w));
      // A resourceVersion the patch leaves in the object is a precondition, as in an update.
      const wantRv = obj.metadata.resourceVersion;
      if (typeof wantRv === 'string' && wantRv !== '' && wantRv !== old.metadata.resourceVersion) {
        throw conflict(store.gr, info.name, OPTIMISTIC_LOCK_MESSAGE);
      }
      // kube's checkName: a patched object without a name has no name to compare.
      if (!obj.metadata.name) throw badRequest(`the name of the object (${info.name} based on URL) was undeterminable: name must be provided`);
      if (obj.metadata.name !== info.name) throw badRequest(`the name of the object (${String(obj.metadata.name ?? '')}) does not match the name on the URL (${info.name})`);
      return obj;
    },
    undefined,
    opts.dryRun,
    withWriteChecks(s, writeOwner(opts, s.ctx.get('user-agent'), info.subresource)),
  );
  addWarnings(s, [...warnings, ...res.warnings]);
  respondObject(s.ctx, 200, def, res.bytes, s.out, s.pretty);
}

function patchedObject(
  patch: ParsedPatch,
  old: KObject,
  root: string,
  target: TypedTarget,
  fieldValidation: Parameters<typeof decodeTypedDocument>[3],
  setWarnings: (w: string[]) => void,
): KObject {
  const patched = patch.apply(old as unknown as Record<string, unknown>, root);
  if (patched === null || typeof patched !== 'object' || Array.isArray(patched)) {
    // kube decodes the patched JSON, whose kind is read first (json.SimpleMetaFactory.Interpret).
    try {
      interpretTypeMeta(patched);
    } catch (e) {
      if (e instanceof DecodeError) throw patchedObjectInvalid(patch.quote(patched), e.message);
      throw e;
    }
    throw patchedObjectInvalid(patch.quote(patched), `json: cannot unmarshal ${Array.isArray(patched) ? 'array' : 'value'} into Go value of type map[string]interface {}`);
  }
  // The patch's own strict findings come first; with them, the object's are collected as
  // warnings and joined into one strict decoding error when the client asked for Strict.
  const ownFindings = patch.strictErrors.length > 0 && fieldValidation === 'Strict';
  let decoded;
  try {
    // The patched document as it is (numbers still their literals), not written out and read again.
    decoded = decodeTypedDocument(patched, target, SCHEMAS, ownFindings ? 'Warn' : fieldValidation, { integers: patch.integers });
  } catch (e) {
    if (e instanceof StatusError && e.code === 400) throw patchedObjectInvalid(patch.quote(patched), decodeCause(e.status.message ?? ''));
    throw e;
  }
  if (ownFindings) {
    throw patchedObjectInvalid(patch.quote(patched), `strict decoding error: ${[...patch.strictErrors, ...decoded.warnings].join(', ')}`);
  }
  setWarnings(fieldValidation === 'Warn' ? [...patch.strictErrors, ...decoded.warnings] : decoded.warnings);
  const obj = decoded.object as KObject;
  obj.metadata ??= {};
  return obj;
}
