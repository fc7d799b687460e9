// The served types as patch targets: where each lives, a minimal valid object, and (for
// types with /status) a status field a patch may set and how to read it back.

import { NS, PC, PDB, STS, ns, pc, pdb, sts, type Obj } from './helpers.js';

export interface PatchTarget {
  kind: string;
  path: (namespace: string, name?: string) => string;
  make: (name: string) => Obj;
  /** A status field /status accepts (JSON pointer, value). */
  status?: { pointer: string; value: unknown };
}

const POD = (n: string, name = '') => `/api/v1/namespaces/${n}/pods${name ? '/' + name : ''}`;
const PVC = (n: string, name = '') => `/api/v1/namespaces/${n}/persistentvolumeclaims${name ? '/' + name : ''}`;
const CR = (n: string, name = '') => `/apis/apps/v1/namespaces/${n}/controllerrevisions${name ? '/' + name : ''}`;

export const TARGETS: PatchTarget[] = [
  { kind: 'StatefulSet', path: STS, make: (n) => sts(n, { replicas: 1 }), status: { pointer: '/status/collisionCount', value: 2 } },
  { kind: 'PodDisruptionBudget', path: PDB, make: (n) => pdb(n), status: { pointer: '/status/expectedPods', value: 3 } },
  { kind: 'PriorityClass', path: (_ns, name = '') => PC(name), make: (n) => pc(n, 77) },
  { kind: 'Namespace', path: (_ns, name = '') => NS(name), make: (n) => ns(n), status: { pointer: '/status/phase', value: 'Active' } },
  {
    kind: 'Pod',
    path: POD,
    make: (n) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: n }, spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] } }),
    status: { pointer: '/status/message', value: 'patched' },
  },
  {
    kind: 'PersistentVolumeClaim',
    path: PVC,
    make: (n) => ({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: n }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }),
    status: { pointer: '/status/phase', value: 'Lost' },
  },
  { kind: 'ControllerRevision', path: CR, make: (n) => ({ apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name: n }, data: { x: 1 }, revision: 1 }) },
];

/** Reads a JSON pointer of a decoded object. */
export function at(obj: Obj, pointer: string): unknown {
  return pointer
    .split('/')
    .slice(1)
    .reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Obj)[k] : undefined), obj);
}

/** A merge-patch/SMP body that sets `pointer` to `value`. */
export function nested(pointer: string, value: unknown): Obj {
  const keys = pointer.split('/').slice(1);
  let out: unknown = value;
  for (const k of keys.reverse()) out = { [k]: out };
  return out as Obj;
}
