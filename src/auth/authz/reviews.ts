// The access reviews of authorization.k8s.io/v1 (kube's pkg/registry/authorization): a
// review is created, answered and never stored. SubjectAccessReview asks about any user,
// LocalSubjectAccessReview the same within its namespace, SelfSubjectAccessReview about the
// requesting user, and SelfSubjectRulesReview lists the requesting user's rules in a
// namespace (`kubectl auth can-i [--list]`). The decision is the server's own authorizer
// chain's, so the answer is what the same request would get.

import type { KObject } from '../../machinery/object.js';
import { badRequest, invalid as invalidStatus, type FieldError, type StatusError } from '../../machinery/errors.js';
import { forbidden, invalid, required } from '../../machinery/validation/field.js';
import { GoStringer } from '../../machinery/validation/field.js';
import { goPointerValue, goQuote } from '../../machinery/go-format.js';
import { parseFieldSelector, parseLabelSelector, SelectorParseError, type FieldRequirement } from '../../machinery/selectors.js';
import type { UserInfo } from '../authn/user.js';
import type { Attributes, Authorizer, RuleResolver } from './authorizer.js';
import type { ResourceDef } from '../../registry/types.js';
import { OBJECT_META_FIELDS } from '../../machinery/meta.js';
import { createOnlyDef } from '../create-only.js';
import { isQualifiedName, isValidLabelValue } from '../../machinery/validation/names.js';
import { FieldManager } from '../../patch/ssa/field-manager.js';
import { SCHEMAS, rootDefinition } from '../../schema/types/index.js';

export const AUTHORIZATION_GROUP = 'authorization.k8s.io';

interface ResourceAttributes {
  namespace?: string;
  verb?: string;
  group?: string;
  version?: string;
  resource?: string;
  subresource?: string;
  name?: string;
  fieldSelector?: { rawSelector?: string; requirements?: { key?: string; operator?: string; values?: string[] }[] } | null;
  labelSelector?: { rawSelector?: string; requirements?: unknown[] } | null;
}

interface NonResourceAttributes {
  path?: string;
  verb?: string;
}

interface ReviewSpec {
  resourceAttributes?: ResourceAttributes | null;
  nonResourceAttributes?: NonResourceAttributes | null;
  user?: string;
  groups?: string[] | null;
  uid?: string;
  extra?: Record<string, string[]> | null;
  namespace?: string;
}

export interface ReviewRequest {
  user: UserInfo;
  /** The namespace of the URL (LocalSubjectAccessReview). */
  namespace: string;
}

export interface ReviewAuthority {
  authorizer: Authorizer;
  rules: RuleResolver;
}

// --- validation (pkg/apis/authorization/validation) ---

/** Go's %#v of a metav1.Time: the zero time, or the moment in UTC. */
function goTime(ts: string | undefined): string {
  if (!ts) return 'time.Date(1, time.January, 1, 0, 0, 0, 0, time.UTC)';
  const d = new Date(ts);
  const months = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
  return `time.Date(${d.getUTCFullYear()}, time.${months[d.getUTCMonth()]}, ${d.getUTCDate()}, ${d.getUTCHours()}, ${d.getUTCMinutes()}, ${d.getUTCSeconds()}, ${d.getUTCMilliseconds() * 1e6}, time.UTC)`;
}

const goStringMap = (m: Record<string, string> | undefined): string =>
  m ? `map[string]string{${Object.keys(m).sort().map((k) => `${goQuote(k)}:${goQuote(m[k]!)}`).join(', ')}}` : 'map[string]string(nil)';
const goStrings = (l: string[] | undefined): string => (l ? `[]string{${l.map(goQuote).join(', ')}}` : '[]string(nil)');

/** What Go's %#v prints for the review's ObjectMeta (the "must be empty" errors quote it whole). */
function objectMetaValue(meta: KObject['metadata']): GoStringer {
  const mf = (meta.managedFields ?? []) as { manager?: string; operation?: string; apiVersion?: string; time?: string; fieldsType?: string; subresource?: string }[];
  const entries = mf
    .map(
      (e) =>
        `v1.ManagedFieldsEntry{Manager:${goQuote(e.manager ?? '')}, Operation:${goQuote(e.operation ?? '')}, APIVersion:${goQuote(e.apiVersion ?? '')}, Time:${e.time ? `time.Date(${goTime(e.time).slice('time.Date('.length)}` : '<nil>'}, FieldsType:${goQuote(e.fieldsType ?? '')}, FieldsV1:${goPointerValue('v1.FieldsV1', true)}, Subresource:${goQuote(e.subresource ?? '')}}`,
    )
    .join(', ');
  const owners = (meta.ownerReferences ?? []).length ? `[]v1.OwnerReference{...}` : '[]v1.OwnerReference(nil)';
  const text =
    `v1.ObjectMeta{Name:${goQuote(meta.name ?? '')}, GenerateName:${goQuote(meta.generateName ?? '')}, Namespace:${goQuote(meta.namespace ?? '')}, ` +
    `SelfLink:${goQuote(meta.selfLink ?? '')}, UID:${goQuote(meta.uid ?? '')}, ResourceVersion:${goQuote(meta.resourceVersion ?? '')}, ` +
    `Generation:${meta.generation ?? 0}, CreationTimestamp:${goTime(meta.creationTimestamp ?? undefined)}, ` +
    `DeletionTimestamp:${meta.deletionTimestamp ? `&${goTime(meta.deletionTimestamp)}` : '<nil>'}, ` +
    `DeletionGracePeriodSeconds:${goPointerValue('int64', meta.deletionGracePeriodSeconds !== undefined)}, ` +
    `Labels:${goStringMap(meta.labels)}, Annotations:${goStringMap(meta.annotations)}, OwnerReferences:${owners}, ` +
    `Finalizers:${goStrings(meta.finalizers)}, ManagedFields:${mf.length ? `[]v1.ManagedFieldsEntry{${entries}}` : '[]v1.ManagedFieldsEntry(nil)'}}`;
  return new GoStringer(text);
}

/** Whether the metadata is empty but for what a review may carry (managedFields, and a local review's namespace). */
function metaIsEmpty(meta: KObject['metadata'], ignoreNamespace: boolean): boolean {
  for (const [k, v] of Object.entries(meta ?? {})) {
    if (k === 'managedFields' || (ignoreNamespace && k === 'namespace')) continue;
    if (v === undefined || v === null || v === '' || v === 0) continue;
    if (Array.isArray(v) ? v.length === 0 : typeof v === 'object' && Object.keys(v as object).length === 0) continue;
    return false;
  }
  return true;
}

/** A *NonResourceAttributes as field errors print it: "null" when nil, else the struct (%#v). */
function nonResourceAttributesValue(n: NonResourceAttributes | null | undefined): GoStringer | string {
  if (!n) return 'null';
  return new GoStringer(`authorization.NonResourceAttributes{Path:${goQuote(n.path ?? '')}, Verb:${goQuote(n.verb ?? '')}}`);
}

interface SelectorRequirement {
  key?: string;
  operator?: string;
  values?: string[];
}

const IN_VALUES = "must be specified when `operator` is 'In' or 'NotIn'";
const EXISTS_VALUES = "may not be specified when `operator` is 'Exists' or 'DoesNotExist'";

/** The operator's rule on values; operators kube does not know pass (a newer client may send them). */
function operatorErrors(q: SelectorRequirement, p: string): FieldError[] {
  const values = q.values ?? [];
  if ((q.operator === 'In' || q.operator === 'NotIn') && values.length === 0) return [required(`${p}.values`, IN_VALUES)];
  if ((q.operator === 'Exists' || q.operator === 'DoesNotExist') && values.length > 0) return [forbidden(`${p}.values`, EXISTS_VALUES)];
  return [];
}

/** A field selector requirement: a key, and the operator's rule on values. */
function fieldRequirementErrors(q: SelectorRequirement, p: string): FieldError[] {
  return [...(q.key ? [] : [required(`${p}.key`, 'must be specified')]), ...operatorErrors(q, p)];
}

/** A label selector requirement: the operator's rule on values, a label key, label values. */
function labelRequirementErrors(q: SelectorRequirement, p: string): FieldError[] {
  const errs = operatorErrors(q, p);
  for (const m of isQualifiedName(q.key ?? '')) errs.push(invalid(`${p}.key`, q.key ?? '', m));
  (q.values ?? []).forEach((v, j) => {
    for (const m of isValidLabelValue(v)) errs.push(invalid(`${p}.values[${j}]`, v, m));
  });
  return errs;
}

function validateSelectorAttributes(
  sel: { rawSelector?: string; requirements?: unknown[] } | null | undefined,
  path: string,
  requirementErrors: (q: SelectorRequirement, p: string) => FieldError[],
): FieldError[] {
  if (!sel) return [];
  const errs: FieldError[] = [];
  const raw = sel.rawSelector ?? '';
  const reqs = (sel.requirements ?? []) as SelectorRequirement[];
  if (raw && reqs.length) errs.push(invalid(`${path}.rawSelector`, raw, 'may not specified at the same time as requirements'));
  if (!raw && reqs.length === 0) errs.push(required(`${path}.requirements`, `when ${path} is specified, requirements or rawSelector is required`));
  reqs.forEach((q, i) => errs.push(...requirementErrors(q ?? {}, `${path}.requirements[${i}]`)));
  return errs;
}

function validateResourceAttributes(r: ResourceAttributes | null | undefined): FieldError[] {
  if (!r) return [];
  return [
    ...validateSelectorAttributes(r.fieldSelector, 'spec.resourceAttributes.fieldSelector', fieldRequirementErrors),
    ...validateSelectorAttributes(r.labelSelector, 'spec.resourceAttributes.labelSelector', labelRequirementErrors),
  ];
}

function validateAttributesChoice(spec: ReviewSpec): FieldError[] {
  const errs: FieldError[] = [];
  if (spec.resourceAttributes && spec.nonResourceAttributes) {
    errs.push(invalid('spec.nonResourceAttributes', nonResourceAttributesValue(spec.nonResourceAttributes), 'cannot be specified in combination with resourceAttributes'));
  }
  if (!spec.resourceAttributes && !spec.nonResourceAttributes) {
    errs.push(invalid('spec.resourceAttributes', nonResourceAttributesValue(spec.nonResourceAttributes), 'exactly one of nonResourceAttributes or resourceAttributes must be specified'));
  }
  return errs;
}

function validateSubjectSpec(spec: ReviewSpec): FieldError[] {
  const errs = validateAttributesChoice(spec);
  if (!spec.user && (spec.groups ?? []).length === 0) errs.push(invalid('spec.user', spec.user ?? '', 'at least one of user or group must be specified'));
  errs.push(...validateResourceAttributes(spec.resourceAttributes));
  return errs;
}

/** The reviews' 422: kube names no kind (its internal object has none) and no object. */
const invalidReview = (errs: FieldError[]): StatusError => invalidStatus('', AUTHORIZATION_GROUP, '', errs);

// --- attributes and answers ---

/** A review's field selector as the authorizer reads it, and whether parsing dropped some of it. */
function fieldSelectorOf(r: ResourceAttributes): { reqs?: FieldRequirement[]; error?: 'ignored' | 'partially ignored' } {
  const sel = r.fieldSelector;
  if (!sel) return {};
  if (sel.rawSelector) {
    try {
      return { reqs: [...parseFieldSelector(sel.rawSelector).requirements] };
    } catch (e) {
      if (e instanceof SelectorParseError) return { error: 'ignored' };
      throw e;
    }
  }
  const reqs: FieldRequirement[] = [];
  let bad = 0;
  for (const q of sel.requirements ?? []) {
    const values = q.values ?? [];
    if (values.length !== 1 || (q.operator !== 'In' && q.operator !== 'NotIn')) {
      bad++;
      continue;
    }
    reqs.push({ field: q.key ?? '', operator: q.operator === 'In' ? '=' : '!=', value: values[0]! });
  }
  if (bad === 0) return { reqs };
  return { reqs, error: reqs.length ? 'partially ignored' : 'ignored' };
}

/**
 * Whether the authorizer could read a review's label selector: no authorizer kapi has looks at
 * labels, but kube converts the selector all the same and says what it had to drop (an
 * operator it does not know, a raw selector that does not parse). Validation has already
 * refused what breaks the known operators' rules.
 */
function labelSelectorError(r: ResourceAttributes): 'ignored' | 'partially ignored' | undefined {
  const sel = r.labelSelector;
  if (!sel) return undefined;
  if (sel.rawSelector) {
    try {
      parseLabelSelector(sel.rawSelector);
      return undefined;
    } catch (e) {
      if (e instanceof SelectorParseError) return 'ignored';
      throw e;
    }
  }
  const reqs = (sel.requirements ?? []) as SelectorRequirement[];
  const bad = reqs.filter((q) => !['In', 'NotIn', 'Exists', 'DoesNotExist'].includes(q?.operator ?? '')).length;
  if (bad === 0) return undefined;
  return bad < reqs.length ? 'partially ignored' : 'ignored';
}

function resourceAttributesFor(user: UserInfo, r: ResourceAttributes): { attrs: Attributes; selectorErrors: string[] } {
  const fs = fieldSelectorOf(r);
  const ls = labelSelectorError(r);
  const selectorErrors = [
    ...(fs.error ? [`spec.resourceAttributes.fieldSelector ${fs.error} due to parse error`] : []),
    ...(ls ? [`spec.resourceAttributes.labelSelector ${ls} due to parse error`] : []),
  ];
  return {
    attrs: {
      user,
      verb: r.verb ?? '',
      isResourceRequest: true,
      path: '',
      apiGroup: r.group ?? '',
      apiVersion: r.version || '*',
      namespace: r.namespace ?? '',
      resource: r.resource ?? '',
      subresource: r.subresource ?? '',
      name: r.name ?? '',
      fieldSelector: fs.reqs,
    },
    selectorErrors,
  };
}

function attributesFor(user: UserInfo, spec: ReviewSpec): { attrs: Attributes; selectorErrors: string[] } {
  if (spec.resourceAttributes) return resourceAttributesFor(user, spec.resourceAttributes);
  const n = spec.nonResourceAttributes ?? {};
  return {
    attrs: { user, verb: n.verb ?? '', isResourceRequest: false, path: n.path ?? '', apiGroup: '', apiVersion: '', namespace: '', resource: '', subresource: '', name: '' },
    selectorErrors: [],
  };
}

function decide(authority: ReviewAuthority, attrs: Attributes, selectorErrors: string[]): Record<string, unknown> {
  const r = authority.authorizer.authorize(attrs);
  const status: Record<string, unknown> = { allowed: r.decision === 'allow' };
  if (r.decision === 'deny') status.denied = true;
  if (r.reason) status.reason = r.reason;
  const evaluation = [...(r.error ? [r.error] : []), ...selectorErrors].join('; ');
  if (evaluation) status.evaluationError = evaluation;
  return status;
}

const specOf = (obj: KObject): ReviewSpec => (obj.spec ?? {}) as ReviewSpec;

/** The user a SubjectAccessReview names. */
function subjectOf(spec: ReviewSpec): UserInfo {
  return { name: spec.user ?? '', uid: spec.uid ?? '', groups: spec.groups ?? [], extra: spec.extra ?? {} };
}

export function subjectAccessReview(obj: KObject, _req: ReviewRequest, authority: ReviewAuthority): KObject {
  const spec = specOf(obj);
  const errs = validateSubjectSpec(spec);
  if (!metaIsEmpty(obj.metadata, false)) errs.push(invalid('metadata', objectMetaValue(obj.metadata), 'must be empty'));
  if (errs.length) throw invalidReview(errs);
  const { attrs, selectorErrors } = attributesFor(subjectOf(spec), spec);
  return { ...obj, status: decide(authority, attrs, selectorErrors) };
}

export function localSubjectAccessReview(obj: KObject, req: ReviewRequest, authority: ReviewAuthority): KObject {
  const spec = specOf(obj);
  const errs = validateSubjectSpec(spec);
  if (!metaIsEmpty(obj.metadata, true)) errs.push(invalid('metadata', objectMetaValue(obj.metadata), 'must be empty except for namespace'));
  const ns = obj.metadata.namespace ?? '';
  if (spec.resourceAttributes && (spec.resourceAttributes.namespace ?? '') !== ns) {
    errs.push(invalid('spec.resourceAttributes.namespace', spec.resourceAttributes.namespace ?? '', 'must match metadata.namespace'));
  }
  if (spec.nonResourceAttributes) {
    errs.push(invalid('spec.nonResourceAttributes', nonResourceAttributesValue(spec.nonResourceAttributes), 'disallowed on this kind of request'));
  }
  if (errs.length) throw invalidReview(errs);
  if (!req.namespace) throw badRequest(`namespace is required on this type: ${req.namespace}`);
  if (req.namespace !== ns) throw badRequest(`spec.resourceAttributes.namespace must match namespace: ${req.namespace}`);
  const { attrs, selectorErrors } = attributesFor(subjectOf(spec), spec);
  return { ...obj, status: decide(authority, attrs, selectorErrors) };
}

export function selfSubjectAccessReview(obj: KObject, req: ReviewRequest, authority: ReviewAuthority): KObject {
  const spec = specOf(obj);
  const errs = validateAttributesChoice(spec);
  errs.push(...validateResourceAttributes(spec.resourceAttributes));
  if (!metaIsEmpty(obj.metadata, false)) errs.push(invalid('metadata', objectMetaValue(obj.metadata), 'must be empty'));
  if (errs.length) throw invalidReview(errs);
  const { attrs, selectorErrors } = attributesFor(req.user, spec);
  return { ...obj, status: decide(authority, attrs, selectorErrors) };
}

export function selfSubjectRulesReview(obj: KObject, req: ReviewRequest, authority: ReviewAuthority): KObject {
  const namespace = specOf(obj).namespace ?? '';
  if (!namespace) throw badRequest('no namespace on request');
  const r = authority.rules.rulesFor(req.user, namespace);
  const status: Record<string, unknown> = {
    resourceRules: r.resourceRules.map((x) => ({
      verbs: x.verbs,
      apiGroups: x.apiGroups,
      resources: x.resources,
      ...(x.resourceNames?.length ? { resourceNames: x.resourceNames } : {}),
    })),
    nonResourceRules: r.nonResourceRules.map((x) => ({ verbs: x.verbs, nonResourceURLs: x.nonResourceURLs })),
    incomplete: r.incomplete,
  };
  if (r.error) status.evaluationError = r.error;
  // kube answers a new object: only the kind, an empty spec and the status.
  return { metadata: {}, spec: {}, status };
}

type ReviewHandler = (obj: KObject, req: ReviewRequest, authority: ReviewAuthority) => KObject;

/** The answer's metadata in Go's field order (as kube's JSON writes it); its zero creation time is null. */
function goObjectMeta(meta: KObject['metadata'] | undefined): Record<string, unknown> {
  const m = (meta ?? {}) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of OBJECT_META_FIELDS) {
    if (k === 'creationTimestamp') out[k] = m[k] ?? null;
    else if (m[k] !== undefined && m[k] !== '' && m[k] !== 0) out[k] = m[k];
  }
  return out;
}

function reviewDef(resource: string, kind: string, namespaced: boolean, handle: ReviewHandler, authority: ReviewAuthority): ResourceDef {
  let manager: FieldManager | undefined;
  // kube's create handler keeps managedFields for these kinds too, as an Update entry of the request's fields.
  const managerOf = (): FieldManager =>
    (manager ??= new FieldManager({ group: AUTHORIZATION_GROUP, version: 'v1', kind, definition: rootDefinition(AUTHORIZATION_GROUP, 'v1', kind), hasStatus: true }, SCHEMAS));
  return createOnlyDef(AUTHORIZATION_GROUP, resource, kind, namespaced, {
    async create(obj, req) {
      // kube's create handler records the request's fields before the review is answered,
      // so a review's metadata carries an Update entry (and the "must be empty" errors quote it).
      managerOf().update(null, obj, { manager: req.manager, subresource: '' });
      // kube's EnsureObjectNamespaceMatchesRequestNamespace, as its create handler runs it.
      if (!namespaced) delete obj.metadata.namespace;
      else if (!obj.metadata.namespace) obj.metadata.namespace = req.namespace;
      else if (obj.metadata.namespace !== req.namespace) throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
      const answer = handle(obj, { user: req.user, namespace: req.namespace }, authority);
      return { kind, apiVersion: `${AUTHORIZATION_GROUP}/v1`, metadata: goObjectMeta(answer.metadata), spec: answer.spec ?? {}, status: answer.status };
    },
  });
}

/** The four access review resources, answered by `authority` (the server's authorizer chain and rule resolvers). */
export function accessReviewDefs(authority: ReviewAuthority): ResourceDef[] {
  return [
    reviewDef('localsubjectaccessreviews', 'LocalSubjectAccessReview', true, localSubjectAccessReview, authority),
    reviewDef('selfsubjectaccessreviews', 'SelfSubjectAccessReview', false, selfSubjectAccessReview, authority),
    reviewDef('selfsubjectrulesreviews', 'SelfSubjectRulesReview', false, selfSubjectRulesReview, authority),
    reviewDef('subjectaccessreviews', 'SubjectAccessReview', false, subjectAccessReview, authority),
  ];
}
