// What kube's admission plugins do to a claim on create: DefaultStorageClass (a claim that
// names no class gets the default StorageClass, when the cluster has one) and
// StorageObjectInUseProtection (the `kubernetes.io/pvc-protection` finalizer, which the
// protection controller removes once no pod uses the claim).

import type { KObject } from '../../../machinery/object.js';
import type { Admission, AdmissionContext } from '../../types.js';
import { isDefaultClass } from '../../storage/storageclasses/strategy.js';

export const PVC_PROTECTION_FINALIZER = 'kubernetes.io/pvc-protection';

const BETA_STORAGE_CLASS = 'volume.beta.kubernetes.io/storage-class';
const STORAGE_CLASSES = { group: 'storage.k8s.io', resource: 'storageclasses' };

/** The default StorageClass: the newest of those marked default (kube's GetDefaultClass), by name when created together. */
function defaultStorageClass(ctx: AdmissionContext): KObject | undefined {
  const defaults = ctx
    .list(STORAGE_CLASSES)
    .filter(isDefaultClass)
    .sort((a, b) => {
      const ta = a.metadata.creationTimestamp ?? '';
      const tb = b.metadata.creationTimestamp ?? '';
      if (ta !== tb) return ta > tb ? -1 : 1;
      return (a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1;
    });
  return defaults[0];
}

export const claimAdmission: Admission = {
  admit(obj, attrs, ctx) {
    if (attrs.subresource !== '' || attrs.operation !== 'CREATE') return;
    const spec = (obj.spec ??= {}) as { storageClassName?: unknown };
    if ((spec.storageClassName === undefined || spec.storageClassName === null) && !Object.hasOwn(obj.metadata.annotations ?? {}, BETA_STORAGE_CLASS)) {
      const d = defaultStorageClass(ctx);
      if (d?.metadata.name) spec.storageClassName = d.metadata.name;
    }
    const finalizers = obj.metadata.finalizers ?? [];
    if (!finalizers.includes(PVC_PROTECTION_FINALIZER)) obj.metadata.finalizers = [...finalizers, PVC_PROTECTION_FINALIZER];
  },
};
