// ComponentStatus (core/v1, deprecated since 1.19 and still served by kube 1.33): a
// read-only list of the control plane's parts and whether each answers, computed on every
// request as kube's componentstatus REST does. Nothing is stored.
//
// Kube lists the scheduler and the controller manager (probing their /healthz on this
// host) and each etcd server. kapi runs its controllers in-process, so the controller
// manager is this process; there is no scheduler of its own, so it is probed where kube
// probes it; the store is each etcd server (etcd3) or the embedded store (level).

import { request } from 'node:https';
import type { KObject } from '../../../machinery/object.js';
import { notFound } from '../../../machinery/errors.js';
import { nameIsDNSSubdomain } from '../../../machinery/validation/names.js';
import type { ReadOnlyREST, ResourceDef, Strategy, TableColumn } from '../../types.js';
import { NAME_COLUMN } from '../../printers.js';

const readOnly: Strategy = {
  prepareForCreate() {},
  prepareForUpdate() {},
  applyDefaults() {},
  validate: () => [],
  validateUpdate: () => [],
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: false,
  tracksGeneration: false,
};

const column = (name: string, description: string): TableColumn => ({ name, type: 'string', format: '', description, priority: 0 });

interface Condition {
  type: string;
  status: string;
  message?: string;
  error?: string;
}

export const componentStatuses: ResourceDef = {
  group: '',
  version: 'v1',
  resource: 'componentstatuses',
  kind: 'ComponentStatus',
  listKind: 'ComponentStatusList',
  singularName: 'componentstatus',
  shortNames: ['cs'],
  categories: [],
  namespaced: false,
  verbs: ['get', 'list'],
  strategy: readOnly,
  nameValidator: nameIsDNSSubdomain,
  returnDeletedObject: false,
  lifecycle: { deprecated: [1, 19] },
  table: {
    columns: [
      NAME_COLUMN,
      column('Status', 'Status of the component conditions'),
      column('Message', 'Message of the component conditions'),
      column('Error', 'Error of the component conditions'),
    ],
    cells(obj) {
      const conds = ((obj as { conditions?: Condition[] }).conditions ?? []).filter((c) => c.type === 'Healthy');
      const healthy = conds.length > 0 && conds.every((c) => c.status === 'True');
      return [obj.metadata.name, healthy ? 'Healthy' : 'Unhealthy', conds.map((c) => c.message ?? '').join(','), conds.map((c) => c.error ?? '').join(',')];
    },
  },
};

/** One part of the control plane: resolves when healthy, rejects with why not. */
export interface ComponentProbe {
  name: string;
  probe(): Promise<void>;
}

/** Probes https://127.0.0.1:<port>/healthz as kube's componentstatus does (no certificate check). */
export function httpsHealthzProbe(name: string, port: number, timeoutMs = 20_000): ComponentProbe {
  const url = `https://127.0.0.1:${port}/healthz`;
  return {
    name,
    probe: () =>
      new Promise<void>((resolve, reject) => {
        const req = request(url, { rejectUnauthorized: false, timeout: timeoutMs }, (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (d: string) => (body += d));
          res.on('end', () => (res.statusCode === 200 && body === 'ok' ? resolve() : reject(new Error(`unhealthy: ${res.statusCode} ${body}`))));
        });
        // Go's wording, which kubectl shows in the MESSAGE column.
        req.on('error', (err: NodeJS.ErrnoException) => {
          const why = err.code === 'ECONNREFUSED' ? `dial tcp 127.0.0.1:${port}: connect: connection refused` : err.message;
          reject(new Error(`Get ${JSON.stringify(url)}: ${why}`));
        });
        req.on('timeout', () => req.destroy(new Error('context deadline exceeded')));
        req.end();
      }),
  };
}

export class ComponentStatusREST implements ReadOnlyREST {
  readonly def = componentStatuses;

  constructor(private readonly probes: () => ComponentProbe[]) {}

  private async statusOf(p: ComponentProbe): Promise<KObject> {
    let cond: Condition;
    try {
      await p.probe();
      cond = { type: 'Healthy', status: 'True', message: 'ok' };
    } catch (err) {
      cond = { type: 'Healthy', status: 'False', message: (err as Error).message };
    }
    return { kind: 'ComponentStatus', apiVersion: 'v1', metadata: { name: p.name, creationTimestamp: null }, conditions: [cond] } as unknown as KObject;
  }

  async get(name: string): Promise<KObject> {
    const p = this.probes().find((x) => x.name === name);
    if (!p) throw notFound({ group: '', resource: 'componentstatus' }, name);
    return this.statusOf(p);
  }

  async list(): Promise<KObject[]> {
    return Promise.all(this.probes().map((p) => this.statusOf(p)));
  }
}
