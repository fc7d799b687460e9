// Fields of feature gates that are off in kube 1.33: dropped on write unless the old object
// already used them (pod.DropDisabledPodFields, DropDisabledTemplateFields).

import { asArr, asObj, isObj, type Obj } from '../../../machinery/json-view.js';

const podContainers = (s: Obj): Obj[] =>
  (['containers', 'initContainers', 'ephemeralContainers'] as const).flatMap((k) => asArr(s[k]).filter(isObj));

/** DropDisabledPodFields for the gates that are off in 1.33 (unless the old object used them). */
export function dropDisabledPodSpecFields(s: Obj, old?: Obj): void {
  // PodLevelResources (alpha): spec.resources.
  if (!old?.resources) delete s.resources;
  // DynamicResourceAllocation (beta, off by default): resourceClaims and container claims.
  const oldUsesClaims = old !== undefined && (asArr(old.resourceClaims).length > 0 || podContainers(old).some((c) => asArr(asObj(c.resources)?.claims).length > 0));
  if (!oldUsesClaims) {
    delete s.resourceClaims;
    for (const c of podContainers(s)) {
      const res = asObj(c.resources);
      if (res) delete res.claims;
    }
  }
  // ImageVolume (beta, off by default): image volume sources.
  const oldUsesImage = old !== undefined && asArr(old.volumes).some((v) => asObj(v)?.image !== undefined);
  if (!oldUsesImage) for (const v of asArr(s.volumes).filter(isObj)) delete v.image;
}

/** PodObservedGenerationTracking is alpha in 1.33: status.observedGeneration is dropped. */
export function dropDisabledStatusFields(st: Obj, old?: Obj): void {
  const oldUses = old !== undefined && (old.observedGeneration !== undefined || asArr(old.conditions).some((c) => asObj(c)?.observedGeneration !== undefined));
  if (oldUses) return;
  delete st.observedGeneration;
  for (const c of asArr(st.conditions).filter(isObj)) delete c.observedGeneration;
}
