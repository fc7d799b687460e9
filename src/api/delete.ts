import { parseWriteOptions } from './write-options.js';
import { readBody, decodeBody } from '../codec/body.js';
import type { DeleteOptions } from '../registry/generic/store.js';
import { buildFilter } from './filters.js';
import { intParam, type Scope } from './scope.js';
import { respondList, respondObject, respondStatus } from './respond.js';
import { StatusError, badRequest, genericNotFound } from './status-error.js';

const POLICIES = ['Foreground', 'Background', 'Orphan'];

/** DeleteOptions from the body (if any) and the query, validated as kube validates them. */
async function deleteOptions(s: Scope): Promise<DeleteOptions> {
  const { dryRun } = parseWriteOptions(s.query, 'DeleteOptions');
  const body = await readBody(s.ctx.req);
  let fromBody: Record<string, unknown> = {};
  if (body.length > 0) {
    const doc = decodeBody(body, s.ctx.get('content-type') || undefined, { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1' });
    if (doc !== null && typeof doc === 'object' && !Array.isArray(doc)) fromBody = doc as Record<string, unknown>;
    else throw badRequest('DeleteOptions in version "v1" cannot be handled as a DeleteOptions: expected an object');
  }
  const q = s.query;
  const bodyDry = fromBody.dryRun;
  const opts: DeleteOptions = { dryRun: dryRun || (Array.isArray(bodyDry) && bodyDry.includes('All')) };
  const policy = (q.get('propagationPolicy') ?? fromBody.propagationPolicy) as string | undefined;
  if (policy !== undefined && policy !== null) {
    if (!POLICIES.includes(policy)) {
      throw new StatusError(422, 'Invalid', `DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "${policy}": supported values: "Foreground", "Background", "Orphan", "nil"`, {
        group: 'meta.k8s.io',
        kind: 'DeleteOptions',
        causes: [{ reason: 'FieldValueNotSupported', message: `Unsupported value: "${policy}": supported values: "Foreground", "Background", "Orphan", "nil"`, field: 'propagationPolicy' }],
      });
    }
    opts.propagationPolicy = policy;
  }
  const grace = intParam(q, 'gracePeriodSeconds') ?? (fromBody.gracePeriodSeconds as number | undefined);
  if (grace !== undefined) opts.gracePeriodSeconds = grace;
  const pre = fromBody.preconditions as DeleteOptions['preconditions'] | undefined;
  if (pre) opts.preconditions = pre;
  return opts;
}

export async function handleDelete(s: Scope): Promise<void> {
  const { info, def } = s;
  if (info.subresource) throw genericNotFound();
  const opts = await deleteOptions(s);
  const res = await s.store.delete(info.namespace, info.name, opts);
  if (res.kind === 'marked' || def.returnDeletedObject) {
    respondObject(s.ctx, 200, def, res.object.bytes, s.out, s.pretty);
    return;
  }
  const status = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Success',
    details: { name: info.name, group: def.group, kind: def.resource, uid: res.obj.metadata.uid },
  };
  respondStatus(s.ctx, status, 200, s.out, s.pretty);
}

export async function handleDeleteCollection(s: Scope): Promise<void> {
  const opts = await deleteOptions(s);
  const res = await s.store.deleteCollection(s.info.namespace, { filter: buildFilter(s.def, s.query) }, opts);
  respondList(s.ctx, s.def, res.items, { resourceVersion: String(res.resourceVersion) }, { mediaType: s.out.mediaType }, s.pretty);
}
