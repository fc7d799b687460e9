// Generates src/schema/types/generated.ts — kapi's schema registry data — from the Go
// API types of k8s.io/api and k8s.io/apimachinery (see README.md beside this file).
//
//   npx tsc -p tsconfig.json && node dist/scripts/schema-gen/generate.js [--check]
//
// It records wire facts only (JSON names, types, omitempty/pointer, required-ness,
// list/map/struct markers, patch strategies, protobuf numbers, `+default` values, enum
// values, union markers); no documentation text is carried over.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { FieldSchema, SchemaRegistry, StructSchema, TypeRef } from '../../src/schema/model.js';
import { commentTags, parseGoFile, structTag, type GoConst, type GoField, type GoFile, type GoType, type GoTypeDecl } from './go-parse.js';

// ---------------------------------------------------------------------------------------
// Configuration

export const MODULES = [
  { path: 'k8s.io/api', version: 'v0.33.0' },
  { path: 'k8s.io/apimachinery', version: 'v0.33.0' },
] as const;

const META = 'k8s.io/apimachinery/pkg/apis/meta/v1';
const META_V1BETA1 = 'k8s.io/apimachinery/pkg/apis/meta/v1beta1';

/** The types the registry starts from; everything they reference is included. */
export const ROOTS: Array<{ pkg: string; type: string }> = [
  ...['StatefulSet', 'StatefulSetList', 'ControllerRevision', 'ControllerRevisionList'].map((type) => ({ pkg: 'k8s.io/api/apps/v1', type })),
  ...['PodDisruptionBudget', 'PodDisruptionBudgetList', 'Eviction'].map((type) => ({ pkg: 'k8s.io/api/policy/v1', type })),
  ...['PriorityClass', 'PriorityClassList'].map((type) => ({ pkg: 'k8s.io/api/scheduling/v1', type })),
  ...['Lease', 'LeaseList'].map((type) => ({ pkg: 'k8s.io/api/coordination/v1', type })),
  ...['Namespace', 'NamespaceList', 'Pod', 'PodList', 'PersistentVolumeClaim', 'PersistentVolumeClaimList', 'PodTemplateSpec', 'ComponentStatus', 'ComponentStatusList'].map((type) => ({
    pkg: 'k8s.io/api/core/v1',
    type,
  })),
  ...['Service', 'ServiceList', 'Node', 'NodeList', 'Event', 'EventList', 'Binding', 'PersistentVolume', 'PersistentVolumeList'].map((type) => ({
    pkg: 'k8s.io/api/core/v1',
    type,
  })),
  ...['Event', 'EventList'].map((type) => ({ pkg: 'k8s.io/api/events/v1', type })),
  ...['StorageClass', 'StorageClassList'].map((type) => ({ pkg: 'k8s.io/api/storage/v1', type })),
  ...['IPAddress', 'IPAddressList'].map((type) => ({ pkg: 'k8s.io/api/networking/v1', type })),
  { pkg: 'k8s.io/api/autoscaling/v1', type: 'Scale' },
  ...['Role', 'RoleList', 'ClusterRole', 'ClusterRoleList', 'RoleBinding', 'RoleBindingList', 'ClusterRoleBinding', 'ClusterRoleBindingList'].map((type) => ({
    pkg: 'k8s.io/api/rbac/v1',
    type,
  })),
  ...['SubjectAccessReview', 'SelfSubjectAccessReview', 'LocalSubjectAccessReview', 'SelfSubjectRulesReview'].map((type) => ({
    pkg: 'k8s.io/api/authorization/v1',
    type,
  })),
  ...['ServiceAccount', 'ServiceAccountList'].map((type) => ({ pkg: 'k8s.io/api/core/v1', type })),
  ...['TokenRequest', 'TokenReview', 'SelfSubjectReview'].map((type) => ({ pkg: 'k8s.io/api/authentication/v1', type })),
  ...['ObjectMeta', 'ListMeta', 'Status', 'DeleteOptions', 'Condition', 'LabelSelector'].map((type) => ({ pkg: META, type })),
  // The metadata-only views clients ask for with `as=PartialObjectMetadata(List)`.
  ...['PartialObjectMetadata', 'PartialObjectMetadataList'].map((type) => ({ pkg: META, type })),
  { pkg: META_V1BETA1, type: 'PartialObjectMetadataList' },
];

/** Kinds outside k8s.io/api whose group/version/kind kube publishes once. */
const EXTRA_GVK: Record<string, { group: string; version: string; kind: string }> = {
  [`${META}.Status`]: { group: '', version: 'v1', kind: 'Status' },
  [`${META}.PartialObjectMetadata`]: { group: 'meta.k8s.io', version: 'v1', kind: 'PartialObjectMetadata' },
  [`${META}.PartialObjectMetadataList`]: { group: 'meta.k8s.io', version: 'v1', kind: 'PartialObjectMetadataList' },
  [`${META_V1BETA1}.PartialObjectMetadataList`]: { group: 'meta.k8s.io', version: 'v1beta1', kind: 'PartialObjectMetadataList' },
};

/** Go types with their own JSON form. */
const SPECIAL: Record<string, TypeRef> = {
  'k8s.io/apimachinery/pkg/util/intstr.IntOrString': { kind: 'intOrString' },
  'k8s.io/apimachinery/pkg/api/resource.Quantity': { kind: 'quantity' },
  [`${META}.Time`]: { kind: 'time' },
  [`${META}.MicroTime`]: { kind: 'microTime' },
  [`${META}.FieldsV1`]: { kind: 'fieldsV1' },
  [`${META}.Duration`]: { kind: 'string' },
  'k8s.io/apimachinery/pkg/runtime.RawExtension': { kind: 'any' },
  'k8s.io/apimachinery/pkg/types.UID': { kind: 'string' },
  'k8s.io/apimachinery/pkg/types.NodeName': { kind: 'string' },
};

const BUILTIN: Record<string, TypeRef> = {
  string: { kind: 'string' },
  bool: { kind: 'boolean' },
  int8: { kind: 'int32' },
  int16: { kind: 'int32' },
  int32: { kind: 'int32' },
  uint8: { kind: 'int32' },
  uint16: { kind: 'int32' },
  int: { kind: 'int64' },
  int64: { kind: 'int64' },
  uint: { kind: 'int64' },
  uint32: { kind: 'int64' },
  uint64: { kind: 'int64' },
  float32: { kind: 'number' },
  float64: { kind: 'number' },
};

// ---------------------------------------------------------------------------------------
// Module and package loading

function goModCache(): string {
  if (process.env.GOMODCACHE) return process.env.GOMODCACHE;
  try {
    const out = execFileSync('go', ['env', 'GOMODCACHE'], { encoding: 'utf8' }).trim();
    if (out) return out;
  } catch {
    // no go on PATH: fall through
  }
  return join(process.env.HOME ?? '/root', 'go', 'pkg', 'mod');
}

/** Directory of module@version in the module cache, downloading it with `go mod download` if needed. */
export function moduleDir(mod: string, version: string): string {
  const dir = join(goModCache(), `${mod}@${version}`);
  if (existsSync(dir)) return dir;
  const tmp = mkdtempSync(join(tmpdir(), 'kapi-schema-gen-'));
  try {
    execFileSync('go', ['mod', 'init', 'kapi.local/schemagen'], { cwd: tmp, stdio: 'ignore' });
    const out = execFileSync('go', ['mod', 'download', '-json', `${mod}@${version}`], { cwd: tmp, encoding: 'utf8' });
    const info = JSON.parse(out) as { Dir?: string; Error?: string };
    if (info.Error || !info.Dir) throw new Error(`go mod download ${mod}@${version}: ${info.Error ?? 'no Dir'}`);
    return info.Dir;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

interface GoPackage {
  importPath: string;
  types: Map<string, { decl: GoTypeDecl; file: GoFile }>;
  /** constants by name */
  consts: Map<string, GoConst>;
  /** enum type name -> values of its constants */
  constsByType: Map<string, Array<string | number | boolean>>;
  groupName?: string;
}

const packages = new Map<string, GoPackage>();
const moduleDirs = new Map<string, string>();

function packageDir(importPath: string): string | undefined {
  // longest module prefix wins (k8s.io/api vs k8s.io/apimachinery both start with k8s.io/api)
  const mods = [...MODULES].sort((a, b) => b.path.length - a.path.length);
  for (const m of mods) {
    if (importPath === m.path || importPath.startsWith(`${m.path}/`)) {
      let root = moduleDirs.get(m.path);
      if (!root) {
        root = moduleDir(m.path, m.version);
        moduleDirs.set(m.path, root);
      }
      return join(root, importPath.slice(m.path.length));
    }
  }
  return undefined;
}

function loadPackage(importPath: string): GoPackage {
  const cached = packages.get(importPath);
  if (cached) return cached;
  const dir = packageDir(importPath);
  if (!dir || !existsSync(dir)) throw new Error(`cannot find Go package ${importPath}`);
  const pkg: GoPackage = { importPath, types: new Map(), consts: new Map(), constsByType: new Map() };
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.go') && !f.endsWith('_test.go') && !f.startsWith('zz_generated') && f !== 'generated.pb.go' && !f.endsWith('_swagger_doc_generated.go'))
    .sort();
  for (const f of files) {
    const file = parseGoFile(join(dir, f), readFileSync(join(dir, f), 'utf8'));
    for (const decl of file.types) pkg.types.set(decl.name, { decl, file });
    for (const c of file.consts) {
      pkg.consts.set(c.name, c);
      if (c.typeName && c.value !== undefined) {
        const list = pkg.constsByType.get(c.typeName) ?? [];
        list.push(c.value);
        pkg.constsByType.set(c.typeName, list);
      }
      if (c.name === 'GroupName' && typeof c.value === 'string') pkg.groupName = c.value;
    }
  }
  packages.set(importPath, pkg);
  return pkg;
}

/** kube's OpenAPI definition name: the import path with its domain reversed, then the type. */
export function definitionName(importPath: string, type: string): string {
  const [domain, ...rest] = importPath.split('/');
  return [...domain!.split('.').reverse(), ...rest, type].join('.').replace(/-/g, '_');
}

// ---------------------------------------------------------------------------------------
// Type resolution

interface Resolved {
  type: TypeRef;
  pointer: boolean;
  /** Markers from the named type's own doc (e.g. +listType on a named slice type). */
  typeTags: Map<string, string[]>;
}

interface Ctx {
  pkg: GoPackage;
  file: GoFile;
}

const queue: Array<{ pkg: string; type: string }> = [];
const seen = new Set<string>();

function enqueue(pkg: string, type: string): string {
  const name = definitionName(pkg, type);
  if (!seen.has(name)) {
    seen.add(name);
    queue.push({ pkg, type });
  }
  return name;
}

function importPathOf(ctx: Ctx, alias: string): string {
  const p = ctx.file.imports.get(alias);
  if (!p) throw new Error(`${ctx.file.path}: unknown import '${alias}'`);
  return p;
}

function lookupNamed(ctx: Ctx, t: { pkg?: string; name: string }): { importPath: string; name: string } {
  return { importPath: t.pkg ? importPathOf(ctx, t.pkg) : ctx.pkg.importPath, name: t.name };
}

function resolveType(ctx: Ctx, t: GoType, top = true): Resolved {
  const none = new Map<string, string[]>();
  switch (t.t) {
    case 'pointer': {
      const inner = resolveType(ctx, t.elem, top);
      return { ...inner, pointer: true };
    }
    case 'slice': {
      if (t.elem.t === 'ident' && !t.elem.pkg && (t.elem.name === 'byte' || t.elem.name === 'uint8')) return { type: { kind: 'bytes' }, pointer: false, typeTags: none };
      return { type: { kind: 'array', items: resolveType(ctx, t.elem, false).type }, pointer: false, typeTags: none };
    }
    case 'array':
      return { type: { kind: 'array', items: resolveType(ctx, t.elem, false).type }, pointer: false, typeTags: none };
    case 'map':
      return { type: { kind: 'map', values: resolveType(ctx, t.value, false).type }, pointer: false, typeTags: none };
    case 'interface':
      return { type: { kind: 'any' }, pointer: false, typeTags: none };
    case 'struct':
      throw new Error(`${ctx.file.path}: anonymous struct types are not supported`);
    case 'func':
    case 'chan':
      throw new Error(`${ctx.file.path}: ${t.t} types cannot be serialized`);
    case 'ident': {
      if (!t.pkg && BUILTIN[t.name] && !ctx.pkg.types.has(t.name)) return { type: { ...BUILTIN[t.name]! }, pointer: false, typeTags: none };
      const { importPath, name } = lookupNamed(ctx, t);
      const special = SPECIAL[`${importPath}.${name}`];
      if (special) return { type: { ...special }, pointer: false, typeTags: none };
      const pkg = loadPackage(importPath);
      const entry = pkg.types.get(name);
      if (!entry) throw new Error(`type ${importPath}.${name} not found`);
      const { decl, file } = entry;
      const tags = commentTags(decl.doc);
      const inner: Ctx = { pkg, file };
      if (decl.type.t === 'struct') {
        return { type: { kind: 'ref', name: enqueue(importPath, name) }, pointer: false, typeTags: tags };
      }
      const under = resolveType(inner, decl.type, top);
      if (under.type.kind === 'string' && tags.has('enum') && !decl.alias) {
        const values = (pkg.constsByType.get(name) ?? []).filter((v): v is string => typeof v === 'string');
        // kube-openapi publishes enum values only for a field of the enum type itself
        // (or a pointer to it), not for slice items or map values.
        if (values.length && top) under.type = { kind: 'string', enum: [...new Set(values)].sort() };
      }
      const merged = new Map(under.typeTags);
      for (const [k, v] of tags) merged.set(k, v);
      return { type: under.type, pointer: under.pointer, typeTags: merged };
    }
  }
}

// ---------------------------------------------------------------------------------------
// Structs

interface JsonTag {
  name: string;
  omitempty: boolean;
  inline: boolean;
  skip: boolean;
}

function parseJsonTag(tag: string, goName: string | undefined): JsonTag {
  const raw = structTag(tag, 'json');
  if (raw === '-') return { name: '', omitempty: false, inline: false, skip: true };
  if (raw === undefined) return { name: goName ?? '', omitempty: false, inline: goName === undefined, skip: false };
  const [name, ...opts] = raw.split(',');
  return { name: name ?? '', omitempty: opts.includes('omitempty'), inline: opts.includes('inline') || (goName === undefined && !name), skip: false };
}

function single(tags: Map<string, string[]>, key: string): string | undefined {
  const v = tags.get(key);
  if (!v || v.length === 0) return undefined;
  return v[v.length - 1];
}

function parseDefault(value: string, pkg: GoPackage, where: string): unknown {
  const ref = /^ref\(([^)]+)\)$/.exec(value);
  if (ref) {
    const c = pkg.consts.get(ref[1]!.trim());
    if (!c || c.value === undefined) throw new Error(`${where}: +default=ref(${ref[1]}) does not name a literal constant`);
    return c.value;
  }
  try {
    return JSON.parse(value) as unknown;
  } catch {
    throw new Error(`${where}: cannot parse +default=${value}`);
  }
}

function protobufNumber(tag: string): number | undefined {
  const pb = structTag(tag, 'protobuf');
  if (!pb) return undefined;
  const n = Number(pb.split(',')[1]);
  return Number.isInteger(n) && n > 0 ? n : undefined;
}

/** The Go type a field holds, past pointers and slices ("k8s.io/...pkg.Name", or a builtin's name). */
function goTypeName(ctx: Ctx, t: GoType): string {
  while (t.t === 'pointer' || t.t === 'slice' || t.t === 'array') t = t.elem;
  if (t.t !== 'ident') return t.t;
  if (!t.pkg && BUILTIN[t.name] && !ctx.pkg.types.has(t.name)) return t.name;
  const { importPath, name } = lookupNamed(ctx, t);
  return `${importPath}.${name}`;
}

/** Special Go types whose protobuf message kapi's codec writes by hand (src/codec/protobuf/wire.ts). */
const PROTOBUF_SPECIAL = new Set([
  'k8s.io/apimachinery/pkg/util/intstr.IntOrString',
  'k8s.io/apimachinery/pkg/api/resource.Quantity',
  `${META}.Time`,
  `${META}.MicroTime`,
  `${META}.FieldsV1`,
  'k8s.io/apimachinery/pkg/runtime.RawExtension',
]);

/**
 * The protobuf codec derives each field's wire type from its TypeRef (src/codec/protobuf/plan.ts:
 * integers and booleans are varints, everything else is length-delimited), as Go's generated
 * code does from the Go type. The tag's own wire type is not a fact to go by: some are stale
 * (PriorityClass.value says "bytes", goes out as a varint). What the codec cannot carry fails
 * here instead: a special type it does not know (metav1.Duration is a string in JSON, a message
 * in protobuf) or a float.
 */
function checkProtobufForm(where: string, type: TypeRef, goType: string): void {
  const special = SPECIAL[goType];
  if (special && !PROTOBUF_SPECIAL.has(goType) && (special.kind !== 'string' || goType === `${META}.Duration`)) {
    throw new Error(`${where}: ${goType} has no protobuf form in kapi's codec`);
  }
  const item = type.kind === 'array' ? type.items : type.kind === 'map' ? type.values : type;
  if (item.kind === 'number') throw new Error(`${where}: floating-point fields have no protobuf form in kapi's codec`);
}

function goFieldName(f: GoField): string {
  if (f.name) return f.name;
  let t = f.type;
  while (t.t === 'pointer') t = t.elem;
  return t.t === 'ident' ? t.name : '?';
}

/** A struct's JSON-visible fields, in declaration order, with inline embeds flattened. */
interface Built {
  schema: StructSchema;
  /** Inline embeds of this struct (transitively flattened fields stay listed under the outer embed). */
  embeds: InlineEmbed[];
}

export interface InlineEmbed {
  /** Definition name of the embedded struct. */
  definition: string;
  /** The Go field name of the embedding (the embedded type's name). */
  goName: string;
  /** Protobuf field number of the embedded message in the parent, if it has one. */
  protobuf?: number;
  /** JSON names of the parent's fields that come from this embed. */
  fields: string[];
}

const embeddedOnly = new Map<string, StructSchema>();

function buildStruct(importPath: string, typeName: string): Built {
  const pkg = loadPackage(importPath);
  const entry = pkg.types.get(typeName);
  const st = entry?.decl.type;
  if (!entry || st?.t !== 'struct') throw new Error(`${importPath}.${typeName} is not a struct`);
  const { decl, file } = entry;
  const ctx: Ctx = { pkg, file };
  const name = definitionName(importPath, typeName);
  const typeTags = commentTags(decl.doc);
  const schema: StructSchema = { name, fields: [] };
  const structType = single(typeTags, 'structType') ?? single(typeTags, 'mapType');
  if (structType === 'atomic' || structType === 'granular') schema.structType = structType;
  const embeds: InlineEmbed[] = [];
  const union: { discriminator?: string; members: Record<string, string> } = { members: {} };

  const fields: Array<{ f: FieldSchema; promoted: boolean }> = [];
  for (const f of st.fields) {
    const json = parseJsonTag(f.tag, f.name);
    if (json.skip) continue;
    if (f.name && !/^[A-Z]/.test(f.name)) continue; // unexported
    const where = `${importPath}.${typeName}.${goFieldName(f)}`;
    const tags = commentTags(f.doc);
    if (json.inline) {
      let et = f.type;
      while (et.t === 'pointer') et = et.elem;
      if (et.t !== 'ident') throw new Error(`${where}: inline field of unsupported type`);
      const target = lookupNamed(ctx, et);
      const inner = buildStruct(target.importPath, target.name);
      const defName = definitionName(target.importPath, target.name);
      if (!seen.has(defName)) embeddedOnly.set(defName, inner.schema);
      const embed: InlineEmbed = { definition: defName, goName: goFieldName(f), fields: [] };
      const pbn = protobufNumber(f.tag);
      if (pbn !== undefined) embed.protobuf = pbn;
      for (const inf of inner.schema.fields) {
        // Flattened copies: protobuf numbers belong to the embedded message, not the parent.
        const { protobuf: _pb, ...rest } = inf;
        fields.push({ f: rest, promoted: true });
        embed.fields.push(inf.name);
      }
      embeds.push(embed);
      continue;
    }
    const r = resolveType(ctx, f.type);
    const field: FieldSchema = { name: json.name, type: r.type };
    const optional = tags.has('optional');
    const required = tags.has('required');
    if (optional && required) throw new Error(`${where}: both +optional and +required`);
    if (required || (!optional && !json.omitempty)) field.required = true;
    if (json.omitempty) field.omitempty = true;
    if (r.pointer) field.pointer = true;

    const def = single(tags, 'default');
    if (def !== undefined) field.default = parseDefault(def, pkg, where);

    // A named slice type can carry its own list markers; the field's own markers win.
    const typeListTags = r.type.kind === 'array' ? r.typeTags : new Map<string, string[]>();
    const listType = single(tags, 'listType') ?? single(typeListTags, 'listType');
    if (listType) {
      if (listType !== 'atomic' && listType !== 'set' && listType !== 'map') throw new Error(`${where}: bad +listType=${listType}`);
      field.listType = listType;
    }
    const keys = tags.get('listMapKey') ?? typeListTags.get('listMapKey');
    if (keys?.length) field.listMapKeys = [...keys];
    const mapType = single(tags, 'mapType') ?? single(tags, 'structType') ?? (r.type.kind === 'map' ? single(r.typeTags, 'mapType') : undefined);
    if (mapType) {
      if (mapType !== 'atomic' && mapType !== 'granular') throw new Error(`${where}: bad map/struct type ${mapType}`);
      field.mapType = mapType;
    }
    const psTag = structTag(f.tag, 'patchStrategy');
    const pmkTag = structTag(f.tag, 'patchMergeKey');
    const psComment = single(tags, 'patchStrategy');
    const pmkComment = single(tags, 'patchMergeKey');
    if ((psTag ?? '') !== (psComment ?? '') || (pmkTag ?? '') !== (pmkComment ?? '')) {
      // kube-openapi insists these agree; report and prefer the struct tag.
      console.warn(`warning: ${where}: patch tags in struct tag and comments differ`);
    }
    const ps = psTag ?? psComment;
    const pmk = pmkTag ?? pmkComment;
    if (ps) field.patchStrategy = ps;
    if (pmk) field.patchMergeKey = pmk;
    const pbn = protobufNumber(f.tag);
    if (pbn !== undefined) {
      field.protobuf = pbn;
      checkProtobufForm(where, r.type, goTypeName(ctx, f.type));
    }

    if (typeTags.has('union')) {
      if (tags.has('unionDiscriminator')) union.discriminator = json.name;
      else union.members[json.name] = goFieldName(f);
    }
    fields.push({ f: field, promoted: false });
  }
  // Go: a field declared in the struct itself hides a promoted one of the same JSON name.
  const own = new Set(fields.filter((x) => !x.promoted).map((x) => x.f.name));
  const out: FieldSchema[] = [];
  const taken = new Set<string>();
  for (const { f, promoted } of fields) {
    if (promoted && own.has(f.name)) continue;
    if (taken.has(f.name)) throw new Error(`${name}: duplicate JSON field ${f.name}`);
    taken.add(f.name);
    out.push(f);
  }
  for (const e of embeds) e.fields = e.fields.filter((n) => !own.has(n));
  schema.fields = out;

  if (typeTags.has('union')) {
    const u: Record<string, unknown> = {};
    if (union.discriminator) u.discriminator = union.discriminator;
    u['fields-to-discriminateBy'] = union.members;
    schema.extensions = { 'x-kubernetes-unions': [u] };
  }

  // Top-level kinds: structs embedding TypeMeta in a k8s.io/api group package.
  const hasTypeMeta = st.fields.some((f) => !f.name && f.type.t === 'ident' && f.type.name === 'TypeMeta' && lookupNamed(ctx, f.type).importPath === META);
  const gvk = EXTRA_GVK[`${importPath}.${typeName}`];
  if (gvk) schema.gvk = gvk;
  else if (hasTypeMeta && importPath.startsWith('k8s.io/api/') && pkg.groupName !== undefined) {
    schema.gvk = { group: pkg.groupName, version: importPath.split('/').pop()!, kind: typeName };
  }
  return { schema, embeds };
}

export interface Generated {
  registry: SchemaRegistry;
  inlined: Record<string, InlineEmbed[]>;
  embedded: SchemaRegistry;
  /** Every group/version of k8s.io/api and the kinds its register.go adds to the scheme. */
  schemeKinds: Record<string, string[]>;
}

/**
 * The kinds kube's scheme knows, per group/version, from each k8s.io/api package's
 * register.go (`AddKnownTypes(SchemeGroupVersion, &Pod{}, ...)`): what decides whether a body of
 * another kind is "unknown conversion" or "no kind ... is registered".
 */
function schemeKinds(): Record<string, string[]> {
  const api = MODULES.find((m) => m.path === 'k8s.io/api')!;
  const root = moduleDir(api.path, api.version);
  const out: Record<string, string[]> = {};
  for (const group of readdirSync(root, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort()) {
    for (const version of readdirSync(join(root, group), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort()) {
      const file = join(root, group, version, 'register.go');
      if (!existsSync(file)) continue;
      const text = readFileSync(file, 'utf8');
      const groupName = /const GroupName = "([^"]*)"/.exec(text)?.[1];
      const ver = /SchemeGroupVersion = schema\.GroupVersion\{Group: GroupName, Version: "([^"]+)"\}/.exec(text)?.[1];
      if (groupName === undefined || ver === undefined) continue;
      const kinds = new Set<string>();
      for (const m of text.matchAll(/AddKnownTypes\(SchemeGroupVersion,([\s\S]*?)\)\n/g)) for (const k of m[1].matchAll(/&(\w+)\{\}/g)) kinds.add(k[1]);
      if (kinds.size) out[groupName ? `${groupName}/${ver}` : ver] = [...kinds].sort();
    }
  }
  return out;
}

export function generate(): Generated {
  queue.length = 0;
  seen.clear();
  embeddedOnly.clear();
  for (const r of ROOTS) enqueue(r.pkg, r.type);
  const registry: SchemaRegistry = {};
  const inlined: Record<string, InlineEmbed[]> = {};
  while (queue.length) {
    const { pkg, type } = queue.shift()!;
    const built = buildStruct(pkg, type);
    registry[built.schema.name] = built.schema;
    if (built.embeds.length) inlined[built.schema.name] = built.embeds;
  }
  const embedded: SchemaRegistry = {};
  for (const [k, v] of embeddedOnly) if (!registry[k]) embedded[k] = v;
  return { registry: sortKeys(registry), inlined: sortKeys(inlined), embedded: sortKeys(embedded), schemeKinds: schemeKinds() };
}

function sortKeys<T>(o: Record<string, T>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const k of Object.keys(o).sort()) out[k] = o[k]!;
  return out;
}

// ---------------------------------------------------------------------------------------
// Output

function lit(v: unknown): string {
  if (v === undefined) return 'undefined';
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(lit).join(', ')}]`;
  const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined);
  if (entries.length === 0) return '{}';
  return `{ ${entries.map(([k, x]) => `${/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(k) ? k : JSON.stringify(k)}: ${lit(x)}`).join(', ')} }`;
}

function renderStruct(s: StructSchema, indent: string): string {
  const lines: string[] = [];
  lines.push(`${indent}${JSON.stringify(s.name)}: {`);
  lines.push(`${indent}  name: ${JSON.stringify(s.name)},`);
  if (s.gvk) lines.push(`${indent}  gvk: ${lit(s.gvk)},`);
  if (s.structType) lines.push(`${indent}  structType: ${lit(s.structType)},`);
  if (s.extensions) lines.push(`${indent}  extensions: ${lit(s.extensions)},`);
  lines.push(`${indent}  fields: [`);
  for (const f of s.fields) lines.push(`${indent}    ${lit(f)},`);
  lines.push(`${indent}  ],`);
  lines.push(`${indent}},`);
  return lines.join('\n');
}

export function render(g: Generated): string {
  const header = [
    '// GENERATED by scripts/schema-gen/generate.ts from the Go API types of',
    `// ${MODULES.map((m) => `${m.path}@${m.version}`).join(' and ')}. Do not edit by hand; see scripts/schema-gen/README.md.`,
    '// Wire facts only: no documentation text (descriptions live in ./descriptions.ts).',
    '',
    "import type { SchemaRegistry } from '../model.js';",
    '',
    '/** Where a struct embeds another with `json:",inline"`: the embedded fields are flattened into the parent in GENERATED. */',
    'export interface InlineEmbed {',
    '  /** Definition name of the embedded struct (in GENERATED or EMBEDDED). */',
    '  definition: string;',
    '  /** Go name of the embedding field. */',
    '  goName: string;',
    '  /** Protobuf field number of the embedded message within the parent message, if it has one. */',
    '  protobuf?: number;',
    "  /** JSON names of the parent's fields that come from the embed. */",
    '  fields: string[];',
    '}',
    '',
    `export const GENERATED_FROM = ${lit(MODULES.map((m) => `${m.path}@${m.version}`))} as const;`,
    '',
    `/** The roots the registry was generated from (definition names). */`,
    `export const GENERATED_ROOTS: readonly string[] = ${lit(ROOTS.map((r) => definitionName(r.pkg, r.type)))};`,
    '',
  ];
  const body: string[] = [];
  body.push('export const GENERATED: SchemaRegistry = {');
  for (const s of Object.values(g.registry)) body.push(renderStruct(s, '  '));
  body.push('};');
  body.push('');
  body.push('/** Inline embeds per definition (for protobuf, which keeps the embedded message nested). */');
  body.push('export const INLINED: Record<string, InlineEmbed[]> = {');
  for (const [k, v] of Object.entries(g.inlined)) body.push(`  ${JSON.stringify(k)}: [${v.map(lit).join(', ')}],`);
  body.push('};');
  body.push('');
  body.push('/** The kinds kube\'s scheme registers per group/version (k8s.io/api register.go files). */');
  body.push('export const SCHEME_KINDS: Record<string, readonly string[]> = {');
  for (const [gv, kinds] of Object.entries(g.schemeKinds)) body.push(`  ${JSON.stringify(gv)}: ${lit(kinds)},`);
  body.push('};');
  body.push('');
  body.push('/** Structs that only ever appear inline (their own shape, with their own protobuf numbers); not OpenAPI definitions. */');
  body.push('export const EMBEDDED: SchemaRegistry = {');
  for (const s of Object.values(g.embedded)) body.push(renderStruct(s, '  '));
  body.push('};');
  body.push('');
  return [...header, ...body].join('\n');
}

function main(): void {
  // The repository root: the nearest directory above this file with a package.json
  // (dist/scripts/schema-gen/generate.js when compiled).
  let root = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(root, 'package.json')) && dirname(root) !== root) root = dirname(root);
  const outPath = join(root, 'src/schema/types/generated.ts');
  const g = generate();
  const text = render(g);
  if (process.argv.includes('--check')) {
    const current = existsSync(outPath) ? readFileSync(outPath, 'utf8') : '';
    if (current !== text) {
      console.error(`${outPath} is out of date; regenerate with node dist/scripts/schema-gen/generate.js`);
      process.exit(1);
    }
    console.log(`${outPath} is up to date (${Object.keys(g.registry).length} definitions)`);
    return;
  }
  writeFileSync(outPath, text);
  const nFields = Object.values(g.registry).reduce((n, s) => n + s.fields.length, 0);
  console.log(`wrote ${outPath}: ${Object.keys(g.registry).length} definitions, ${nFields} fields, ${Object.keys(g.embedded).length} inline-only structs`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
