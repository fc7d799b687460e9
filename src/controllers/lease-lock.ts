// A LeaseLock over the leases store: every read and write goes through the registry's
// verbs (admission, validation, managedFields), the same path a client's would take.

import type { GenericStore } from '../registry/generic/store.js';
import type { KObject } from '../machinery/object.js';
import { StatusError } from '../machinery/errors.js';
import { decodeObject } from '../machinery/stored-bytes.js';
import type { LeaseLock } from './leader-election.js';

export function storeLeaseLock(store: GenericStore, namespace: string, name: string, manager: string): LeaseLock {
  const owner = { manager, subresource: '' };
  const key = store.keyFor(namespace, name);
  return {
    namespace,
    name,
    async get() {
      try {
        return decodeObject((await store.get(namespace, name)).bytes);
      } catch (e) {
        if (e instanceof StatusError && e.code === 404) return null;
        throw e;
      }
    },
    async create(lease: KObject) {
      return (await store.create(namespace, lease, false, owner)).obj;
    },
    async update(lease: KObject) {
      return (await store.update(namespace, name, lease, '', false, owner)).obj;
    },
    watch(onChange) {
      return store.cache.subscribe((events) => {
        for (const e of events) {
          if (e.entry.key !== key) continue;
          onChange(e.type === 'DELETED' ? null : decodeObject(e.entry.bytes));
        }
      });
    },
  };
}
