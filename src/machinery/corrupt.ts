// Objects that cannot be read back from the store (a value encrypted with a key that is gone
// or wrong, bytes that are not the JSON written), reported as kube-apiserver 1.33 reports
// them. With AllowUnsafeMalformedObjectDeletion the errors are kube's "corrupt object"
// StorageErrors (and such an object can be force-deleted); without it, the bare reason.

import { StatusError, internalError, qualifiedResource, type GroupResource } from './errors.js';
import { featureEnabled } from './feature-gates.js';
import { JsonSyntaxError, scanJson } from './json-scan.js';

/** Why a stored value cannot be read. */
export type CorruptReason =
  /** The value could not be decrypted: the transformer's words. */
  | { kind: 'untransformable'; detail: string }
  /** It decrypted, but is not an object: the decoder's words and the value's revision. */
  | { kind: 'undecodable'; detail: string; revision: number };

/** kube's corruptObjectError text. */
export function corruptText(r: CorruptReason): string {
  return r.kind === 'untransformable'
    ? `data from the storage is not transformable revision=0: ${r.detail}`
    : `object not decodable revision=${r.revision}: ${r.detail}`;
}

/** kube's StorageError text for a corrupt object. */
export function storageErrorText(key: string, r: CorruptReason): string {
  return `StorageError: corrupt object, Code: 7, Key: ${key}, ResourceVersion: 0, AdditionalErrorMsg: ${corruptText(r)}`;
}

const KIND_PREFIX = Buffer.from('{"kind":"');

/**
 * Why `value` is not a stored object, or undefined when it is one. Values in the stored form
 * (`{"kind":"...`, ending with `}`) are taken as they are (parsing every value the watch
 * brings would cost more than the rest of its path); anything else is parsed.
 */
export function decodeProblem(value: Buffer): string | undefined {
  if (value.length > KIND_PREFIX.length && value.subarray(0, KIND_PREFIX.length).equals(KIND_PREFIX) && value[value.length - 1] === 0x7d) return undefined;
  const text = value.toString('utf8');
  try {
    const doc = JSON.parse(text) as unknown;
    if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) return "couldn't get version/kind; json parse error: json: cannot unmarshal " + (Array.isArray(doc) ? 'array' : typeof doc) + ' into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';
    return undefined;
  } catch {
    try {
      scanJson(text);
    } catch (e) {
      if (e instanceof JsonSyntaxError) return `couldn't get version/kind; json parse error: ${e.message}`;
    }
    return "couldn't get version/kind; json parse error: unexpected end of JSON input";
  }
}

/** The reason a stored key/value cannot be read, if it cannot. */
export function corruptReason(kv: { value: Buffer; modRevision: number; readError?: string }): CorruptReason | undefined {
  if (kv.readError !== undefined) return { kind: 'untransformable', detail: kv.readError };
  const d = decodeProblem(kv.value);
  return d === undefined ? undefined : { kind: 'undecodable', detail: d, revision: kv.modRevision };
}

/** A Status with no reason (kube's answer for an error that is not an API status). */
function bare(message: string): StatusError {
  const e = new StatusError(500, '', message);
  delete e.status.reason;
  return e;
}

/**
 * The error of a get (or a write that reads) of a corrupt object; `relativeKey` is the key
 * without the storage prefix, as kube's get names it.
 */
export class CorruptObjectError extends StatusError {
  constructor(
    relativeKey: string,
    readonly reason2: CorruptReason,
  ) {
    const gate = featureEnabled('AllowUnsafeMalformedObjectDeletion');
    const inner = gate ? storageErrorText(relativeKey, reason2) : reason2.detail;
    const proto = gate || reason2.kind === 'untransformable' ? internalError(new Error(inner)) : bare(inner);
    super(proto.code, proto.reason, proto.status.message ?? '', proto.status.details);
    if (!proto.status.reason) delete this.status.reason;
    this.name = 'CorruptObjectError';
  }
}

/** The error of a list that met corrupt objects (`fullKey` each, with the storage prefix). */
export function corruptListError(gr: GroupResource, items: Array<{ fullKey: string; reason: CorruptReason }>): StatusError {
  if (!featureEnabled('AllowUnsafeMalformedObjectDeletion')) {
    const first = items[0];
    if (first.reason.kind === 'untransformable') return internalError(new Error(`unable to transform key ${JSON.stringify(first.fullKey)}: ${first.reason.detail}`));
    return bare(first.reason.detail);
  }
  const causes: Array<{ reason: string; message: string; field?: string }> = items.slice(0, 100).map((it) => ({
    reason: 'UnexpectedServerResponse',
    message: storageErrorText(it.fullKey, it.reason),
    field: it.fullKey,
  }));
  if (items.length > 100) causes.push({ reason: 'FieldValueTooMany', message: 'too many errors, the list is truncated' });
  return new StatusError(500, 'StorageReadError', `failed to read one or more ${qualifiedResource(gr)} from the storage`, {
    name: 'list',
    group: gr.group,
    kind: gr.resource,
    causes,
  });
}

/** The ERROR event a watch gets for a change it cannot read (kube's etcd3 watcher). */
export function corruptWatchError(r: CorruptReason, deleted: boolean): StatusError {
  const gate = featureEnabled('AllowUnsafeMalformedObjectDeletion');
  const detail = gate ? corruptText(r) : r.detail;
  if (deleted && gate) {
    const e = new StatusError(500, 'StorageReadError', `saw a DELETED event, but object data is corrupt - ${detail}`);
    return e;
  }
  return internalError(new Error(detail));
}
