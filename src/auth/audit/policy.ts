// The audit policy (audit.k8s.io/v1 Policy, --audit-policy-file) and kube's rule checker
// (k8s.io/apiserver/pkg/audit/policy): the first rule that matches a request sets its level,
// the stages left out (the policy's and the rule's) and whether managedFields are dropped from
// the logged objects. No rule matching means level None: nothing is logged.

import { readFile } from 'node:fs/promises';
import { yamlModule } from '../../machinery/lazy-module.js';

export const LEVELS = ['None', 'Metadata', 'Request', 'RequestResponse'] as const;
export type Level = (typeof LEVELS)[number];
export const STAGES = ['RequestReceived', 'ResponseStarted', 'ResponseComplete', 'Panic'] as const;
export type Stage = (typeof STAGES)[number];

export interface GroupResources {
  group: string;
  resources: string[];
  resourceNames: string[];
}

export interface PolicyRule {
  level: Level;
  users: string[];
  userGroups: string[];
  verbs: string[];
  resources: GroupResources[];
  namespaces: string[];
  nonResourceURLs: string[];
  omitStages: Stage[];
  omitManagedFields?: boolean;
}

export interface Policy {
  rules: PolicyRule[];
  omitStages: Stage[];
  omitManagedFields: boolean;
}

/** What a rule looks at (kube's authorizer.Attributes). */
export interface AuditAttributes {
  user?: { name: string; groups: string[] };
  verb: string;
  isResourceRequest: boolean;
  path: string;
  apiGroup: string;
  namespace: string;
  resource: string;
  subresource: string;
  name: string;
}

export interface RequestAuditConfig {
  level: Level;
  omitStages: Stage[];
  omitManagedFields: boolean;
}

const NONE: RequestAuditConfig = Object.freeze({ level: 'None', omitStages: [], omitManagedFields: false }) as RequestAuditConfig;

export const levelAtLeast = (l: Level, min: Level): boolean => LEVELS.indexOf(l) >= LEVELS.indexOf(min);

function strings(v: unknown, field: string): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) throw new Error(`${field}: must be a list of strings`);
  return v as string[];
}

function stages(v: unknown, field: string): Stage[] {
  const s = strings(v, field);
  for (const x of s) if (!(STAGES as readonly string[]).includes(x)) throw new Error(`${field}: Unsupported value: ${JSON.stringify(x)}: supported values: ${STAGES.map((x) => JSON.stringify(x)).join(', ')}`);
  return s as Stage[];
}

/** Reads and validates a policy document (YAML or JSON), with kube's checks. */
export function parsePolicy(text: string): Policy {
  const doc = yamlModule().parse(text) as Record<string, unknown> | null;
  if (!doc || typeof doc !== 'object') throw new Error('the policy file is empty');
  if (doc.kind !== 'Policy') throw new Error(`kind must be "Policy", got ${JSON.stringify(doc.kind)}`);
  if (doc.apiVersion !== 'audit.k8s.io/v1') throw new Error(`apiVersion must be "audit.k8s.io/v1", got ${JSON.stringify(doc.apiVersion)}`);
  const rawRules = doc.rules ?? [];
  if (!Array.isArray(rawRules)) throw new Error('rules: must be a list');
  const rules = rawRules.map((r: Record<string, unknown>, i: number): PolicyRule => {
    const p = `rules[${i}]`;
    if (!r || typeof r !== 'object') throw new Error(`${p}: must be an object`);
    if (!(LEVELS as readonly string[]).includes(r.level as string)) {
      throw new Error(`${p}.level: Unsupported value: ${JSON.stringify(r.level ?? '')}: supported values: ${LEVELS.map((x) => JSON.stringify(x)).join(', ')}`);
    }
    const resources = (Array.isArray(r.resources) ? r.resources : []).map((g: Record<string, unknown>, j: number) => ({
      group: typeof g?.group === 'string' ? g.group : '',
      resources: strings(g?.resources, `${p}.resources[${j}].resources`),
      resourceNames: strings(g?.resourceNames, `${p}.resources[${j}].resourceNames`),
    }));
    const nonResourceURLs = strings(r.nonResourceURLs, `${p}.nonResourceURLs`);
    const namespaces = strings(r.namespaces, `${p}.namespaces`);
    if (nonResourceURLs.length > 0 && (resources.length > 0 || namespaces.length > 0)) {
      throw new Error(`${p}.nonResourceURLs: Invalid value: ${JSON.stringify(nonResourceURLs)}: rules cannot apply to both regular resources and non-resource URLs`);
    }
    return {
      level: r.level as Level,
      users: strings(r.users, `${p}.users`),
      userGroups: strings(r.userGroups, `${p}.userGroups`),
      verbs: strings(r.verbs, `${p}.verbs`),
      resources,
      namespaces,
      nonResourceURLs,
      omitStages: stages(r.omitStages, `${p}.omitStages`),
      omitManagedFields: typeof r.omitManagedFields === 'boolean' ? r.omitManagedFields : undefined,
    };
  });
  return { rules, omitStages: stages(doc.omitStages, 'omitStages'), omitManagedFields: doc.omitManagedFields === true };
}

export async function loadPolicy(path: string): Promise<Policy> {
  const text = await readFile(path, 'utf8');
  try {
    return parsePolicy(text);
  } catch (e) {
    throw new Error(`failed to load the audit policy ${path}: ${(e as Error).message}`, { cause: e });
  }
}

function pathMatches(path: string, spec: string): boolean {
  if (spec === '*' || spec === path) return true;
  return spec.endsWith('*') && path.startsWith(spec.replace(/\*+$/, ''));
}

function resourceMatches(r: PolicyRule, a: AuditAttributes): boolean {
  if (!a.isResourceRequest) return false;
  if (r.namespaces.length > 0 && !r.namespaces.includes(a.namespace)) return false;
  if (r.resources.length === 0) return true;
  const combined = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  for (const gr of r.resources) {
    if (gr.group !== a.apiGroup) continue;
    if (gr.resources.length === 0) return true;
    for (const res of gr.resources) {
      if (gr.resourceNames.length > 0 && !gr.resourceNames.includes(a.name)) continue;
      if (res === combined || res === '*') return true;
      if (a.subresource && res.startsWith('*/') && a.subresource === res.replace(/^[*/]+/, '')) return true;
      if (res.endsWith('/*') && a.resource === res.replace(/[/*]+$/, '')) return true;
    }
  }
  return false;
}

function ruleMatches(r: PolicyRule, a: AuditAttributes): boolean {
  if (r.users.length > 0 && (!a.user || !r.users.includes(a.user.name))) return false;
  if (r.userGroups.length > 0 && (!a.user || !a.user.groups.some((g) => r.userGroups.includes(g)))) return false;
  if (r.verbs.length > 0 && !r.verbs.includes(a.verb)) return false;
  if (r.namespaces.length > 0 || r.resources.length > 0) return resourceMatches(r, a);
  if (r.nonResourceURLs.length > 0) return !a.isResourceRequest && r.nonResourceURLs.some((s) => pathMatches(a.path, s));
  return true;
}

export function evaluatePolicy(p: Policy, a: AuditAttributes): RequestAuditConfig {
  for (const r of p.rules) {
    if (!ruleMatches(r, a)) continue;
    const omit = [...new Set([...p.omitStages, ...r.omitStages])];
    return { level: r.level, omitStages: omit, omitManagedFields: r.omitManagedFields ?? p.omitManagedFields };
  }
  return NONE;
}
