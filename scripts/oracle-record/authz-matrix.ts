// Checks the authorization matrix of the tests (test/e2e/http/authz-matrix.table.ts, written
// from kube's bootstrap policy) against a running kube-apiserver: binds users matrix-admin,
// -edit and -view in namespaces of their names with a RoleBinding to the bootstrap role, and
// asks a SubjectAccessReview for every verb of every resource of the table (the reference
// server's discovery says which verbs each has), comparing each answer with the table.
//
//   node dist/scripts/oracle-record/authz-matrix.js --server https://127.0.0.1:26443 [--token T]
//
// The reference server runs no controller manager, so its aggregated roles (admin, edit, view)
// have no rules: they are filled as kube's aggregation controller would, first.

import { send, closeClients, type Server } from './client.js';
import { MATRIX, MATRIX_ROLES, allowed } from '../../test/e2e/http/authz-matrix.table.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function call(s: Server, method: string, path: string, body?: unknown): Promise<{ status: number; json: Obj }> {
  const r = await send(s, method, path, { 'content-type': 'application/json', accept: 'application/json' }, body === undefined ? undefined : Buffer.from(JSON.stringify(body)));
  return { status: r.status, json: r.text ? (JSON.parse(r.text) as Obj) : {} };
}

const matches = (sel: Obj, labels: Obj = {}): boolean => Object.entries(sel.matchLabels ?? {}).every(([k, v]) => labels[k] === v);

/** Fills admin, edit and view as the aggregation controller does (roles by name, each rule once). */
async function aggregate(s: Server): Promise<void> {
  const roles = (await call(s, 'GET', '/apis/rbac.authorization.k8s.io/v1/clusterroles')).json.items as Obj[];
  roles.sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1));
  // edit aggregates view and admin aggregates edit: fill in that order.
  for (const name of ['view', 'edit', 'admin']) {
    const target = roles.find((r) => r.metadata.name === name)!;
    const rules: Obj[] = [];
    for (const sel of target.aggregationRule.clusterRoleSelectors) {
      for (const r of roles) {
        if (r.metadata.name === name || !matches(sel, r.metadata.labels)) continue;
        for (const rule of r.rules ?? []) if (!rules.some((x) => JSON.stringify(x) === JSON.stringify(rule))) rules.push(rule);
      }
    }
    target.rules = rules;
    const put = await call(s, 'PUT', `/apis/rbac.authorization.k8s.io/v1/clusterroles/${name}`, target);
    if (put.status !== 200) throw new Error(`PUT clusterrole ${name}: ${put.status} ${JSON.stringify(put.json)}`);
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const at = (flag: string): string | undefined => (args.includes(flag) ? args[args.indexOf(flag) + 1] : undefined);
  const server: Server = { url: at('--server') ?? 'https://127.0.0.1:16443', token: at('--token') ?? 'oracle-token' };
  await aggregate(server);
  for (const role of MATRIX_ROLES) {
    const n = `matrix-${role}`;
    await call(server, 'POST', '/api/v1/namespaces', { metadata: { name: n } });
    if (role !== 'none') {
      await call(server, 'POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${n}/rolebindings`, {
        metadata: { name: role },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
        subjects: [{ kind: 'User', name: n }],
      });
    }
  }
  // Every resource of the table with its verbs, from the reference server's discovery.
  const lists = [{ group: '', path: '/api/v1' }];
  for (const g of (await call(server, 'GET', '/apis')).json.groups as Obj[]) for (const v of g.versions as Obj[]) lists.push({ group: g.name, path: `/apis/${v.groupVersion}` });
  let cells = 0;
  const wrong: string[] = [];
  for (const l of lists) {
    for (const r of (await call(server, 'GET', l.path)).json.resources as Obj[]) {
      const key = l.group ? `${r.name}.${l.group}` : r.name;
      if (!(key in MATRIX)) continue;
      const [resource, subresource = ''] = (r.name as string).split('/');
      for (const role of MATRIX_ROLES) {
        const n = `matrix-${role}`;
        for (const verb of r.verbs as string[]) {
          const isNamespace = l.group === '' && resource === 'namespaces';
          const named = !['list', 'watch', 'deletecollection'].includes(verb) && !(verb === 'create' && !subresource);
          const namespace = r.namespaced || (isNamespace && named) ? n : '';
          const name = named ? (isNamespace ? n : 'x') : '';
          const review = await call(server, 'POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', {
            spec: { user: n, groups: ['system:authenticated'], resourceAttributes: { namespace, verb, group: l.group, resource, subresource, name } },
          });
          cells++;
          const got = review.json.status?.allowed === true;
          const want = allowed(key, role, verb);
          if (got !== want) wrong.push(`${role}: ${verb} ${key}: kube ${got ? 'allows' : 'denies'}, the table says ${want ? 'allowed' : 'denied'}`);
        }
      }
    }
  }
  closeClients();
  process.stdout.write(`${cells} cells checked, ${wrong.length} differ from the table\n${wrong.join('\n')}${wrong.length ? '\n' : ''}`);
  if (wrong.length) process.exit(1);
}

main().catch((e: unknown) => {
  process.stderr.write(`${String((e as Error).stack ?? e)}\n`);
  process.exit(2);
});
