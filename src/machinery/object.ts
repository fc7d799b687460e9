// The object shapes every layer passes around: decoded JSON with typed metadata
// (metav1.ObjectMeta and the runtime.Object envelope, as far as kapi reads them).

/** An object as it travels through the registry: decoded JSON with typed metadata. */
export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string | null;
  deletionTimestamp?: string | null;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: unknown[];
  finalizers?: string[];
  managedFields?: unknown[];
  selfLink?: string;
  [k: string]: unknown;
}

export interface KObject {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
  [k: string]: unknown;
}
