// Discovery documents (/api, /apis, group and group-version lists, aggregated discovery) and
// /version, shaped as kube-apiserver 1.33 serves them. Everything is derived from the
// registered ResourceDefs on each request, so groups added later show up without a restart.

import { createHash } from 'node:crypto';
import type Router from '@koa/router';
import type { ParameterizedContext } from 'koa';
import { yamlModule } from '../machinery/lazy-module.js';
import { storageVersionOf, verbsOf, type ResourceDef } from '../registry/types.js';
import { apiVersionOf, type GroupVersionKind } from '../machinery/api-resource.js';
import { PageNotFound, genericNotFound, notAcceptable } from '../machinery/errors.js';
import {
  ACCEPTED_MEDIA_TYPES,
  acceptedMediaTypes,
  isPrettyPrint,
  negotiateMediaType,
  routeAccepts,
  routeNotAcceptable,
  type NegotiatedMediaType,
  type Serializer,
} from '../codec/negotiate.js';

type Ctx = ParameterizedContext;

export interface DiscoveryOptions {
  /** Domain suffix of the built-in group names (`apidiscovery.<groupDomain>`); default k8s.io. */
  groupDomain?: string;
  /** Overrides for the /version document (e.g. a real commit id). */
  version?: Partial<VersionInfo>;
}

// ---------------------------------------------------------------------------------------------
// Negotiation (src/codec/negotiate.ts) with discovery's serializers and restrictions: only the
// aggregated GVK may be asked for through as/g/v, which decides aggregated vs. plain documents.

/** Kube pretty-prints for ?pretty=true and for humans' tools (curl, wget, browsers). */
const prettyPrint = (ctx: Ctx): boolean => isPrettyPrint(ctx.querystring, ctx.get('User-Agent'));

export const DISCOVERY_SERIALIZERS: Serializer[] = [
  { mediaType: 'application/json', type: 'application', subType: 'json', streaming: true },
  { mediaType: 'application/yaml', type: 'application', subType: 'yaml', streaming: false },
];

const SUPPORTED_MEDIA_TYPES = DISCOVERY_SERIALIZERS.map((s) => s.mediaType);

/**
 * What kube's go-restful discovery routes produce (/api; /api/<v> and /apis/<g>/<v>, which add
 * application/cbor with its gate): it decides whether a request reaches them. kube serves
 * protobuf (and CBOR) discovery too; kapi serves JSON and YAML.
 */
export const discoveryRouteProduces = (groupVersion: boolean): string[] => (groupVersion ? acceptedMediaTypes() : ACCEPTED_MEDIA_TYPES);

export interface DiscoveryEndpoint {
  /** What the go-restful route produces; unset for /apis and /apis/<g>, which it does not serve. */
  produces?: readonly string[];
  /** The aggregated document the endpoint also serves (/api and /apis). */
  aggregated?: GroupVersionKind;
}

export interface DiscoveryRepresentation {
  mt: NegotiatedMediaType;
  /** The aggregated document was asked for (only the aggregated GVK may be, through as/g/v). */
  aggregated: boolean;
}

/** How a discovery endpoint answers an Accept header; throws kube's 406s. */
export function negotiateDiscovery(accept: string | undefined, endpoint: DiscoveryEndpoint): DiscoveryRepresentation {
  if (endpoint.produces && !routeAccepts(accept, endpoint.produces)) throw routeNotAcceptable(endpoint.produces);
  const agg = endpoint.aggregated;
  if (agg) {
    // kube first negotiates under the aggregated restrictions, which pass over plain clauses, so
    // any clause asking for the aggregated list wins whatever its q.
    const mt = negotiateMediaType(accept, DISCOVERY_SERIALIZERS, {
      allowsTransform: (_s, c) => c !== undefined && c.group === agg.group && c.version === agg.version && c.kind === agg.kind,
    });
    if (mt?.convert) return { mt, aggregated: true };
  }
  const mt = negotiateMediaType(accept, DISCOVERY_SERIALIZERS);
  if (!mt) throw notAcceptable(SUPPORTED_MEDIA_TYPES);
  return { mt, aggregated: false };
}

function sortKeysDeep(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeysDeep);
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) out[k] = sortKeysDeep((v as Record<string, unknown>)[k]);
    return out;
  }
  return v;
}

/** Encodes as kube's serializers do: compact JSON + newline, indented JSON, or key-sorted YAML. */
function encode(obj: unknown, serializer: Serializer, pretty: boolean): string {
  if (serializer.subType === 'yaml') return yamlModule().stringify(sortKeysDeep(obj), { lineWidth: 0 });
  return pretty ? JSON.stringify(obj, null, 2) : `${JSON.stringify(obj)}\n`;
}

function write(ctx: Ctx, obj: unknown, mt: NegotiatedMediaType, contentType = mt.serializer.mediaType): void {
  ctx.status = 200;
  ctx.set('Content-Type', contentType);
  ctx.body = encode(obj, mt.serializer, mt.pretty || prettyPrint(ctx));
}

// ---------------------------------------------------------------------------------------------
// Documents.

interface APIResource {
  name: string;
  singularName: string;
  namespaced: boolean;
  /** Set when a subresource answers another group-version's kind (scale: autoscaling/v1 Scale). */
  group?: string;
  version?: string;
  kind: string;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  storageVersionHash?: string;
}

interface GroupVersionForDiscovery {
  groupVersion: string;
  version: string;
}

interface APIGroup {
  name: string;
  versions: GroupVersionForDiscovery[];
  preferredVersion: GroupVersionForDiscovery;
}

// What each whole-object subresource allows in kube: /status reads and writes, /finalize
// (namespaces) only takes a PUT.
const SUBRESOURCE_VERBS: Record<string, string[]> = {
  status: ['get', 'patch', 'update'],
  finalize: ['update'],
};
const DEFAULT_SUBRESOURCE_VERBS = ['get', 'patch', 'update'];

/** As k8s.io/apiserver's StorageVersionHash: first 8 bytes of sha256("group/version/kind"). */
export function storageVersionHash(group: string, version: string, kind: string): string {
  return createHash('sha256').update(`${group}/${version}/${kind}`).digest().subarray(0, 8).toString('base64');
}

// Go's sort.Strings compares bytes; localeCompare would not.
const byteOrder = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

const KUBE_VERSION = /^v(\d+)(?:(alpha|beta)(\d+))?$/;

/**
 * Orders versions as kube prefers them: GA before beta before alpha, higher numbers first, and
 * anything not shaped like a kube version last, alphabetically (version.CompareKubeAwareVersionStrings).
 */
export function compareKubeAwareVersions(a: string, b: string): number {
  const ma = KUBE_VERSION.exec(a);
  const mb = KUBE_VERSION.exec(b);
  if (!ma || !mb) {
    if (ma) return -1;
    if (mb) return 1;
    return byteOrder(a, b);
  }
  const stage = (m: RegExpExecArray): number => (m[2] === undefined ? 2 : m[2] === 'beta' ? 1 : 0);
  if (stage(ma) !== stage(mb)) return stage(mb) - stage(ma);
  if (Number(ma[1]) !== Number(mb[1])) return Number(mb[1]) - Number(ma[1]);
  return Number(mb[3] ?? 0) - Number(ma[3] ?? 0);
}

interface GroupIndex {
  name: string;
  /** Preferred first. */
  versions: string[];
  byVersion: Map<string, ResourceDef[]>;
}

interface Index {
  core: GroupIndex;
  /** Named groups in registration order. */
  named: GroupIndex[];
  byName: Map<string, GroupIndex>;
}

function indexDefs(defs: ResourceDef[]): Index {
  const byName = new Map<string, GroupIndex>();
  const core: GroupIndex = { name: '', versions: [], byVersion: new Map() };
  byName.set('', core);
  const named: GroupIndex[] = [];
  for (const def of defs) {
    let g = byName.get(def.group);
    if (!g) {
      g = { name: def.group, versions: [], byVersion: new Map() };
      byName.set(def.group, g);
      named.push(g);
    }
    let list = g.byVersion.get(def.version);
    if (!list) {
      list = [];
      g.byVersion.set(def.version, list);
      g.versions.push(def.version);
    }
    list.push(def);
  }
  // The legacy group always serves v1, even before anything is registered in it.
  if (!core.byVersion.has('v1')) {
    core.byVersion.set('v1', []);
    core.versions.push('v1');
  }
  for (const g of byName.values()) g.versions.sort(compareKubeAwareVersions);
  return { core, named, byName };
}

function apiResources(defs: ResourceDef[]): APIResource[] {
  const out: APIResource[] = [];
  for (const def of defs) {
    const r: APIResource = {
      name: def.resource,
      singularName: def.singularName,
      namespaced: def.namespaced,
      kind: def.kind,
      verbs: [...verbsOf(def)].sort(byteOrder),
    };
    if (def.shortNames.length) r.shortNames = [...def.shortNames];
    if (def.categories.length) r.categories = [...def.categories];
    const stored = storageVersionOf(def);
    r.storageVersionHash = storageVersionHash(stored.group, stored.version, def.kind);
    out.push(r);
    for (const sub of Object.keys(def.subresources ?? {})) {
      out.push({
        name: `${def.resource}/${sub}`,
        singularName: '',
        namespaced: def.namespaced,
        kind: def.kind,
        verbs: [...(SUBRESOURCE_VERBS[sub] ?? DEFAULT_SUBRESOURCE_VERBS)],
      });
    }
    for (const [name, action] of Object.entries(def.actions ?? {})) {
      const r: APIResource = { name: `${def.resource}/${name}`, singularName: '', namespaced: def.namespaced, kind: action.kind.kind, verbs: ['create'] };
      // Another group-version's kind is named with it (pods/eviction: policy/v1 Eviction).
      if (action.kind.group !== def.group || action.kind.version !== def.version) {
        r.group = action.kind.group;
        r.version = action.kind.version;
      }
      out.push(r);
    }
    if (def.scale) {
      out.push({
        name: `${def.resource}/scale`,
        singularName: '',
        namespaced: def.namespaced,
        group: 'autoscaling',
        version: 'v1',
        kind: 'Scale',
        verbs: ['get', 'patch', 'update'],
      });
    }
  }
  // Kube installs storage paths sorted, and discovery lists them in that order.
  return out.sort((a, b) => byteOrder(a.name, b.name));
}

function groupVersionFor(group: string, version: string): GroupVersionForDiscovery {
  return { groupVersion: apiVersionOf({ group, version }), version };
}

function apiGroup(g: GroupIndex): APIGroup {
  const versions = g.versions.map((v) => groupVersionFor(g.name, v));
  return { name: g.name, versions, preferredVersion: versions[0] };
}

interface APISubresourceDiscovery {
  subresource: string;
  responseKind: GroupVersionKind;
  verbs: string[];
}

interface APIResourceDiscovery {
  resource: string;
  responseKind: GroupVersionKind;
  scope: 'Namespaced' | 'Cluster';
  singularResource: string;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  subresources?: APISubresourceDiscovery[];
}

/** The v2 resource list of one group-version, built from the legacy list as kube converts it. */
function resourceDiscovery(defs: ResourceDef[]): APIResourceDiscovery[] {
  const out: APIResourceDiscovery[] = [];
  const parents = new Map<string, APIResourceDiscovery>();
  const list = apiResources(defs);
  for (const r of list) {
    if (r.name.includes('/')) continue;
    const d: APIResourceDiscovery = {
      resource: r.name,
      // Built-in types leave group and version empty: they are those of the enclosing version.
      responseKind: { group: '', version: '', kind: r.kind },
      scope: r.namespaced ? 'Namespaced' : 'Cluster',
      singularResource: r.singularName,
      verbs: r.verbs,
    };
    if (r.shortNames) d.shortNames = r.shortNames;
    if (r.categories) d.categories = r.categories;
    out.push(d);
    parents.set(r.name, d);
  }
  for (const r of list) {
    const slash = r.name.indexOf('/');
    if (slash < 0) continue;
    const parent = parents.get(r.name.slice(0, slash));
    if (!parent) continue;
    (parent.subresources ??= []).push({
      subresource: r.name.slice(slash + 1),
      responseKind: { group: r.group ?? '', version: r.version ?? '', kind: r.kind },
      verbs: r.verbs,
    });
  }
  return out;
}

function groupDiscovery(g: GroupIndex): unknown {
  return {
    metadata: g.name ? { name: g.name } : {},
    versions: g.versions.map((v) => ({
      version: v,
      resources: resourceDiscovery(g.byVersion.get(v) ?? []),
      freshness: 'Current',
    })),
  };
}

// ---------------------------------------------------------------------------------------------
// /version

export interface VersionInfo {
  major: string;
  minor: string;
  emulationMajor: string;
  emulationMinor: string;
  minCompatibilityMajor: string;
  minCompatibilityMinor: string;
  gitVersion: string;
  gitCommit: string;
  gitTreeState: string;
  buildDate: string;
  goVersion: string;
  compiler: string;
  platform: string;
}

const GO_ARCH: Record<string, string> = { x64: 'amd64', ia32: '386', arm64: 'arm64', arm: 'arm', ppc64: 'ppc64le', s390x: 's390x' };

/** The /version document. Field order follows k8s.io/apimachinery/pkg/version.Info. */
export function versionInfo(overrides: Partial<VersionInfo> = {}): VersionInfo {
  return {
    major: '1',
    minor: '33',
    emulationMajor: '1',
    emulationMinor: '33',
    minCompatibilityMajor: '1',
    minCompatibilityMinor: '32',
    // Must stay semver v1.33.x so kubectl's version-skew check accepts it.
    gitVersion: 'v1.33.0-kapi',
    gitCommit: '0000000000000000000000000000000000000000',
    gitTreeState: 'clean',
    buildDate: '1970-01-01T00:00:00Z',
    goVersion: `node${process.versions.node}`,
    compiler: 'gc',
    platform: `${process.platform}/${GO_ARCH[process.arch] ?? process.arch}`,
    ...overrides,
  };
}

// ---------------------------------------------------------------------------------------------
// Routes.

/** host:port the client used, for serverAddressByClientCIDRs. */
function serverAddress(ctx: Ctx): string {
  const host = ctx.host;
  if (host && /:\d+$/.test(host)) return host;
  const port = ctx.req.socket.localPort;
  if (host) return port ? `${host}:${port}` : host;
  return `${ctx.req.socket.localAddress ?? '127.0.0.1'}:${port ?? ''}`;
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

export function installDiscovery(router: Router, defs: () => ResourceDef[], opts: DiscoveryOptions = {}): void {
  const discoveryGroup = `apidiscovery.${opts.groupDomain ?? 'k8s.io'}`;
  const aggregatedGVK: GroupVersionKind = { group: discoveryGroup, version: 'v2', kind: 'APIGroupDiscoveryList' };
  // Only the v2 aggregated list may be asked for through as/g/v on /api and /apis; v2beta1 is
  // not served by default in 1.33, so such a clause is skipped like any unsupported one.
  const legacyRoot: DiscoveryEndpoint = { produces: discoveryRouteProduces(false), aggregated: aggregatedGVK };
  const root: DiscoveryEndpoint = { aggregated: aggregatedGVK };
  const group: DiscoveryEndpoint = {};
  const groupVersion = (): DiscoveryEndpoint => ({ produces: discoveryRouteProduces(true) });

  /** Writes the document the Accept header selects: `aggregated()` or `plain`. */
  const serve = (ctx: Ctx, endpoint: DiscoveryEndpoint, plain: () => unknown, aggregated?: () => unknown): void => {
    const rep = negotiateDiscovery(ctx.get('Accept') || undefined, endpoint);
    if (!rep.aggregated || !aggregated) {
      write(ctx, plain(), rep.mt);
      return;
    }
    const list = aggregated();
    // The ETag hashes the document itself, so JSON and YAML share it; Vary: Accept keeps
    // caches from mixing them up (and from mixing them with the plain document).
    const etag = JSON.stringify(createHash('sha512').update(JSON.stringify(list)).digest('hex').toUpperCase());
    ctx.set('ETag', etag);
    ctx.set('Vary', 'Accept');
    ctx.set('Cache-Control', 'public');
    if (ctx.get('If-None-Match') === etag) {
      ctx.status = 304;
      return;
    }
    write(ctx, list, rep.mt, `${rep.mt.serializer.mediaType};g=${aggregatedGVK.group};v=${aggregatedGVK.version};as=${aggregatedGVK.kind}`);
  };
  const aggregatedList = (groups: GroupIndex[]) => () => ({
    kind: 'APIGroupDiscoveryList',
    apiVersion: `${discoveryGroup}/v2`,
    metadata: {},
    items: groups.map(groupDiscovery),
  });

  router.get('/api', (ctx) => {
    const index = indexDefs(defs());
    const plain = () => ({
      kind: 'APIVersions',
      versions: index.core.versions,
      serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: serverAddress(ctx) }],
    });
    serve(ctx, legacyRoot, plain, aggregatedList([index.core]));
  });

  router.get('/api/:version', (ctx) => {
    const version = ctx.params.version;
    const list = indexDefs(defs()).core.byVersion.get(version);
    if (!list) throw genericNotFound();
    // The legacy group's list carries no apiVersion (kube strips it for backward compatibility).
    serve(ctx, groupVersion(), () => ({ kind: 'APIResourceList', groupVersion: version, resources: apiResources(list) }));
  });

  // The aggregator serves /apis and /apis/<group> (with or without a trailing slash) for any method.
  router.all(/^\/apis\/?$/, (ctx) => {
    const index = indexDefs(defs());
    serve(ctx, root, () => ({ kind: 'APIGroupList', apiVersion: 'v1', groups: index.named.map(apiGroup) }), aggregatedList(index.named));
  });

  router.all(/^\/apis\/([^/]+)\/?$/, (ctx) => {
    const name = decodeURIComponentSafe(ctx.path.split('/')[2] ?? '');
    const g = indexDefs(defs()).byName.get(name);
    if (!g) throw new PageNotFound();
    serve(ctx, group, () => ({ kind: 'APIGroup', apiVersion: 'v1', ...apiGroup(g) }));
  });

  router.get('/apis/:group/:version', (ctx) => {
    const { group: name, version } = ctx.params;
    const g = name ? indexDefs(defs()).byName.get(name) : undefined;
    // An unknown group is outside every web service; a served group's unknown version is its 404.
    if (!g) throw new PageNotFound();
    const list = g.byVersion.get(version);
    if (!list) throw genericNotFound();
    serve(ctx, groupVersion(), () => ({
      kind: 'APIResourceList',
      apiVersion: 'v1',
      groupVersion: apiVersionOf({ group: name, version }),
      resources: apiResources(list),
    }));
  });

  const info = versionInfo(opts.version);
  router.get(/^\/version\/?$/, (ctx) => {
    // Kube writes this as raw indented JSON, without negotiation.
    ctx.status = 200;
    ctx.set('Content-Type', 'application/json');
    ctx.body = JSON.stringify(info, null, 2);
  });
}
