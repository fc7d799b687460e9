// The gnostic `openapi.v2.Document` protobuf encoding of a swagger 2.0 document: what
// kube-apiserver serves at /openapi/v2 for
//   Accept: application/com.github.proto-openapi.spec.v2@v1.0+protobuf
// and what kubectl <= 1.27 and client-go's discovery OpenAPISchema() request.
//
// The message definitions below are written from gnostic's OpenAPIv2.proto field numbers
// (package openapi.v2), keeping only the messages a kube document uses plus the ones needed
// to keep oneofs decodable. Values that are arbitrary JSON (vendor extensions `x-...`,
// `default`, `enum`, `example`) travel as `Any` whose `yaml` field holds the YAML text of
// the value, as gnostic's compiler writes them.

import protobuf from 'protobufjs';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';

type Json = Record<string, unknown>;

export const OPENAPI_V2_PROTO = `
syntax = "proto3";
package openapi.v2;

message ProtobufAny {
  string type_url = 1;
  bytes value = 2;
}

message AdditionalPropertiesItem {
  oneof oneof {
    Schema schema = 1;
    bool boolean = 2;
  }
}

message Any {
  ProtobufAny value = 1;
  string yaml = 2;
}

message ApiKeySecurity {
  string type = 1;
  string name = 2;
  string in = 3;
  string description = 4;
  repeated NamedAny vendor_extension = 5;
}

message BasicAuthenticationSecurity {
  string type = 1;
  string description = 2;
  repeated NamedAny vendor_extension = 3;
}

message BodyParameter {
  string description = 1;
  string name = 2;
  string in = 3;
  bool required = 4;
  Schema schema = 5;
  repeated NamedAny vendor_extension = 6;
}

message Contact {
  string name = 1;
  string url = 2;
  string email = 3;
  repeated NamedAny vendor_extension = 4;
}

message Definitions {
  repeated NamedSchema additional_properties = 1;
}

message Document {
  string swagger = 1;
  Info info = 2;
  string host = 3;
  string base_path = 4;
  repeated string schemes = 5;
  repeated string consumes = 6;
  repeated string produces = 7;
  Paths paths = 8;
  Definitions definitions = 9;
  ParameterDefinitions parameters = 10;
  ResponseDefinitions responses = 11;
  repeated SecurityRequirement security = 12;
  SecurityDefinitions security_definitions = 13;
  repeated Tag tags = 14;
  ExternalDocs external_docs = 15;
  repeated NamedAny vendor_extension = 16;
}

message ExternalDocs {
  string description = 1;
  string url = 2;
  repeated NamedAny vendor_extension = 3;
}

message FormDataParameterSubSchema {
  bool required = 1;
  string in = 2;
  string description = 3;
  string name = 4;
  bool allow_empty_value = 5;
  string type = 6;
  string format = 7;
  string collection_format = 9;
  Any default = 10;
  bool unique_items = 20;
  repeated Any enum = 21;
  repeated NamedAny vendor_extension = 23;
}

message HeaderParameterSubSchema {
  bool required = 1;
  string in = 2;
  string description = 3;
  string name = 4;
  string type = 5;
  string format = 6;
  string collection_format = 8;
  Any default = 9;
  bool unique_items = 19;
  repeated Any enum = 20;
  repeated NamedAny vendor_extension = 22;
}

message Info {
  string title = 1;
  string version = 2;
  string description = 3;
  string terms_of_service = 4;
  Contact contact = 5;
  License license = 6;
  repeated NamedAny vendor_extension = 7;
}

message ItemsItem {
  repeated Schema schema = 1;
}

message JsonReference {
  string _ref = 1;
  string description = 2;
}

message License {
  string name = 1;
  string url = 2;
  repeated NamedAny vendor_extension = 3;
}

message NamedAny {
  string name = 1;
  Any value = 2;
}

message NamedParameter {
  string name = 1;
  Parameter value = 2;
}

message NamedPathItem {
  string name = 1;
  PathItem value = 2;
}

message NamedResponse {
  string name = 1;
  Response value = 2;
}

message NamedResponseValue {
  string name = 1;
  ResponseValue value = 2;
}

message NamedSchema {
  string name = 1;
  Schema value = 2;
}

message NamedSecurityDefinitionsItem {
  string name = 1;
  SecurityDefinitionsItem value = 2;
}

message NamedStringArray {
  string name = 1;
  StringArray value = 2;
}

message NonBodyParameter {
  oneof oneof {
    HeaderParameterSubSchema header_parameter_sub_schema = 1;
    FormDataParameterSubSchema form_data_parameter_sub_schema = 2;
    QueryParameterSubSchema query_parameter_sub_schema = 3;
    PathParameterSubSchema path_parameter_sub_schema = 4;
  }
}

message Operation {
  repeated string tags = 1;
  string summary = 2;
  string description = 3;
  ExternalDocs external_docs = 4;
  string operation_id = 5;
  repeated string produces = 6;
  repeated string consumes = 7;
  repeated ParametersItem parameters = 8;
  Responses responses = 9;
  repeated string schemes = 10;
  bool deprecated = 11;
  repeated SecurityRequirement security = 12;
  repeated NamedAny vendor_extension = 13;
}

message Parameter {
  oneof oneof {
    BodyParameter body_parameter = 1;
    NonBodyParameter non_body_parameter = 2;
  }
}

message ParameterDefinitions {
  repeated NamedParameter additional_properties = 1;
}

message ParametersItem {
  oneof oneof {
    Parameter parameter = 1;
    JsonReference json_reference = 2;
  }
}

message PathItem {
  string _ref = 1;
  Operation get = 2;
  Operation put = 3;
  Operation post = 4;
  Operation delete = 5;
  Operation options = 6;
  Operation head = 7;
  Operation patch = 8;
  repeated ParametersItem parameters = 9;
  repeated NamedAny vendor_extension = 10;
}

message PathParameterSubSchema {
  bool required = 1;
  string in = 2;
  string description = 3;
  string name = 4;
  string type = 5;
  string format = 6;
  string collection_format = 8;
  Any default = 9;
  bool unique_items = 19;
  repeated Any enum = 20;
  repeated NamedAny vendor_extension = 22;
}

message Paths {
  repeated NamedAny vendor_extension = 1;
  repeated NamedPathItem path = 2;
}

message Properties {
  repeated NamedSchema additional_properties = 1;
}

message QueryParameterSubSchema {
  bool required = 1;
  string in = 2;
  string description = 3;
  string name = 4;
  bool allow_empty_value = 5;
  string type = 6;
  string format = 7;
  string collection_format = 9;
  Any default = 10;
  bool unique_items = 20;
  repeated Any enum = 21;
  repeated NamedAny vendor_extension = 23;
}

message Response {
  string description = 1;
  SchemaItem schema = 2;
  repeated NamedAny vendor_extension = 5;
}

message ResponseDefinitions {
  repeated NamedResponse additional_properties = 1;
}

message ResponseValue {
  oneof oneof {
    Response response = 1;
    JsonReference json_reference = 2;
  }
}

message Responses {
  repeated NamedResponseValue response_code = 1;
  repeated NamedAny vendor_extension = 2;
}

message Schema {
  string _ref = 1;
  string format = 2;
  string title = 3;
  string description = 4;
  Any default = 5;
  double multiple_of = 6;
  double maximum = 7;
  bool exclusive_maximum = 8;
  double minimum = 9;
  bool exclusive_minimum = 10;
  int64 max_length = 11;
  int64 min_length = 12;
  string pattern = 13;
  int64 max_items = 14;
  int64 min_items = 15;
  bool unique_items = 16;
  int64 max_properties = 17;
  int64 min_properties = 18;
  repeated string required = 19;
  repeated Any enum = 20;
  AdditionalPropertiesItem additional_properties = 21;
  TypeItem type = 22;
  ItemsItem items = 23;
  repeated Schema all_of = 24;
  Properties properties = 25;
  string discriminator = 26;
  bool read_only = 27;
  ExternalDocs external_docs = 29;
  Any example = 30;
  repeated NamedAny vendor_extension = 31;
}

message SchemaItem {
  oneof oneof {
    Schema schema = 1;
  }
}

message SecurityDefinitions {
  repeated NamedSecurityDefinitionsItem additional_properties = 1;
}

message SecurityDefinitionsItem {
  oneof oneof {
    BasicAuthenticationSecurity basic_authentication_security = 1;
    ApiKeySecurity api_key_security = 2;
  }
}

message SecurityRequirement {
  repeated NamedStringArray additional_properties = 1;
}

message StringArray {
  repeated string value = 1;
}

message Tag {
  string name = 1;
  string description = 2;
  ExternalDocs external_docs = 3;
  repeated NamedAny vendor_extension = 4;
}

message TypeItem {
  repeated string value = 1;
}
`;

let root: protobuf.Root | undefined;

/** The parsed message definitions (field names kept in snake_case, as in the .proto). */
export function openAPIV2Root(): protobuf.Root {
  root ??= protobuf.parse(OPENAPI_V2_PROTO, { keepCase: true }).root;
  return root;
}

export const documentType = (): protobuf.Type => openAPIV2Root().lookupType('openapi.v2.Document');

// ---------------------------------------------------------------------------------------------
// JSON -> message objects.

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const entries = (v: unknown): [string, unknown][] => (isObj(v) ? Object.entries(v) : []);

function anyOf(value: unknown): Json {
  return { yaml: stringifyYaml(value) };
}

function vendorExtensions(o: Json): Json[] {
  return Object.entries(o)
    .filter(([k]) => k.startsWith('x-'))
    .map(([name, value]) => ({ name, value: anyOf(value) }));
}

/** Copies the listed JSON keys (camelCase) to message fields (snake_case). */
function copy(o: Json, out: Json, keys: Record<string, string>): void {
  for (const [json, field] of Object.entries(keys)) if (o[json] !== undefined) out[field] = o[json];
}

function withExtensions(o: Json, out: Json, field = 'vendor_extension'): Json {
  const ext = vendorExtensions(o);
  if (ext.length > 0) out[field] = ext;
  return out;
}

function schemaMsg(s: Json): Json {
  const out: Json = {};
  copy(s, out, {
    $ref: '_ref',
    format: 'format',
    title: 'title',
    description: 'description',
    multipleOf: 'multiple_of',
    maximum: 'maximum',
    exclusiveMaximum: 'exclusive_maximum',
    minimum: 'minimum',
    exclusiveMinimum: 'exclusive_minimum',
    maxLength: 'max_length',
    minLength: 'min_length',
    pattern: 'pattern',
    maxItems: 'max_items',
    minItems: 'min_items',
    uniqueItems: 'unique_items',
    maxProperties: 'max_properties',
    minProperties: 'min_properties',
    required: 'required',
    discriminator: 'discriminator',
    readOnly: 'read_only',
  });
  if (s.default !== undefined) out.default = anyOf(s.default);
  if (Array.isArray(s.enum)) out.enum = s.enum.map(anyOf);
  if (s.example !== undefined) out.example = anyOf(s.example);
  if (typeof s.additionalProperties === 'boolean') out.additional_properties = { boolean: s.additionalProperties };
  else if (isObj(s.additionalProperties)) out.additional_properties = { schema: schemaMsg(s.additionalProperties) };
  if (s.type !== undefined) out.type = { value: Array.isArray(s.type) ? s.type : [s.type] };
  if (Array.isArray(s.items)) out.items = { schema: s.items.map((i) => schemaMsg(i as Json)) };
  else if (isObj(s.items)) out.items = { schema: [schemaMsg(s.items)] };
  if (Array.isArray(s.allOf)) out.all_of = s.allOf.map((i) => schemaMsg(i as Json));
  if (isObj(s.properties)) out.properties = { additional_properties: entries(s.properties).map(([name, v]) => ({ name, value: schemaMsg(v as Json) })) };
  if (isObj(s.externalDocs)) out.external_docs = externalDocsMsg(s.externalDocs);
  return withExtensions(s, out);
}

function externalDocsMsg(o: Json): Json {
  const out: Json = {};
  copy(o, out, { description: 'description', url: 'url' });
  return withExtensions(o, out);
}

function nonBodySubSchema(p: Json): Json {
  const out: Json = {};
  copy(p, out, {
    required: 'required',
    in: 'in',
    description: 'description',
    name: 'name',
    allowEmptyValue: 'allow_empty_value',
    type: 'type',
    format: 'format',
    collectionFormat: 'collection_format',
    uniqueItems: 'unique_items',
  });
  if (p.default !== undefined) out.default = anyOf(p.default);
  if (Array.isArray(p.enum)) out.enum = p.enum.map(anyOf);
  if (p.in === 'path' || p.in === 'header') delete out.allow_empty_value;
  return withExtensions(p, out);
}

function parameterMsg(p: Json): Json {
  if (p.in === 'body') {
    const body: Json = {};
    copy(p, body, { description: 'description', name: 'name', in: 'in', required: 'required' });
    if (isObj(p.schema)) body.schema = schemaMsg(p.schema);
    return { body_parameter: withExtensions(p, body) };
  }
  const sub = nonBodySubSchema(p);
  const field =
    p.in === 'query'
      ? 'query_parameter_sub_schema'
      : p.in === 'path'
        ? 'path_parameter_sub_schema'
        : p.in === 'header'
          ? 'header_parameter_sub_schema'
          : 'form_data_parameter_sub_schema';
  return { non_body_parameter: { [field]: sub } };
}

function parametersItemMsg(p: Json): Json {
  if (typeof p.$ref === 'string') return { json_reference: { _ref: p.$ref } };
  return { parameter: parameterMsg(p) };
}

function responseMsg(r: Json): Json {
  if (typeof r.$ref === 'string') return { json_reference: { _ref: r.$ref } };
  const out: Json = {};
  if (r.description !== undefined) out.description = r.description;
  if (isObj(r.schema)) out.schema = { schema: schemaMsg(r.schema) };
  return { response: withExtensions(r, out) };
}

function operationMsg(o: Json): Json {
  const out: Json = {};
  copy(o, out, {
    tags: 'tags',
    summary: 'summary',
    description: 'description',
    operationId: 'operation_id',
    produces: 'produces',
    consumes: 'consumes',
    schemes: 'schemes',
    deprecated: 'deprecated',
  });
  if (isObj(o.externalDocs)) out.external_docs = externalDocsMsg(o.externalDocs);
  if (Array.isArray(o.parameters)) out.parameters = o.parameters.map((p) => parametersItemMsg(p as Json));
  if (isObj(o.responses)) {
    const responses: Json = {
      response_code: entries(o.responses)
        .filter(([k]) => !k.startsWith('x-'))
        .map(([name, v]) => ({ name, value: responseMsg(v as Json) })),
    };
    out.responses = withExtensions(o.responses, responses);
  }
  if (Array.isArray(o.security)) out.security = o.security.map((s) => securityRequirementMsg(s as Json));
  return withExtensions(o, out);
}

function pathItemMsg(p: Json): Json {
  const out: Json = {};
  if (typeof p.$ref === 'string') out._ref = p.$ref;
  for (const m of ['get', 'put', 'post', 'delete', 'options', 'head', 'patch']) if (isObj(p[m])) out[m] = operationMsg(p[m]);
  if (Array.isArray(p.parameters)) out.parameters = p.parameters.map((x) => parametersItemMsg(x as Json));
  return withExtensions(p, out);
}

function securityRequirementMsg(s: Json): Json {
  return { additional_properties: entries(s).map(([name, v]) => ({ name, value: { value: Array.isArray(v) ? v : [] } })) };
}

function securityDefinitionMsg(d: Json): Json {
  const out: Json = {};
  if (d.type === 'basic') {
    copy(d, out, { type: 'type', description: 'description' });
    return { basic_authentication_security: withExtensions(d, out) };
  }
  copy(d, out, { type: 'type', name: 'name', in: 'in', description: 'description' });
  return { api_key_security: withExtensions(d, out) };
}

/** A swagger 2.0 document (JSON) as an openapi.v2.Document message object. */
export function documentMessage(doc: Json): Json {
  const out: Json = {};
  copy(doc, out, { swagger: 'swagger', host: 'host', basePath: 'base_path', schemes: 'schemes', consumes: 'consumes', produces: 'produces' });
  if (isObj(doc.info)) {
    const info: Json = {};
    copy(doc.info, info, { title: 'title', version: 'version', description: 'description', termsOfService: 'terms_of_service' });
    if (isObj(doc.info.contact)) info.contact = withExtensions(doc.info.contact, { ...doc.info.contact });
    if (isObj(doc.info.license)) info.license = withExtensions(doc.info.license, { ...doc.info.license });
    out.info = withExtensions(doc.info, info);
  }
  if (isObj(doc.paths)) {
    const paths: Json = {
      path: entries(doc.paths)
        .filter(([k]) => !k.startsWith('x-'))
        .map(([name, v]) => ({ name, value: pathItemMsg(v as Json) })),
    };
    out.paths = withExtensions(doc.paths, paths);
  }
  if (isObj(doc.definitions)) out.definitions = { additional_properties: entries(doc.definitions).map(([name, v]) => ({ name, value: schemaMsg(v as Json) })) };
  if (isObj(doc.parameters)) out.parameters = { additional_properties: entries(doc.parameters).map(([name, v]) => ({ name, value: parameterMsg(v as Json) })) };
  if (Array.isArray(doc.security)) out.security = doc.security.map((s) => securityRequirementMsg(s as Json));
  if (isObj(doc.securityDefinitions)) {
    out.security_definitions = { additional_properties: entries(doc.securityDefinitions).map(([name, v]) => ({ name, value: securityDefinitionMsg(v as Json) })) };
  }
  if (Array.isArray(doc.tags)) {
    out.tags = doc.tags.map((t) => {
      const tag: Json = {};
      copy(t as Json, tag, { name: 'name', description: 'description' });
      return withExtensions(t as Json, tag);
    });
  }
  if (isObj(doc.externalDocs)) out.external_docs = externalDocsMsg(doc.externalDocs);
  return withExtensions(doc, out);
}

/** Encodes a swagger 2.0 document as gnostic's openapi.v2.Document protobuf. */
export function encodeOpenAPIV2Protobuf(doc: object): Buffer {
  const type = documentType();
  const msg = type.fromObject(documentMessage(doc as Json));
  return Buffer.from(type.encode(msg).finish());
}

// ---------------------------------------------------------------------------------------------
// Message objects -> JSON (for tests and debugging: the inverse of documentMessage for the
// fields kube documents use).

const arr = (v: unknown): Json[] => (Array.isArray(v) ? (v as Json[]) : []);
const fromAny = (a: unknown): unknown => (isObj(a) && typeof a.yaml === 'string' ? parseYaml(a.yaml) : undefined);

function extensionsJson(m: Json, out: Json, field = 'vendor_extension'): Json {
  for (const e of arr(m[field])) out[String(e.name)] = fromAny(e.value);
  return out;
}

function uncopy(m: Json, out: Json, keys: Record<string, string>): void {
  for (const [json, field] of Object.entries(keys)) {
    const v = m[field];
    if (v === undefined || v === null || v === '' || v === false || (Array.isArray(v) && v.length === 0)) continue;
    out[json] = v;
  }
}

function schemaJson(m: Json): Json {
  const out: Json = {};
  uncopy(m, out, {
    $ref: '_ref',
    format: 'format',
    title: 'title',
    description: 'description',
    multipleOf: 'multiple_of',
    maximum: 'maximum',
    exclusiveMaximum: 'exclusive_maximum',
    minimum: 'minimum',
    exclusiveMinimum: 'exclusive_minimum',
    pattern: 'pattern',
    uniqueItems: 'unique_items',
    required: 'required',
    discriminator: 'discriminator',
    readOnly: 'read_only',
  });
  if (m.default) out.default = fromAny(m.default);
  if (arr(m.enum).length > 0) out.enum = arr(m.enum).map(fromAny);
  const ap = m.additional_properties as Json | undefined;
  if (ap) out.additionalProperties = ap.schema ? schemaJson(ap.schema as Json) : Boolean(ap.boolean);
  const type = arr((m.type as Json | undefined)?.value);
  if (type.length === 1) out.type = type[0];
  else if (type.length > 1) out.type = type;
  const items = arr((m.items as Json | undefined)?.schema);
  if (items.length === 1) out.items = schemaJson(items[0]);
  else if (items.length > 1) out.items = items.map(schemaJson);
  if (arr(m.all_of).length > 0) out.allOf = arr(m.all_of).map(schemaJson);
  if (m.properties) out.properties = Object.fromEntries(arr((m.properties as Json).additional_properties).map((p) => [p.name, schemaJson(p.value as Json)]));
  return extensionsJson(m, out);
}

function parameterJson(m: Json): Json {
  if (m.body_parameter) {
    const b = m.body_parameter as Json;
    const out: Json = {};
    uncopy(b, out, { description: 'description', name: 'name', in: 'in', required: 'required' });
    if (b.schema) out.schema = schemaJson(b.schema as Json);
    return extensionsJson(b, out);
  }
  const nb = (m.non_body_parameter ?? {}) as Json;
  const sub = (nb.query_parameter_sub_schema ?? nb.path_parameter_sub_schema ?? nb.header_parameter_sub_schema ?? nb.form_data_parameter_sub_schema ?? {}) as Json;
  const out: Json = {};
  uncopy(sub, out, {
    description: 'description',
    in: 'in',
    name: 'name',
    required: 'required',
    allowEmptyValue: 'allow_empty_value',
    type: 'type',
    format: 'format',
    collectionFormat: 'collection_format',
    uniqueItems: 'unique_items',
  });
  if (sub.default) out.default = fromAny(sub.default);
  if (arr(sub.enum).length > 0) out.enum = arr(sub.enum).map(fromAny);
  return extensionsJson(sub, out);
}

const parametersItemJson = (m: Json): Json =>
  m.json_reference ? { $ref: (m.json_reference as Json)._ref } : parameterJson((m.parameter ?? {}) as Json);

function operationJson(m: Json): Json {
  const out: Json = {};
  uncopy(m, out, {
    tags: 'tags',
    summary: 'summary',
    description: 'description',
    operationId: 'operation_id',
    produces: 'produces',
    consumes: 'consumes',
    schemes: 'schemes',
    deprecated: 'deprecated',
  });
  if (arr(m.parameters).length > 0) out.parameters = arr(m.parameters).map(parametersItemJson);
  if (m.responses) {
    const r = m.responses as Json;
    const responses: Json = {};
    for (const rc of arr(r.response_code)) {
      const v = (rc.value ?? {}) as Json;
      if (v.json_reference) {
        responses[String(rc.name)] = { $ref: (v.json_reference as Json)._ref };
        continue;
      }
      const resp = (v.response ?? {}) as Json;
      const one: Json = { description: resp.description ?? '' };
      const schema = (resp.schema as Json | undefined)?.schema;
      if (schema) one.schema = schemaJson(schema as Json);
      responses[String(rc.name)] = extensionsJson(resp, one);
    }
    out.responses = extensionsJson(r, responses);
  }
  return extensionsJson(m, out);
}

/** Decodes gnostic's openapi.v2.Document protobuf back into swagger 2.0 JSON. */
export function decodeOpenAPIV2Protobuf(buf: Uint8Array): Json {
  const type = documentType();
  const m = type.toObject(type.decode(buf), { longs: Number, arrays: false, defaults: false, oneofs: false }) as Json;
  const out: Json = {};
  uncopy(m, out, { swagger: 'swagger', host: 'host', basePath: 'base_path', schemes: 'schemes', consumes: 'consumes', produces: 'produces' });
  if (m.info) {
    const info: Json = {};
    uncopy(m.info as Json, info, { title: 'title', version: 'version', description: 'description', termsOfService: 'terms_of_service' });
    out.info = extensionsJson(m.info as Json, info);
  }
  if (m.paths) {
    const paths: Json = {};
    for (const p of arr((m.paths as Json).path)) {
      const v = (p.value ?? {}) as Json;
      const item: Json = {};
      for (const method of ['get', 'put', 'post', 'delete', 'options', 'head', 'patch']) if (v[method]) item[method] = operationJson(v[method] as Json);
      if (arr(v.parameters).length > 0) item.parameters = arr(v.parameters).map(parametersItemJson);
      paths[String(p.name)] = extensionsJson(v, item);
    }
    out.paths = extensionsJson(m.paths as Json, paths, 'vendor_extension');
  }
  if (m.definitions) out.definitions = Object.fromEntries(arr((m.definitions as Json).additional_properties).map((d) => [d.name, schemaJson(d.value as Json)]));
  if (m.parameters) out.parameters = Object.fromEntries(arr((m.parameters as Json).additional_properties).map((d) => [d.name, parameterJson(d.value as Json)]));
  if (arr(m.security).length > 0) {
    out.security = arr(m.security).map((s) =>
      Object.fromEntries(arr(s.additional_properties).map((a) => [a.name, arr((a.value as Json | undefined)?.value)])),
    );
  }
  if (m.security_definitions) {
    out.securityDefinitions = Object.fromEntries(
      arr((m.security_definitions as Json).additional_properties).map((d) => {
        const v = (d.value ?? {}) as Json;
        const inner = (v.api_key_security ?? v.basic_authentication_security ?? {}) as Json;
        const def: Json = {};
        uncopy(inner, def, { description: 'description', in: 'in', name: 'name', type: 'type' });
        return [d.name, extensionsJson(inner, def)];
      }),
    );
  }
  return extensionsJson(m, out);
}
