// What both document builders share: naming the kinds' definitions, filling gaps in the
// registry (list kinds, unknown kinds) and the served group versions.

import type { SchemaRegistry, StructSchema } from '../model.js';
import type { APIResource } from '../../machinery/api-resource.js';
import { syntheticList } from './builtins.js';
import type { KindNaming } from './paths.js';
import { makeLookup, type GroupVersion, type SchemaContext } from './schemas.js';

export interface Prepared {
  naming: KindNaming;
  lookup: SchemaContext['lookup'];
  /** Served group versions, core v1 first, then by group and version. */
  groupVersions: GroupVersion[];
  /** The definition names of every served kind and list kind. */
  kindDefinitions(def: APIResource): { kind: string; list: string };
}

const gvkKey = (group: string, version: string, kind: string): string => `${group}\u0000${version}\u0000${kind}`;

/** kube's definition name when the registry does not name the kind: io.k8s.api.<first label of the group, or core>.<version>.<Kind>. */
export function conventionalName(group: string, version: string, kind: string): string {
  const g = group === '' ? 'core' : group.split('.')[0];
  return `io.k8s.api.${g}.${version}.${kind}`;
}

export function prepare(defs: APIResource[], registry: SchemaRegistry): Prepared {
  const byGvk = new Map<string, string>();
  for (const s of Object.values(registry)) if (s.gvk) byGvk.set(gvkKey(s.gvk.group, s.gvk.version, s.gvk.kind), s.name);
  const naming: KindNaming = {
    definitionOf: (group, version, kind) => byGvk.get(gvkKey(group, version, kind)) ?? conventionalName(group, version, kind),
  };
  const has = (name: string) => Object.prototype.hasOwnProperty.call(registry, name);
  const extra = new Map<string, StructSchema>();
  for (const d of defs) {
    const kind = naming.definitionOf(d.group, d.version, d.kind);
    const list = naming.definitionOf(d.group, d.version, d.listKind);
    if (!has(kind)) {
      // An open object: clients accept anything for it, and the kind is still mapped.
      extra.set(kind, { name: kind, description: `${d.kind} (${d.group ? `${d.group}/` : ''}${d.version}).`, gvk: { group: d.group, version: d.version, kind: d.kind }, fields: [] });
    }
    if (!has(list)) extra.set(list, syntheticList(list, kind, { group: d.group, version: d.version, kind: d.listKind }, d.kind));
  }
  const seen = new Set<string>(['\u0000v1']);
  const groupVersions: GroupVersion[] = [{ group: '', version: 'v1' }];
  const rest = defs
    .map((d) => ({ group: d.group, version: d.version }))
    .filter((gv) => {
      const k = `${gv.group}\u0000${gv.version}`;
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    })
    .sort((a, b) => (a.group === b.group ? (a.version < b.version ? -1 : 1) : a.group < b.group ? -1 : 1));
  groupVersions.push(...rest);
  return {
    naming,
    lookup: makeLookup(registry, extra),
    groupVersions,
    kindDefinitions: (d) => ({ kind: naming.definitionOf(d.group, d.version, d.kind), list: naming.definitionOf(d.group, d.version, d.listKind) }),
  };
}

/** "apps/v1", "v1", "apis/apps/v1" or "api/v1" -> {group, version}. */
export function parseGroupVersion(gv: string): GroupVersion {
  const s = gv.replace(/^\/+|\/+$/g, '');
  if (s.startsWith('apis/')) {
    const [, group, version] = s.split('/');
    return { group: group ?? '', version: version ?? '' };
  }
  if (s.startsWith('api/')) return { group: '', version: s.slice(4) };
  const i = s.lastIndexOf('/');
  return i < 0 ? { group: '', version: s } : { group: s.slice(0, i), version: s.slice(i + 1) };
}

/** The /openapi/v3 key of a group version: "apis/apps/v1" or "api/v1". */
export const v3Key = (gv: GroupVersion): string => (gv.group ? `apis/${gv.group}/${gv.version}` : `api/${gv.version}`);

export const BEARER_TOKEN = { description: 'Bearer Token authentication', in: 'header', name: 'authorization', type: 'apiKey' };

export const DEFAULT_INFO_VERSION = 'v1.33.0';
