// How one kind's objects sit in storage. Most types store their own shape; a type that serves
// another resource's stored objects (storedAs: events.k8s.io/v1 Events are the core/v1 Events,
// as kube's cohabiting resources are) converts on the way in and out. Every part of the store
// that touches stored bytes goes through this, so a view is a view everywhere: reads from the
// store, the watch cache (which keeps the view's bytes), the actor's guesses, answers.

import type { KeyValue } from '../../storage/interface.js';
import type { CacheEntry } from '../../cache/watch-cache.js';
import type { KObject } from '../../machinery/object.js';
import { decodeObject, encodeForStorage, stripResourceVersion } from '../../machinery/stored-bytes.js';
import { CorruptObjectError, corruptReason } from '../../machinery/corrupt.js';
import { SCHEMAS, rootDefinition, storageRoundTrip } from '../../schema/types/index.js';
import type { ResourceDef } from '../types.js';

export interface StoredForm {
  /** The key prefix's group and resource: the type's own, or the stored resource's. */
  readonly group: string;
  readonly resource: string;
  /** The watch cache's transform of stored bytes into the type's bytes (none for the type's own shape). */
  readonly cacheTransform?: (value: Buffer) => Buffer;
  /** A stored value decoded in the type's shape, with metadata.resourceVersion from the store. */
  decode(kv: KeyValue): KObject;
  /** Stored bytes (no resourceVersion) as the type's bytes. */
  view(value: Buffer): Buffer;
  /** The bytes to store for an object of the type, as it is. */
  encode(obj: KObject): Buffer;
  /**
   * The bytes to store for a validated object, after what kube's protobuf storage does to it
   * (in place, for the type's own shape: the answer shows it too).
   */
  storedForm(obj: KObject, definition: string): Buffer;
  /** The answer's bytes (no resourceVersion) for an object written as `stored`. */
  answer(obj: KObject, stored: Buffer | undefined): Buffer;
  /** A cache entry as the stored key-value the actor compares and swaps. */
  kvOf(e: CacheEntry): KeyValue;
}

function withRevision(obj: KObject, kv: KeyValue): KObject {
  obj.metadata.resourceVersion = String(kv.modRevision);
  return obj;
}

/**
 * A stored value that cannot be read is kube's corrupt-object error (a write or delete of such
 * an object fails as its get does), its key named without the storage prefix.
 */
function readable(kv: KeyValue, group: string, resource: string): KeyValue {
  const bad = corruptReason(kv);
  if (!bad) return kv;
  const at = kv.key.indexOf(`/${group || 'core'}/${resource}/`);
  throw new CorruptObjectError(at >= 0 ? kv.key.slice(at) : kv.key, bad);
}

const OWN: StoredForm = {
  group: '',
  resource: '',
  decode(kv) {
    return withRevision(decodeObject(readable(kv, this.group, this.resource).value), kv);
  },
  view: (value) => value,
  encode: (obj) => encodeForStorage(obj),
  storedForm(obj, definition) {
    storageRoundTrip(obj, definition, SCHEMAS);
    return encodeForStorage(obj);
  },
  answer: (obj, stored) => stored ?? encodeForStorage(obj),
  kvOf: (e) => ({ key: e.key, value: stripResourceVersion(e), modRevision: e.rv, createRevision: e.createRevision, stale: e.stale }),
};

export function storedFormOf(def: ResourceDef): StoredForm {
  const as = def.storedAs;
  if (!as) return { ...OWN, group: def.group, resource: def.resource };
  const storedDefinition = rootDefinition(as.group, 'v1', def.kind);
  const view = (value: Buffer): Buffer => encodeForStorage(as.fromStored(decodeObject(value)));
  const encode = (obj: KObject): Buffer => encodeForStorage(as.toStored(obj));
  return {
    group: as.group,
    resource: as.resource,
    cacheTransform: view,
    decode: (kv) => withRevision(as.fromStored(decodeObject(readable(kv, as.group, as.resource).value)), kv),
    view,
    encode,
    storedForm(obj) {
      const stored = as.toStored(obj);
      storageRoundTrip(stored, storedDefinition, SCHEMAS);
      return encodeForStorage(stored);
    },
    answer: (obj, stored) => (stored ? view(stored) : encodeForStorage(obj)),
    kvOf: (e) => ({ key: e.key, value: encode(decodeObject(stripResourceVersion(e))), modRevision: e.rv, createRevision: e.createRevision, stale: e.stale }),
  };
}
