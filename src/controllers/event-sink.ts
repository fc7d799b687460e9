// Where in-process components' events go: the events store, through its verbs (validation,
// managedFields under the component's manager name), as an API client's events would.

import type { EventSink } from '../client/events.js';
import type { GenericStore } from '../registry/generic/store.js';
import type { KObject } from '../machinery/object.js';
import { asObj, type Obj } from '../machinery/json-view.js';

/** A sink into `events` (core/v1 or events.k8s.io/v1's store) that writes only while `leading()`. */
export function storeEventSink(events: GenericStore, manager: string, leading: () => boolean): EventSink {
  return {
    create: async (namespace, ev) => {
      if (!leading()) return;
      await events.create(namespace, structuredClone(ev) as KObject, false, { manager, subresource: '' });
    },
    patch: async (namespace, name, patch) => {
      if (!leading()) return;
      await events.guaranteedUpdate(
        namespace,
        name,
        '',
        (old) => {
          const next = structuredClone(old) as Obj;
          for (const [k, v] of Object.entries(patch)) {
            const cur = asObj(next[k]);
            next[k] = cur && asObj(v) ? { ...cur, ...asObj(v) } : v;
          }
          return next as KObject;
        },
        undefined,
        false,
        { manager, subresource: '' },
      );
    },
  };
}
