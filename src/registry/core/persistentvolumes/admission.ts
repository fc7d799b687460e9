// What kube's StorageObjectInUseProtection admission plugin does to a volume on create: the
// `kubernetes.io/pv-protection` finalizer, which the pv-protection controller
// (src/controllers/pv-protection.ts) removes once the volume being deleted is no longer bound.

import type { Admission } from '../../types.js';

export const PV_PROTECTION_FINALIZER = 'kubernetes.io/pv-protection';

export const volumeAdmission: Admission = {
  admit(obj, attrs, ctx) {
    if (attrs.subresource !== '' || attrs.operation !== 'CREATE') return;
    const finalizers = obj.metadata.finalizers ?? [];
    if (ctx.enabled('StorageObjectInUseProtection') && !finalizers.includes(PV_PROTECTION_FINALIZER)) obj.metadata.finalizers = [...finalizers, PV_PROTECTION_FINALIZER];
  },
};
