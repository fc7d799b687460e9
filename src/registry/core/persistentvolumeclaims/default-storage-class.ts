// The DefaultStorageClass admission plugin: a claim created without a class (neither
// spec.storageClassName nor the beta annotation; an empty name is a choice of no class) gets the
// default one, the class marked by storageclass.kubernetes.io/is-default-class. With several
// defaults the newest wins, then the first by name, as kube's GetDefaultClass orders them.

import type { AdmissionContext } from '../../types.js';
import type { KObject } from '../../../machinery/object.js';
import { asObj } from '../../../machinery/json-view.js';
import { isDefaultClass } from '../../storage/storageclasses/strategy.js';

const BETA_STORAGE_CLASS = 'volume.beta.kubernetes.io/storage-class';

export async function admitDefaultStorageClass(obj: KObject, ctx: AdmissionContext): Promise<void> {
  const spec = asObj(obj.spec);
  if (Object.hasOwn(obj.metadata.annotations ?? {}, BETA_STORAGE_CLASS)) return;
  if (spec && spec.storageClassName !== undefined && spec.storageClassName !== null) return;
  const defaults = (await ctx.list({ group: 'storage.k8s.io', resource: 'storageclasses' })).filter(isDefaultClass);
  if (defaults.length === 0) return;
  const created = (o: KObject): number => Date.parse(o.metadata.creationTimestamp ?? '') || 0;
  defaults.sort((a, b) => created(b) - created(a) || (a.metadata.name! < b.metadata.name! ? -1 : a.metadata.name! > b.metadata.name! ? 1 : 0));
  (obj.spec ??= {} as Record<string, unknown>);
  (obj.spec as Record<string, unknown>).storageClassName = defaults[0]!.metadata.name;
}
