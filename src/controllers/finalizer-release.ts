// Letting an object go: the protection controllers (pvc-protection, pv-protection) remove
// their finalizer through the store's update, as any client would, so the deletion the
// finalizer held back completes.

import type { GenericStore } from '../registry/generic/store.js';
import type { KObject } from '../machinery/object.js';
import { StatusError } from '../machinery/errors.js';
import { clone } from '../machinery/meta.js';
import { NotLeadingError } from './manager.js';

/**
 * Removes `finalizer` from the object. `acting` is checked inside the update loop, right
 * before the write, so a node that lost the lease acts no more; `keep` looks at the object as
 * it is at the write (it may be needed again since the event was seen). An object already gone
 * is not an error.
 */
export async function releaseFinalizer(
  store: GenericStore,
  namespace: string,
  name: string,
  finalizer: string,
  acting: () => boolean,
  keep: (obj: KObject) => boolean = () => false,
): Promise<void> {
  try {
    await store.guaranteedUpdate(
      namespace,
      name,
      '',
      (old) => {
        if (!acting()) throw new NotLeadingError();
        const obj = clone(old);
        if (keep(obj)) return obj;
        obj.metadata.finalizers = (obj.metadata.finalizers ?? []).filter((f) => f !== finalizer);
        if (obj.metadata.finalizers.length === 0) delete obj.metadata.finalizers;
        return obj;
      },
      undefined,
      false,
      { manager: 'kube-controller-manager', subresource: '' },
    );
  } catch (e) {
    if (e instanceof StatusError && e.code === 404) return;
    throw e;
  }
}
