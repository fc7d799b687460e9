// How the binder and the provisioner read claims and volumes: as plain JSON, with absent parts empty.

import { asObj, str, type Obj } from '../../machinery/json-view.js';

export const meta = (o: Obj): Obj => asObj(o.metadata) ?? {};
export const spec = (o: Obj): Obj => asObj(o.spec) ?? {};
export const annotations = (o: Obj): Record<string, string> => (asObj(meta(o).annotations) ?? {}) as Record<string, string>;
/** A claim's work queue key. */
export const claimKey = (c: Obj): string => `${str(meta(c).namespace)}/${str(meta(c).name)}`;
