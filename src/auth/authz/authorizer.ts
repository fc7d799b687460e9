// The authorization contract, after k8s.io/apiserver's authorizer.Authorizer: the request's
// attributes (who, which verb, on what) in, a decision out. An authorizer with no opinion
// passes the request to the next one in --authorization-mode order; the chain denies what no
// one allowed.
//
// Decisions are synchronous: every authorizer kapi has answers from memory (RBAC from its
// index of the bindings, Node from its view of pods), and checks made inside a write's update
// loop (escalation prevention) must not wait.
//
// A RuleResolver lists what a user may do in a namespace (SelfSubjectRulesReview, and the
// rules escalation prevention compares with).

import type { UserInfo } from '../authn/user.js';
import { SYSTEM_PRIVILEGED_GROUP } from '../authn/user.js';
import { aggregate } from '../../machinery/go-format.js';
import type { FieldRequirement } from '../../machinery/selectors.js';

export interface Attributes {
  user: UserInfo;
  /** kube's verb: get, list, watch, create, update, patch, delete, deletecollection, or a special one (bind, escalate, impersonate, ...); for non-resource requests the HTTP method in lower case. */
  verb: string;
  isResourceRequest: boolean;
  /** The URL path (non-resource requests). */
  path: string;
  apiGroup: string;
  apiVersion: string;
  namespace: string;
  resource: string;
  subresource: string;
  name: string;
  /** The field selector of a list, watch or deletecollection, parsed (kube's AuthorizeWithSelectors, on in 1.33). */
  fieldSelector?: readonly FieldRequirement[];
}

export type Decision = 'allow' | 'deny' | 'no-opinion';

export interface AuthorizationResult {
  decision: Decision;
  /** Why (RBAC names the binding that allowed; a denial's reason goes into the 403's message). */
  reason: string;
  /** What went wrong while deciding (a binding to a missing role); the decision may still stand. */
  error?: string;
}

export interface Authorizer {
  readonly name: string;
  authorize(a: Attributes): AuthorizationResult;
}

export interface ResourceRuleInfo {
  verbs: string[];
  apiGroups: string[];
  resources: string[];
  resourceNames?: string[];
}

export interface NonResourceRuleInfo {
  verbs: string[];
  nonResourceURLs: string[];
}

export interface RulesResult {
  resourceRules: ResourceRuleInfo[];
  nonResourceRules: NonResourceRuleInfo[];
  /** True when an authorizer may allow more than it can list (the Node authorizer for a node). */
  incomplete: boolean;
  error?: string;
}

export interface RuleResolver {
  rulesFor(user: UserInfo, namespace: string): RulesResult;
}

const ALLOWED: AuthorizationResult = Object.freeze({ decision: 'allow', reason: '' });
const NO_OPINION: AuthorizationResult = Object.freeze({ decision: 'no-opinion', reason: '' });

export const alwaysAllow: Authorizer & RuleResolver = {
  name: 'AlwaysAllow',
  authorize: () => ALLOWED,
  rulesFor: () => ({
    resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
    nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
    incomplete: false,
  }),
};

/** kube's AlwaysDeny has no opinion (so an authorizer after it may still allow), with its reason. */
export const alwaysDeny: Authorizer & RuleResolver = {
  name: 'AlwaysDeny',
  authorize: () => ({ decision: 'no-opinion', reason: 'Everything is forbidden.' }),
  rulesFor: () => ({ resourceRules: [], nonResourceRules: [], incomplete: false }),
};

/**
 * Members of system:masters may do anything, whatever the modes: kube puts this authorizer
 * first in every chain (the API server's own loopback client is one).
 */
export const privilegedGroups: Authorizer = {
  name: 'PrivilegedGroups',
  authorize: (a) => (a.user.groups.includes(SYSTEM_PRIVILEGED_GROUP) ? ALLOWED : NO_OPINION),
};

/**
 * kube's union authorizer: each authorizer in turn; the first allow or deny decides, with
 * its own reason; when none decides, the reasons of all are joined, one a line.
 */
export function authorizerChain(members: Authorizer[]): Authorizer {
  if (members.length === 1) return members[0]!;
  return {
    name: members.map((m) => m.name).join(','),
    authorize(a: Attributes): AuthorizationResult {
      const reasons: string[] = [];
      const errors: string[] = [];
      for (const m of members) {
        const r = m.authorize(a);
        if (r.decision !== 'no-opinion') return r;
        if (r.reason) reasons.push(r.reason);
        if (r.error) errors.push(r.error);
      }
      return { decision: 'no-opinion', reason: reasons.join('\n'), error: errors.length ? aggregate(errors) : undefined };
    },
  };
}

/** kube's union rule resolver: every resolver's rules, incomplete if any is, errors aggregated. */
export function ruleResolverChain(members: RuleResolver[]): RuleResolver {
  return {
    rulesFor(user, namespace) {
      const out: RulesResult = { resourceRules: [], nonResourceRules: [], incomplete: false };
      const errors: string[] = [];
      for (const m of members) {
        const r = m.rulesFor(user, namespace);
        out.resourceRules.push(...r.resourceRules);
        out.nonResourceRules.push(...r.nonResourceRules);
        if (r.incomplete) out.incomplete = true;
        if (r.error) errors.push(r.error);
      }
      if (errors.length) out.error = aggregate(errors);
      return out;
    },
  };
}
