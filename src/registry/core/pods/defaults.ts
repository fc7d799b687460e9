// What a pod spec reads back with beyond its defaults. The defaults themselves (kube's
// SetDefaults_Pod, _PodSpec, _Container, _Probe, _Volume, ... with the image pull policy
// rule) have one home, the schema's table in src/schema/types/defaults.ts, which the store
// applies to every object before its strategy runs. What is left here are the empty structs
// Go's encoder always writes, which no default sets.

import { withNullCreationTimestamp } from '../../../machinery/meta.js';
import { asArr, isObj, type Obj } from '../../../machinery/json-view.js';

/** Containers' and init containers' `resources` is a non-pointer struct: Go writes `{}`. */
export function addEmptyStructs(spec: Obj): void {
  for (const list of ['containers', 'initContainers'] as const) {
    for (const c of asArr(spec[list])) if (isObj(c)) c.resources ??= {};
  }
}

/** A pod template as kube writes it: metadata with its null creationTimestamp, the spec's empty structs. */
export function addTemplateEmptyStructs(template: { metadata?: Record<string, unknown>; spec?: Record<string, unknown> }): void {
  template.metadata = withNullCreationTimestamp(template.metadata ?? {});
  if (template.spec) addEmptyStructs(template.spec);
}
