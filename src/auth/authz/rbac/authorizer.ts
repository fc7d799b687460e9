// The RBAC authorizer (kube's plugin/pkg/auth/authorizer/rbac): a request is allowed when a
// rule of a role bound to the user allows it; otherwise RBAC has no opinion (rules only add).
// Cluster role bindings are visited first, then the role bindings of the request's namespace.
// The reason names the binding that allowed (`RBAC: allowed by ClusterRoleBinding "x" of
// ClusterRole "y" to Group "z"`), or, on no opinion, what could not be resolved (a binding to
// a missing role), which the 403 then quotes.

import type { Attributes, AuthorizationResult, Authorizer, RuleResolver, RulesResult } from '../authorizer.js';
import type { UserInfo } from '../../authn/user.js';
import { aggregate } from '../../../machinery/go-format.js';
import type { PolicyRule, RoleRef, Subject } from '../../../registry/rbac/types.js';
import { ruleAllows } from './rules.js';
import { subjectIndexFor, type IndexedBinding, type RbacIndex } from './index.js';

/** A binding and the subject through which it applies, as kube's describers print them. */
export function describeSource(b: IndexedBinding, s: Subject): string {
  const subject = s.kind === 'ServiceAccount' ? `${s.kind} ${JSON.stringify(`${s.name}/${s.namespace || b.namespace}`)}` : `${s.kind} ${JSON.stringify(s.name)}`;
  const binding = b.kind === 'RoleBinding' ? `${b.name}/${b.namespace}` : b.name;
  return `${b.kind} ${JSON.stringify(binding)} of ${b.roleRef.kind} ${JSON.stringify(b.roleRef.name)} to ${subject}`;
}

/** Visits each rule that applies to `user` in `namespace`; the visitor returns false to stop. */
export type RuleVisitor = (source: { binding: IndexedBinding; subject: Subject } | undefined, rule: PolicyRule | undefined, error: string | undefined) => boolean;

export class RBACAuthorizer implements Authorizer, RuleResolver {
  readonly name = 'RBAC';

  constructor(private readonly index: RbacIndex) {}

  visitRulesFor(user: UserInfo, namespace: string, visit: RuleVisitor): void {
    const scopes: (string | undefined)[] = namespace ? [undefined, namespace] : [undefined];
    for (const scope of scopes) {
      const bindingNamespace = scope ?? '';
      for (const b of this.index.bindingsFor(user, scope)) {
        const i = subjectIndexFor(user, b.subjects, bindingNamespace);
        if (i < 0) continue;
        const resolved = this.index.roleRefRules(b.roleRef, bindingNamespace);
        if ('error' in resolved) {
          if (!visit(undefined, undefined, resolved.error)) return;
          continue;
        }
        const source = { binding: b, subject: b.subjects[i]! };
        for (const rule of resolved.rules) if (!visit(source, rule, undefined)) return;
      }
    }
  }

  /** The rules of the role a binding in `namespace` names (kube's GetRoleReferenceRules). */
  roleRefRulesOf(ref: RoleRef, namespace: string): { rules: PolicyRule[] } | { error: string } {
    return this.index.roleRefRules(ref, namespace);
  }

  authorize(a: Attributes): AuthorizationResult {
    let reason = '';
    const errors: string[] = [];
    this.visitRulesFor(a.user, a.namespace, (source, rule, error) => {
      if (rule && source && ruleAllows(a, rule)) {
        reason = `RBAC: allowed by ${describeSource(source.binding, source.subject)}`;
        return false;
      }
      if (error) errors.push(error);
      return true;
    });
    if (reason) return { decision: 'allow', reason };
    return { decision: 'no-opinion', reason: errors.length ? `RBAC: ${aggregate(errors)}` : '' };
  }

  /** Every rule bound to the user in the namespace (and cluster-wide), and what could not be resolved. */
  policyRulesFor(user: UserInfo, namespace: string): { rules: PolicyRule[]; error?: string } {
    const rules: PolicyRule[] = [];
    const errors: string[] = [];
    this.visitRulesFor(user, namespace, (_s, rule, error) => {
      if (rule) rules.push(rule);
      if (error) errors.push(error);
      return true;
    });
    return errors.length ? { rules, error: aggregate(errors) } : { rules };
  }

  rulesFor(user: UserInfo, namespace: string): RulesResult {
    const { rules, error } = this.policyRulesFor(user, namespace);
    const out: RulesResult = { resourceRules: [], nonResourceRules: [], incomplete: false };
    for (const r of rules) {
      if ((r.resources ?? []).length > 0) {
        out.resourceRules.push({ verbs: r.verbs ?? [], apiGroups: r.apiGroups ?? [], resources: r.resources ?? [], resourceNames: r.resourceNames });
      }
      if ((r.nonResourceURLs ?? []).length > 0) out.nonResourceRules.push({ verbs: r.verbs ?? [], nonResourceURLs: r.nonResourceURLs ?? [] });
    }
    if (error) out.error = error;
    return out;
  }
}
