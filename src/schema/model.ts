// The shape of kapi's one schema source. Every served type and the types they embed
// are described once as StructSchema data (src/schema/types/); decoding with
// unknown/duplicate-field detection, defaulting, structural validation, OpenAPI v2/v3,
// Server-Side Apply's merge markers and `kubectl explain` all read it.
//
// Names are kube's OpenAPI definition names (io.k8s.api.apps.v1.StatefulSetSpec), so
// the OpenAPI output and $refs line up with what clients know.

/** A reference to a value's type. */
export type TypeRef =
  | { kind: 'string'; enum?: string[]; format?: string }
  | { kind: 'boolean' }
  | { kind: 'int32' }
  | { kind: 'int64' }
  | { kind: 'number' }
  /** []byte: base64 in JSON. */
  | { kind: 'bytes' }
  /** A named struct in the registry. */
  | { kind: 'ref'; name: string }
  | { kind: 'array'; items: TypeRef }
  | { kind: 'map'; values: TypeRef }
  /** intstr.IntOrString: a JSON number (int32) or string. */
  | { kind: 'intOrString' }
  /** resource.Quantity: a string (or number) in kube's quantity syntax. */
  | { kind: 'quantity' }
  /** metav1.Time: RFC 3339 string (or null). */
  | { kind: 'time' }
  /** metav1.MicroTime: RFC 3339 with microseconds. */
  | { kind: 'microTime' }
  /** runtime.RawExtension / apiextensions JSON: any JSON value, preserved as is. */
  | { kind: 'any' }
  /** metav1.FieldsV1: a JSON object of field paths. */
  | { kind: 'fieldsV1' };

export interface FieldSchema {
  /** The JSON name. */
  name: string;
  type: TypeRef;
  /** Required in the OpenAPI sense (no omitempty, not optional). */
  required?: boolean;
  /** Go's omitempty: a zero value is left out of the JSON kube writes. */
  omitempty?: boolean;
  /** A Go pointer: present-but-zero survives a round trip. */
  pointer?: boolean;
  /** The server's default when the field is absent (applied by defaulting). */
  default?: unknown;
  /** x-kubernetes-list-type */
  listType?: 'atomic' | 'set' | 'map';
  /** x-kubernetes-list-map-keys */
  listMapKeys?: string[];
  /** x-kubernetes-map-type, for map-valued and struct-valued fields */
  mapType?: 'atomic' | 'granular';
  /** x-kubernetes-patch-strategy: 'merge', 'retainKeys', 'merge,retainKeys', 'replace' */
  patchStrategy?: string;
  /** x-kubernetes-patch-merge-key */
  patchMergeKey?: string;
  /** kube's protobuf field number. */
  protobuf?: number;
  /** Embedded (inline) struct whose fields appear in the parent object. */
  inline?: boolean;
  /** Our own words, for OpenAPI and `kubectl explain`. */
  description?: string;
}

export interface StructSchema {
  /** OpenAPI definition name, e.g. io.k8s.api.apps.v1.StatefulSet. */
  name: string;
  description?: string;
  fields: FieldSchema[];
  /** x-kubernetes-map-type on the struct itself ('atomic' structs are replaced whole by SSA). */
  structType?: 'atomic' | 'granular';
  /** For top-level kinds: x-kubernetes-group-version-kind. */
  gvk?: { group: string; version: string; kind: string };
  /** x-kubernetes-unions and similar extensions, carried into OpenAPI as is. */
  extensions?: Record<string, unknown>;
}

export type SchemaRegistry = Record<string, StructSchema>;
