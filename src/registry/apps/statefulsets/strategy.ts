// StatefulSet (apps/v1), after pkg/registry/apps/statefulset and pkg/apis/apps/validation:
// defaults, the selector/template rules, what may change on update, and /status.

import type { FieldError } from '../../../machinery/errors.js';
import type { ResourceDef, Strategy } from '../../types.js';
import type { KObject } from '../../../machinery/object.js';
import { isEmptySelector, selectorMatches, validateLabelSelector } from '../../../machinery/validation/object-meta.js';
import { GoStringer, nonNegative } from '../../../machinery/validation/field.js';
import { nameIsDNSLabel, validateDNS1123Label } from '../../../machinery/validation/names.js';
import { withNullCreationTimestamp } from '../../../machinery/meta.js';
import { deepEqual, semanticEqual } from '../../../machinery/json-view.js';
import { AGE_COLUMN, NAME_COLUMN, age, column } from '../../printers.js';
import { goPointerValue } from '../../../machinery/go-format.js';
import { addTemplateEmptyStructs } from '../../core/pods/defaults.js';
import { dropDisabledPodSpecFields } from '../../core/pods/disabled-fields.js';
import { validatePodTemplateMeta } from '../../core/pods/pod-spec.js';
import { claimSpecWarnings, podWarnings } from '../../core/pods/warnings.js';
import { selectorString } from '../../generic/selector-string.js';
import { featureEnabled } from '../../../machinery/feature-gates.js';
import { validateIntOrPercent } from '../../policy/poddisruptionbudgets/strategy.js';

interface StsSpec {
  replicas?: number;
  selector?: { matchLabels?: Record<string, string>; matchExpressions?: unknown[] };
  template?: { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> }; spec?: Record<string, unknown> };
  updateStrategy?: { type?: string; rollingUpdate?: { partition?: number; maxUnavailable?: number | string } };
  podManagementPolicy?: string;
  revisionHistoryLimit?: number;
  persistentVolumeClaimRetentionPolicy?: { whenDeleted?: string; whenScaled?: string };
  minReadySeconds?: number;
  ordinals?: { start?: number };
  volumeClaimTemplates?: { metadata?: { name?: string } }[];
  serviceName?: string;
}

const spec = (o: KObject): StsSpec => (o.spec ??= {}) as StsSpec;

const RETENTION = ['Retain', 'Delete'];

/** What the schema's defaults leave: Go's zero values that kube's JSON shows. */
function applyDefaults(obj: KObject): void {
  const s = spec(obj);
  // serviceName has no omitempty in apps/v1: an unset one reads back as "".
  if (s.serviceName === undefined) s.serviceName = '';
  if (s.template) addTemplateEmptyStructs(s.template);
  // Claim templates are whole PersistentVolumeClaims: written in Go's field order, with the
  // embedded metadata's null creationTimestamp.
  const claims = s.volumeClaimTemplates;
  if (claims) for (let i = 0; i < claims.length; i++) claims[i] = claimTemplateInOrder(claims[i] as Record<string, unknown>);
}

const CLAIM_ORDER = ['apiVersion', 'kind', 'metadata', 'spec', 'status'];

function claimTemplateInOrder(t: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of CLAIM_ORDER) if (t[k] !== undefined) out[k] = t[k];
  out.metadata = withNullCreationTimestamp((t.metadata ?? {}) as Record<string, unknown>);
  for (const k in t) if (!(k in out)) out[k] = t[k];
  return out;
}

/**
 * MaxUnavailableStatefulSet is off by default in 1.33: unless it is on (or the old object had
 * it), the field is dropped before validation; so are the template's gated pod fields
 * (pod.DropDisabledTemplateFields).
 */
function dropDisabledFields(obj: KObject, old?: KObject): void {
  const ru = spec(obj).updateStrategy?.rollingUpdate;
  const oldHad = old && (old.spec as StsSpec | undefined)?.updateStrategy?.rollingUpdate?.maxUnavailable !== undefined;
  if (ru && !oldHad && !featureEnabled('MaxUnavailableStatefulSet')) delete ru.maxUnavailable;
  const tspec = spec(obj).template?.spec;
  if (tspec) dropDisabledPodSpecFields(tspec, old ? (old.spec as StsSpec | undefined)?.template?.spec : undefined);
}

/** `serviceNames`: new StatefulSets need a DNS label there; an update tolerates what exists (serviceName is immutable). */
function validateSpec(obj: KObject, serviceNames = true): FieldError[] {
  const s = spec(obj);
  const errs: FieldError[] = [];
  switch (s.podManagementPolicy) {
    case '':
    case undefined:
      errs.push({ type: 'FieldValueRequired', field: 'spec.podManagementPolicy', detail: '' });
      break;
    case 'OrderedReady':
    case 'Parallel':
      break;
    default:
      errs.push({ type: 'FieldValueInvalid', field: 'spec.podManagementPolicy', badValue: s.podManagementPolicy, detail: "must be 'OrderedReady' or 'Parallel'" });
  }
  const us = s.updateStrategy ?? {};
  switch (us.type) {
    case '':
    case undefined:
      errs.push({ type: 'FieldValueRequired', field: 'spec.updateStrategy', detail: '' });
      break;
    case 'OnDelete':
      if (us.rollingUpdate) {
        // Go's %#v of the internal struct.
        const ru = us.rollingUpdate;
        const text = `apps.RollingUpdateStatefulSetStrategy{Partition:${ru.partition ?? 0}, MaxUnavailable:${goPointerValue('intstr.IntOrString', ru.maxUnavailable !== undefined)}}`;
        errs.push({ type: 'FieldValueInvalid', field: 'spec.updateStrategy.rollingUpdate', badValue: new GoStringer(text), detail: "only allowed for updateStrategy 'RollingUpdate'" });
      }
      break;
    case 'RollingUpdate':
      if (us.rollingUpdate) {
        errs.push(...nonNegative(us.rollingUpdate.partition, 'spec.updateStrategy.rollingUpdate.partition'));
        const mu = us.rollingUpdate.maxUnavailable;
        errs.push(...validateIntOrPercent(mu, 'spec.updateStrategy.rollingUpdate.maxUnavailable'));
        if (mu !== undefined && (mu === 0 || mu === '0%')) {
          errs.push({ type: 'FieldValueInvalid', field: 'spec.updateStrategy.rollingUpdate.maxUnavailable', badValue: mu, detail: 'must not be 0' });
        }
      }
      break;
    default:
      errs.push({ type: 'FieldValueInvalid', field: 'spec.updateStrategy', badValue: us, detail: "must be 'RollingUpdate' or 'OnDelete'" });
  }
  const rp = s.persistentVolumeClaimRetentionPolicy;
  if (rp) {
    for (const f of ['whenDeleted', 'whenScaled'] as const) {
      if (!RETENTION.includes(rp[f] ?? '')) {
        errs.push({ type: 'FieldValueNotSupported', field: `spec.persistentVolumeClaimRetentionPolicy.${f}`, badValue: rp[f] ?? '', detail: '', supported: RETENTION });
      }
    }
  }
  errs.push(...nonNegative(s.replicas, 'spec.replicas'));
  errs.push(...nonNegative(s.minReadySeconds, 'spec.minReadySeconds'));
  if (s.ordinals) errs.push(...nonNegative(s.ordinals.start, 'spec.ordinals.start'));
  if (serviceNames && s.serviceName) errs.push(...validateDNS1123Label(s.serviceName, 'spec.serviceName'));
  if (!s.selector) {
    errs.push({ type: 'FieldValueRequired', field: 'spec.selector', detail: '' });
  } else {
    errs.push(...validateLabelSelector(s.selector, 'spec.selector'));
    if (isEmptySelector(s.selector)) {
      errs.push({ type: 'FieldValueInvalid', field: 'spec.selector', badValue: s.selector, detail: 'empty selector is invalid for statefulset' });
    }
  }
  const t = s.template;
  if (!t) {
    errs.push({ type: 'FieldValueRequired', field: 'spec.template', detail: '' });
  } else {
    const labels = t.metadata?.labels;
    // A missing selector matches nothing (so never the template); an empty one is not checked.
    if ((!s.selector || !isEmptySelector(s.selector)) && !selectorMatches(s.selector, labels)) {
      errs.push({ type: 'FieldValueInvalid', field: 'spec.template.metadata.labels', badValue: labels ?? new GoStringer('map[string]string(nil)'), detail: '`selector` does not match template `labels`' });
    }
    // kube 1.33 leaves the template's pod spec and the claim templates unchecked (a TODO in
    // ValidatePodTemplateSpecForStatefulSet): what it accepts is accepted, and a template
    // that cannot make pods shows when the pods are created. Its metadata is checked.
    errs.push(...validatePodTemplateMeta(t, 'spec.template'));
    const restart = t.spec?.restartPolicy;
    if (restart !== 'Always') {
      errs.push({ type: 'FieldValueNotSupported', field: 'spec.template.spec.restartPolicy', badValue: restart ?? '', detail: '', supported: ['Always'] });
    }
    if (t.spec?.activeDeadlineSeconds !== undefined) {
      errs.push({ type: 'FieldValueForbidden', field: 'spec.template.spec.activeDeadlineSeconds', detail: 'activeDeadlineSeconds in StatefulSet is not Supported' });
    }
  }
  return errs;
}

/** GetWarningsForPersistentVolumeClaimSpec of each claim template. */
function claimTemplateWarnings(obj: KObject, specSegment: string): string[] {
  const vcts = (spec(obj) as { volumeClaimTemplates?: { spec?: unknown }[] }).volumeClaimTemplates ?? [];
  return vcts.flatMap((t, i) => claimSpecWarnings(t?.spec, `spec.volumeClaimTemplates[${i}]${specSegment}`));
}

function historyLimitWarnings(obj: KObject): string[] {
  const limit = spec(obj).revisionHistoryLimit;
  return typeof limit === 'number' && limit < 0 ? ['spec.revisionHistoryLimit: a negative value retains all historical revisions; a value >= 0 is recommended'] : [];
}

const MUTABLE = ['replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy', 'minReadySeconds'];

function validateSpecUpdate(obj: KObject, old: KObject): FieldError[] {
  const errs = validateSpec(obj, false);
  const a: Record<string, unknown> = { ...(obj.spec ?? {}) };
  const b: Record<string, unknown> = { ...(old.spec ?? {}) };
  for (const k of MUTABLE) {
    delete a[k];
    delete b[k];
  }
  if (!deepEqual(a, b)) {
    errs.push({
      type: 'FieldValueForbidden',
      field: 'spec',
      detail:
        "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
    });
  }
  return errs;
}

function validateStatus(obj: KObject, old: KObject): FieldError[] {
  const st = (obj.status ?? {}) as Record<string, number | undefined>;
  const errs: FieldError[] = [];
  for (const f of ['replicas', 'readyReplicas', 'currentReplicas', 'updatedReplicas', 'availableReplicas', 'observedGeneration', 'collisionCount']) {
    errs.push(...nonNegative(st[f], `status.${f}`));
  }
  const replicas = st.replicas ?? 0;
  for (const f of ['readyReplicas', 'currentReplicas', 'updatedReplicas', 'availableReplicas']) {
    if ((st[f] ?? 0) > replicas) errs.push({ type: 'FieldValueInvalid', field: `status.${f}`, badValue: st[f] ?? 0, detail: 'cannot be greater than status.replicas' });
  }
  if ((st.availableReplicas ?? 0) > (st.readyReplicas ?? 0)) {
    errs.push({ type: 'FieldValueInvalid', field: 'status.availableReplicas', badValue: st.availableReplicas ?? 0, detail: 'cannot be greater than status.readyReplicas' });
  }
  const oldCount = (old.status as { collisionCount?: number } | undefined)?.collisionCount;
  if (oldCount !== undefined && (st.collisionCount ?? 0) < oldCount) {
    errs.push({ type: 'FieldValueInvalid', field: 'status.collisionCount', badValue: st.collisionCount ?? 0, detail: 'cannot be decremented' });
  }
  return errs;
}

const strategy: Strategy = {
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  tracksGeneration: true,
  applyDefaults,
  prepareForCreate(obj) {
    obj.status = { replicas: 0, availableReplicas: 0 };
    dropDisabledFields(obj);
  },
  prepareForUpdate(obj, old) {
    obj.status = old.status;
    dropDisabledFields(obj, old);
    // Semantic equality, as kube's: an emptied list is no change.
    if (!semanticEqual(obj.spec, old.spec)) obj.metadata.generation = (old.metadata.generation ?? 0) + 1;
  },
  validate: (obj) => validateSpec(obj),
  validateUpdate: validateSpecUpdate,
  warningsOnCreate: (obj) => [...podWarnings(spec(obj).template?.spec, spec(obj).template?.metadata, 'spec.template'), ...claimTemplateWarnings(obj, ''), ...historyLimitWarnings(obj)],
  warningsOnUpdate(obj, old) {
    // kube warns about the template only when the spec changed (the generation moved).
    const tpl = obj.metadata.generation !== old.metadata.generation ? podWarnings(spec(obj).template?.spec, spec(obj).template?.metadata, 'spec.template') : [];
    // kube's update path names the claim's spec `Spec`.
    return [...tpl, ...claimTemplateWarnings(obj, '.Spec'), ...historyLimitWarnings(obj)];
  },
};

const statusStrategy: Strategy = {
  ...strategy,
  applyDefaults: () => undefined,
  // Only spec is carried over: metadata changes through /status are kept, as in kube.
  prepareForUpdate(obj, old) {
    obj.spec = old.spec;
  },
  validateUpdate: validateStatus,
  // kube's status strategy warns about nothing (the spec it keeps was warned about when written).
  warningsOnUpdate: () => [],
};

interface Container {
  name?: string;
  image?: string;
}

export const statefulSets: ResourceDef = {
  group: 'apps',
  version: 'v1',
  resource: 'statefulsets',
  kind: 'StatefulSet',
  listKind: 'StatefulSetList',
  singularName: 'statefulset',
  shortNames: ['sts'],
  categories: ['all'],
  namespaced: true,
  strategy,
  subresources: { status: statusStrategy },
  scale: {
    specReplicas: (obj) => spec(obj).replicas ?? 0,
    setSpecReplicas: (obj, n) => {
      spec(obj).replicas = n;
    },
    statusReplicas: (obj) => ((obj.status ?? {}) as { replicas?: number }).replicas ?? 0,
    selector: (obj) => selectorString(spec(obj).selector),
  },
  nameValidator: nameIsDNSLabel,
  returnDeletedObject: false,
  // apps/v1 deletes dependents in the background (the older versions orphaned them).
  garbageCollectionPolicy: 'DeleteDependents',
  table: {
    columns: [
      NAME_COLUMN,
      column('Ready', 'string', 'Number of the pod with ready state'),
      AGE_COLUMN,
      column('Containers', 'string', 'Names of each container in the template.', 1),
      column('Images', 'string', 'Images referenced by each container in the template.', 1),
    ],
    cells: (obj, now) => {
      const s = spec(obj);
      const st = (obj.status ?? {}) as { readyReplicas?: number };
      const containers = ((s.template?.spec?.containers ?? []) as Container[]);
      return [
        obj.metadata.name,
        `${st.readyReplicas ?? 0}/${s.replicas ?? 0}`,
        age(obj, now),
        containers.map((c) => c.name ?? '').join(','),
        containers.map((c) => c.image ?? '').join(','),
      ];
    },
  },
};
