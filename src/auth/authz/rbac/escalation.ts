// Escalation prevention (kube's policy-based RBAC storages, pkg/registry/rbac/*/policybased):
// nobody may write a role granting more than they hold, nor bind a role whose rules they do not
// hold, unless they are in system:masters, hold `escalate` on the role (roles and cluster
// roles) or `bind` on the role referenced (bindings). Setting or keeping an aggregation rule
// on a ClusterRole needs everything (it can gather any rule). An update that only changes
// what the garbage collector changes (finalizers, owner references) is never checked.
//
// The checks are the registry's WriteChecks: `create` before the store's own steps, `update`
// on each attempt of the update loop, so they judge the object a patch or apply produces.

import type { KObject } from '../../../machinery/object.js';
import { forbidden, notFound, type GroupResource } from '../../../machinery/errors.js';
import { deepEqual } from '../../../machinery/json-view.js';
import type { WriteChecks } from '../../../registry/types.js';
import { RBAC_GROUP, hasAggregationRule, type BindingObject, type PolicyRule, type RoleObject, type RoleRef } from '../../../registry/rbac/types.js';
import { SYSTEM_PRIVILEGED_GROUP, type UserInfo } from '../../authn/user.js';
import type { Authorizer } from '../authorizer.js';
import { compactRules, compactString, covers, goQuoteList } from './rules.js';
import type { RBACAuthorizer } from './authorizer.js';

const FULL_AUTHORITY: PolicyRule[] = [
  { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
  { verbs: ['*'], nonResourceURLs: ['*'] },
];

export interface EscalationRequest {
  user: UserInfo;
  /** roles, clusterroles, rolebindings or clusterrolebindings. */
  resource: string;
  namespace: string;
  name: string;
}

/** kube's EscalationAllowed: system:masters may grant anything (the API server's own loopback is there). */
export const escalationAllowed = (user: UserInfo): boolean => user.groups.includes(SYSTEM_PRIVILEGED_GROUP);

/** ConfirmNoEscalation: the user's RBAC rules in the namespace cover `rules`, or the reason they do not. */
export function confirmNoEscalation(rbac: RBACAuthorizer, user: UserInfo, namespace: string, rules: readonly PolicyRule[]): string | undefined {
  const owner = rbac.policyRulesFor(user, namespace);
  const { covered, missing } = covers(owner.rules, rules);
  if (covered) return undefined;
  const descriptions = [...new Set(compactRules(missing).map(compactString))].sort();
  let msg = `user ${JSON.stringify(user.name)} (groups=${goQuoteList(user.groups)}) is attempting to grant RBAC permissions not currently held:\n${descriptions.join('\n')}`;
  if (owner.error) msg += `; resolution errors: [${owner.error}]`;
  return msg;
}

const GC_FIELDS = ['ownerReferences', 'finalizers', 'managedFields', 'selfLink'];

/** kube's IsOnlyMutatingGCFields: the objects are equal but for owner references, finalizers and managedFields. */
function onlyGCFieldsChange(obj: KObject, old: KObject): boolean {
  const strip = (o: KObject): Record<string, unknown> => {
    const meta: Record<string, unknown> = { ...o.metadata };
    for (const k of GC_FIELDS) delete meta[k];
    const out: Record<string, unknown> = { ...o, metadata: meta };
    delete out.apiVersion;
    delete out.kind;
    return out;
  };
  return deepEqual(strip(obj), strip(old));
}

/** The role a binding names, its API group defaulted as kube's decoding defaults it. */
const roleRefOf = (obj: KObject): RoleRef => {
  const r = (obj as BindingObject).roleRef ?? ({} as RoleRef);
  return { apiGroup: r.apiGroup || RBAC_GROUP, kind: r.kind ?? '', name: r.name ?? '' };
};

/** The checks of a write to an RBAC object, or none when the writer may grant anything. */
export function rbacWriteChecks(req: EscalationRequest, authorizer: Authorizer, rbac: RBACAuthorizer): WriteChecks | undefined {
  if (escalationAllowed(req.user)) return undefined;
  const gr: GroupResource = { group: RBAC_GROUP, resource: req.resource };
  const refuse = (obj: KObject, why: string): never => {
    throw forbidden(gr, obj.metadata.name ?? '', why);
  };
  const confirm = (obj: KObject, rules: readonly PolicyRule[]): void => {
    const why = confirmNoEscalation(rbac, req.user, req.namespace, rules);
    if (why) refuse(obj, why);
  };

  switch (req.resource) {
    case 'roles':
    case 'clusterroles': {
      // RoleEscalationAuthorized: `escalate` on this role lifts every check.
      const escalate = authorizer.authorize({
        user: req.user,
        verb: 'escalate',
        isResourceRequest: true,
        path: '',
        apiGroup: RBAC_GROUP,
        apiVersion: '*',
        resource: req.resource,
        subresource: '',
        namespace: req.namespace,
        name: req.name,
      });
      if (escalate.decision === 'allow') return undefined;
      const check = (obj: KObject, old?: KObject): void => {
        confirm(obj, (obj as RoleObject).rules ?? []);
        if (req.resource === 'clusterroles' && (hasAggregationRule(obj) || hasAggregationRule(old))) {
          if (confirmNoEscalation(rbac, req.user, req.namespace, FULL_AUTHORITY)) refuse(obj, 'must have cluster-admin privileges to use the aggregationRule');
        }
      };
      return {
        create: (obj) => check(obj),
        update: (obj, old) => {
          if (!onlyGCFieldsChange(obj, old)) check(obj, old);
        },
      };
    }
    case 'rolebindings':
    case 'clusterrolebindings': {
      const check = (obj: KObject): void => {
        const ref = roleRefOf(obj);
        if (bindingAuthorized(authorizer, req.user, ref, req.namespace)) return;
        const resolved = rbac.roleRefRulesOf(ref, req.namespace);
        if ('error' in resolved) {
          // kube reads the role through its store, whose NotFound names the request's resource.
          throw notFound(gr, ref.name);
        }
        confirm(obj, resolved.rules);
      };
      return {
        create: (obj) => check(obj),
        update: (obj, old) => {
          if (!onlyGCFieldsChange(obj, old)) check(obj);
        },
      };
    }
    default:
      return undefined;
  }
}

/** kube's BindingAuthorized: `bind` on the referenced role, in the binding's namespace ('' for cluster bindings). */
function bindingAuthorized(authorizer: Authorizer, user: UserInfo, ref: RoleRef, namespace: string): boolean {
  if (ref.kind !== 'Role' && ref.kind !== 'ClusterRole') return false;
  return (
    authorizer.authorize({
      user,
      verb: 'bind',
      isResourceRequest: true,
      path: '',
      apiGroup: ref.apiGroup,
      apiVersion: '*',
      resource: ref.kind === 'Role' ? 'roles' : 'clusterroles',
      subresource: '',
      namespace,
      name: ref.name,
    }).decision === 'allow'
  );
}
