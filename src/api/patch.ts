// PATCH. JSON Merge Patch (RFC 7386) is applied to the latest object inside the store's
// update loop, so a concurrent write makes it re-apply rather than fail; the result is
// decoded through the schema like any body. The other patch types come with the patch issue.

import { readBody, baseMediaType } from '../codec/body.js';
import { decodeTypedBody } from '../codec/typed-body.js';
import { applyMergePatch } from '../patch/merge-patch.js';
import type { KObject } from '../registry/types.js';
import { SCHEMAS, rootDefinition } from '../schema/types/index.js';
import { JsonSyntaxError, scanJson } from '../schema/json-scan.js';
import { respondObject, respondStatus } from './respond.js';
import { scaleOf, scaledObject } from './scale.js';
import { addWarnings, type Scope } from './scope.js';
import { OPTIMISTIC_LOCK_MESSAGE, StatusError, badRequest, conflict, genericNotFound, methodNotAllowed } from './status-error.js';
import { parseWriteOptions, writeOwner } from './write-options.js';
import { APPLY_PATCH_YAML, handleApplyPatch } from './apply.js';

const MERGE_PATCH = 'application/merge-patch+json';

export async function handlePatch(s: Scope): Promise<void> {
  const { info, def, store } = s;
  if (!info.name) throw methodNotAllowed();
  if (info.subresource && info.subresource !== 'scale' && !def.subresources?.[info.subresource]) throw genericNotFound();
  const mt = baseMediaType(s.ctx.get('content-type') || undefined);
  if (mt === APPLY_PATCH_YAML) return handleApplyPatch(s);
  if (mt !== MERGE_PATCH) {
    throw new StatusError(
      415,
      'UnsupportedMediaType',
      `the body of the request was in an unknown format - accepted media types include: ${MERGE_PATCH}, ${APPLY_PATCH_YAML}`,
    );
  }
  const opts = parseWriteOptions(s.query, 'PatchOptions', 'other');
  const body = (await readBody(s.ctx.req)).toString('utf8');
  let patch: unknown;
  try {
    patch = scanJson(body, {}).value;
  } catch (e) {
    if (e instanceof JsonSyntaxError) throw badRequest(`error decoding patch: ${e.message}`);
    throw e;
  }
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) {
    throw badRequest('json: cannot unmarshal into Go value of type map[string]interface {}');
  }

  if (info.subresource === 'scale') {
    if (!def.scale) throw genericNotFound();
    const res = await store.guaranteedUpdate(
      info.namespace,
      info.name,
      '',
      (old) => scaledObject(s, old, applyMergePatch(scaleOf(def, old), patch) as Parameters<typeof scaledObject>[2]),
      undefined,
      opts.dryRun,
      writeOwner(opts, s.ctx.get('user-agent'), 'scale'),
    );
    respondStatus(s.ctx, scaleOf(def, res.obj), 200, s.out, s.pretty);
    return;
  }

  const target = { kind: def.kind, group: def.group, version: def.version, definition: rootDefinition(def.group, def.version, def.kind) };
  let warnings: string[] = [];
  const res = await store.guaranteedUpdate(
    info.namespace,
    info.name,
    info.subresource,
    (old) => {
      const wantRv = (patch as { metadata?: { resourceVersion?: unknown } }).metadata?.resourceVersion;
      if (typeof wantRv === 'string' && wantRv !== '' && wantRv !== old.metadata.resourceVersion) {
        throw conflict(store.gr, info.name, OPTIMISTIC_LOCK_MESSAGE);
      }
      const merged = applyMergePatch(old, patch);
      const decoded = decodeTypedBody(Buffer.from(JSON.stringify(merged)), 'application/json', target, SCHEMAS, opts.fieldValidation);
      warnings = decoded.warnings;
      const obj = decoded.object as KObject;
      obj.metadata ??= {};
      if (obj.metadata.name !== info.name) throw badRequest(`the name of the object (${String(obj.metadata.name)}) does not match the name on the URL (${info.name})`);
      return obj;
    },
    undefined,
    opts.dryRun,
    writeOwner(opts, s.ctx.get('user-agent'), info.subresource),
  );
  addWarnings(s, warnings);
  respondObject(s.ctx, 200, def, res.bytes, s.out, s.pretty);
}
