// Access control as the server runs it: the authorizers of --authorization-mode in their
// order behind the system:masters one (kube's union), the rule resolvers beside them
// (SelfSubjectRulesReview), and the checks writes must pass (escalation prevention on RBAC
// objects, NodeRestriction on nodes' writes).
//
// The RBAC index is kept whatever the modes: RBAC objects are served, and escalation
// prevention judges writes to them by their rules, in every mode (with AlwaysAllow the
// `escalate` and `bind` checks pass anyway).

import type { GenericStore } from '../../registry/generic/store.js';
import type { KObject } from '../../machinery/object.js';
import { alwaysAllow, alwaysDeny, authorizerChain, privilegedGroups, ruleResolverChain, type Authorizer, type RuleResolver } from './authorizer.js';
import { RbacIndex, type RbacStores } from './rbac/index.js';
import { RBACAuthorizer } from './rbac/authorizer.js';
import { rbacWriteChecks } from './rbac/escalation.js';
import { NodeAuthorizer } from './node/authorizer.js';
import { nodeWriteChecks } from './node/restriction.js';
import { BOOTSTRAP_CLUSTER_ROLES } from './rbac/bootstrap/policy.generated.js';
import type { PolicyRule } from '../../registry/rbac/types.js';
import { RBAC_GROUP } from '../../registry/rbac/types.js';
import type { AuthorizationMode } from './modes.js';
import type { RequestWriteChecks, WriteRequest } from './write-request.js';

export { DEFAULT_AUTHORIZATION_MODES, parseAuthorizationModes, type AuthorizationMode } from './modes.js';

export interface AccessSources {
  /** A served resource's store, when it is served. */
  store(group: string, resource: string): GenericStore | undefined;
}

export type { RequestWriteChecks, WriteRequest } from './write-request.js';

export class AccessControl {
  readonly authorizer: Authorizer;
  readonly rules: RuleResolver;
  readonly rbac: RBACAuthorizer;
  private readonly index: RbacIndex;
  private readonly node?: NodeAuthorizer;

  constructor(
    readonly modes: readonly AuthorizationMode[],
    private readonly sources: AccessSources,
  ) {
    const must = (r: string): GenericStore => {
      const s = sources.store(RBAC_GROUP, r);
      if (!s) throw new Error(`RBAC needs ${r}.${RBAC_GROUP} to be served`);
      return s;
    };
    const stores: RbacStores = { roles: must('roles'), clusterRoles: must('clusterroles'), roleBindings: must('rolebindings'), clusterRoleBindings: must('clusterrolebindings') };
    this.index = new RbacIndex(stores);
    this.rbac = new RBACAuthorizer(this.index);
    const authorizers: Authorizer[] = [privilegedGroups];
    const resolvers: RuleResolver[] = [];
    for (const m of modes) {
      switch (m) {
        case 'AlwaysAllow':
          authorizers.push(alwaysAllow);
          resolvers.push(alwaysAllow);
          break;
        case 'AlwaysDeny':
          authorizers.push(alwaysDeny);
          resolvers.push(alwaysDeny);
          break;
        case 'RBAC':
          authorizers.push(this.rbac);
          resolvers.push(this.rbac);
          break;
        case 'Node':
          this.node = new NodeAuthorizer({ store: (g, r) => sources.store(g, r), nodeRules: NODE_RULES });
          authorizers.push(this.node);
          resolvers.push(this.node);
          break;
      }
    }
    this.authorizer = authorizerChain(authorizers);
    this.rules = ruleResolverChain(resolvers);
  }

  /** The stores RBAC reads, for the bootstrap policy's reconciliation. */
  get rbacStores(): RbacStores {
    return {
      roles: this.sources.store(RBAC_GROUP, 'roles')!,
      clusterRoles: this.sources.store(RBAC_GROUP, 'clusterroles')!,
      roleBindings: this.sources.store(RBAC_GROUP, 'rolebindings')!,
      clusterRoleBindings: this.sources.store(RBAC_GROUP, 'clusterrolebindings')!,
    };
  }

  /** Whether requests are allowed whatever they are: the authorization filter can step aside. */
  get allowsEverything(): boolean {
    return this.modes[0] === 'AlwaysAllow';
  }

  start(): void {
    this.index.start();
    this.node?.start();
  }

  stop(): void {
    this.index.stop();
    this.node?.stop();
  }

  /** What a write must pass beyond the type's rules: escalation prevention, NodeRestriction (with the Node mode). */
  writeChecks(req: WriteRequest): RequestWriteChecks | undefined {
    const parts: RequestWriteChecks[] = [];
    if (req.group === RBAC_GROUP && req.subresource === '') {
      const c = rbacWriteChecks(req, this.authorizer, this.rbac);
      if (c) parts.push(c);
    }
    if (this.node) {
      const cached = (resource: string) => {
        const st = this.sources.store('', resource);
        return st ? (namespace: string, name: string): KObject | undefined => {
          const e = st.cache.get(st.keyFor(namespace, name));
          return e ? (JSON.parse(e.bytes.toString('utf8')) as KObject) : undefined;
        } : undefined;
      };
      const nodes = cached('nodes');
      const c = nodeWriteChecks(req, nodes && ((name) => nodes('', name)), cached('pods'), (a) => this.authorizer.authorize(a));
      if (c) parts.push(c);
    }
    return combineChecks(parts);
  }
}

/** Several checks as one: each runs in turn. */
export function combineChecks(parts: (RequestWriteChecks | undefined)[]): RequestWriteChecks | undefined {
  const ps = parts.filter((p): p is RequestWriteChecks => p !== undefined);
  if (ps.length === 0) return undefined;
  if (ps.length === 1) return ps[0];
  return {
    create: (o) => ps.forEach((p) => p.create?.(o)),
    createValidated: (o) => ps.forEach((p) => p.createValidated?.(o)),
    update: (o, old) => ps.forEach((p) => p.update?.(o, old)),
    delete: (o) => ps.forEach((p) => p.delete?.(o)),
  };
}

/** kube's NodeRules: the rules of the bootstrap policy's `system:node` role. */
const NODE_RULES: readonly PolicyRule[] = ((BOOTSTRAP_CLUSTER_ROLES.find((r) => r.metadata.name === 'system:node') as { rules?: PolicyRule[] } | undefined)?.rules ?? []);
