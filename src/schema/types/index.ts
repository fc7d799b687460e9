// kapi's schema registry: the generated wire facts (./generated.ts). Decoding and
// defaulting read SCHEMAS as is; the published documents (OpenAPI, explain) want kapi's own
// descriptions too, which `describedSchemas()` merges in on first use, so the request
// path and start-up never load the prose.

import type { FieldSchema, SchemaRegistry, StructSchema } from '../model.js';
import { GENERATED } from './generated.js';

export { EMBEDDED, GENERATED, GENERATED_FROM, GENERATED_ROOTS, INLINED, type InlineEmbed } from './generated.js';
export { DEFAULTS, applySchemaDefaults, imagePullPolicyFor, type DefaultRule, type DefinitionDefaults } from './defaults.js';
export { goRoundTrip, storageRoundTrip } from './go-json.js';

function withDescriptions(registry: SchemaRegistry, descriptions: Record<string, string>): SchemaRegistry {
  const out: SchemaRegistry = {};
  for (const [name, s] of Object.entries(registry)) {
    const fields: FieldSchema[] = s.fields.map((f) => {
      const d = descriptions[`${name}.${f.name}`];
      return d === undefined ? { ...f } : { ...f, description: d };
    });
    const struct: StructSchema = { ...s, fields };
    const d = descriptions[name];
    if (d !== undefined) struct.description = d;
    out[name] = struct;
  }
  return out;
}

export const SCHEMAS: SchemaRegistry = GENERATED;

let described: SchemaRegistry | undefined;

/** The registry with descriptions, for OpenAPI and `kubectl explain` (loaded on first use). */
export async function describedSchemas(): Promise<SchemaRegistry> {
  if (!described) {
    const { DESCRIPTIONS } = await import('./descriptions.js');
    described = withDescriptions(GENERATED, DESCRIPTIONS);
  }
  return described;
}

const byGvk = new Map<string, string>();
for (const s of Object.values(SCHEMAS)) if (s.gvk) byGvk.set(`${s.gvk.group}/${s.gvk.version}/${s.gvk.kind}`, s.name);

/**
 * The definition name of a kind: the registry's entry with that group/version/kind,
 * else kube's naming convention (io.k8s.api.<first label of the group, or core>.<version>.<kind>),
 * which may name a definition the registry does not hold.
 */
export function rootDefinition(group: string, version: string, kind: string): string {
  const hit = byGvk.get(`${group}/${version}/${kind}`);
  if (hit) return hit;
  const pkg = group === '' ? 'core' : group.split('.')[0]!;
  return `io.k8s.api.${pkg}.${version}.${kind}`;
}
