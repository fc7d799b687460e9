// Namespaces: cluster-scoped, DNS-label names, phase Active until deleted, and the
// "kubernetes" finalizer in spec that the namespace controller removes once the
// namespace is empty (after pkg/registry/core/namespace).

import { conflict, type FieldError } from '../../../machinery/errors.js';
import type { ResourceDef, Strategy } from '../../types.js';
import type { KObject } from '../../../machinery/object.js';
import { nameIsDNSLabel, isQualifiedName } from '../../../machinery/validation/names.js';
import { AGE_COLUMN, NAME_COLUMN, age, column } from '../../printers.js';

export const NAME_LABEL = 'kubernetes.io/metadata.name';
export const KUBERNETES_FINALIZER = 'kubernetes';

interface NamespaceSpec {
  finalizers?: string[];
}
interface NamespaceStatus {
  phase?: string;
  conditions?: unknown[];
}

const spec = (o: KObject): NamespaceSpec => (o.spec ??= {}) as NamespaceSpec;
const status = (o: KObject): NamespaceStatus => (o.status ??= {}) as NamespaceStatus;

/** The name label is always the namespace's name, whatever the caller sent. */
function setNameLabel(obj: KObject): void {
  obj.metadata.labels = { ...(obj.metadata.labels ?? {}), [NAME_LABEL]: obj.metadata.name ?? '' };
}

function validateFinalizers(obj: KObject): FieldError[] {
  const errs: FieldError[] = [];
  (spec(obj).finalizers ?? []).forEach((f, i) => {
    const msgs = isQualifiedName(f);
    // Standard finalizer names (no domain) must be the well-known ones, as kube requires.
    if (!f.includes('/') && f !== KUBERNETES_FINALIZER) {
      msgs.push('name is neither a standard finalizer name nor is it fully qualified');
    }
    for (const m of msgs) errs.push({ type: 'FieldValueInvalid', field: `spec.finalizers[${i}]`, badValue: f, detail: m });
  });
  return errs;
}

export const namespaceStrategy: Strategy = {
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  tracksGeneration: false,
  // The kubernetes finalizer is the strategy's (PrepareForCreate), not a default: the creator
  // does not own it.
  applyDefaults: () => undefined,
  canonicalize: setNameLabel,
  prepareForCreate(obj) {
    obj.status = { phase: 'Active' };
    const s = spec(obj);
    if (!s.finalizers?.includes(KUBERNETES_FINALIZER)) s.finalizers = [...(s.finalizers ?? []), KUBERNETES_FINALIZER];
  },
  prepareForUpdate(obj, old) {
    // spec.finalizers change only through /finalize, status only through /status.
    obj.spec = old.spec;
    obj.status = old.status;
  },
  validate: (obj) => validateFinalizers(obj),
  validateUpdate: (obj) => validateFinalizers(obj),
};

const statusStrategy: Strategy = {
  ...namespaceStrategy,
  applyDefaults: () => undefined,
  prepareForUpdate(obj, old) {
    obj.spec = old.spec;
  },
  validateUpdate(obj) {
    const phase = status(obj).phase;
    if (phase !== undefined && phase !== 'Active' && phase !== 'Terminating') {
      return [{ type: 'FieldValueNotSupported', field: 'status.phase', badValue: phase, detail: '', supported: ['Active', 'Terminating'] }];
    }
    return [];
  },
};

const finalizeStrategy: Strategy = {
  ...namespaceStrategy,
  applyDefaults: () => undefined,
  prepareForUpdate(obj, old) {
    // Only spec.finalizers may change here.
    const finalizers = spec(obj).finalizers;
    obj.spec = { ...(old.spec ?? {}), finalizers };
    obj.status = old.status;
  },
};

const IMMORTAL = new Set(['default', 'kube-system', 'kube-public']);

export const namespaces: ResourceDef = {
  group: '',
  version: 'v1',
  resource: 'namespaces',
  kind: 'Namespace',
  listKind: 'NamespaceList',
  singularName: 'namespace',
  shortNames: ['ns'],
  categories: [],
  namespaced: false,
  verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
  strategy: namespaceStrategy,
  subresources: { status: statusStrategy, finalize: finalizeStrategy },
  nameValidator: nameIsDNSLabel,
  // kube's namespace field label conversion: metadata.name and status.phase.
  fieldLabels: { 'status.phase': (obj) => status(obj).phase ?? '' },
  returnDeletedObject: true,
  pendingTypeFinalizers: (obj) => (spec(obj).finalizers?.length ?? 0) > 0,
  ownDeletion: true,
  // NamespaceLifecycle admission's immortal namespaces (kube-node-lease is not among them).
  deleteForbidden: (name) => (IMMORTAL.has(name) ? 'this namespace may not be deleted' : undefined),
  prepareForDelete(obj, alreadyMarked) {
    if (alreadyMarked && (spec(obj).finalizers?.length ?? 0) > 0) {
      throw conflict(
        { group: '', resource: 'namespaces' },
        obj.metadata.name ?? '',
        'The system is ensuring all content is removed from this namespace.  Upon completion, this namespace will automatically be purged by the system.',
      );
    }
    status(obj).phase = 'Terminating';
  },
  table: {
    columns: [NAME_COLUMN, column('Status', 'string', 'The status of the namespace'), AGE_COLUMN],
    cells: (obj, now) => [obj.metadata.name, status(obj).phase ?? '', age(obj, now)],
  },
  bootstrap: ['default', 'kube-system', 'kube-public', 'kube-node-lease'].map((name) => ({
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name },
  })),
};
