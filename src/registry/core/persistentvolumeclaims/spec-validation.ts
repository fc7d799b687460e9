// The PersistentVolumeClaim spec rules (ValidatePersistentVolumeClaimSpec) that claims,
// generic ephemeral volumes and StatefulSet claim templates share, with kube 1.33's paths
// and messages (AnyVolumeDataSource is on).

import type { FieldError } from '../../../machinery/errors.js';
import { forbidden, invalid, key, notSupported, required } from '../../../machinery/validation/field.js';
import { isDNS1123Subdomain, validateDNS1123Label, validateDNS1123Subdomain } from '../../../machinery/validation/names.js';
import { validateAnnotations, validateLabelSelector, validateLabels } from '../../../machinery/validation/object-meta.js';
import { OBJECT_META_FIELDS } from '../../../machinery/meta.js';
import { isQtyPositive, qty } from '../../../schema/quantity.js';
import { asArr, asObj, str, type Obj } from '../../../machinery/json-view.js';

const ACCESS_MODES = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];
const VOLUME_MODES = ['Block', 'Filesystem'];

export function validatePersistentVolumeClaimSpec(spec: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const s = asObj(spec) ?? {};
  const modes = asArr(s.accessModes);
  if (modes.length === 0) errs.push(required(`${path}.accessModes`, 'at least 1 access mode is required'));
  if (s.selector !== undefined && s.selector !== null) errs.push(...validateLabelSelector(s.selector, `${path}.selector`));
  let rwop = false;
  let other = false;
  for (const m of modes) {
    if (!ACCESS_MODES.includes(str(m))) errs.push(notSupported(`${path}.accessModes`, m, ACCESS_MODES));
    if (m === 'ReadWriteOncePod') rwop = true;
    else if (ACCESS_MODES.includes(str(m))) other = true;
  }
  if (rwop && other) errs.push(forbidden(`${path}.accessModes`, 'may not use ReadWriteOncePod with other access modes'));
  const requests = asObj(asObj(s.resources)?.requests) ?? {};
  const storagePath = key(`${path}.resources`, 'storage');
  if (!Object.hasOwn(requests, 'storage')) {
    errs.push(required(storagePath));
  } else {
    const q = qty(requests.storage);
    if (q && !isQtyPositive(q)) errs.push(invalid(storagePath, q.canonical, 'must be greater than zero'));
  }
  const sc = s.storageClassName;
  if (typeof sc === 'string' && sc.length > 0) errs.push(...validateDNS1123Subdomain(sc, `${path}.storageClassName`));
  if (s.volumeMode !== undefined && s.volumeMode !== null && !VOLUME_MODES.includes(str(s.volumeMode))) {
    errs.push(notSupported(`${path}.volumeMode`, s.volumeMode, VOLUME_MODES));
  }
  const ds = asObj(s.dataSource);
  const dsr = asObj(s.dataSourceRef);
  if (ds) errs.push(...validateDataSource(ds, `${path}.dataSource`, false));
  if (dsr) errs.push(...validateDataSource(dsr, `${path}.dataSourceRef`, true));
  if (dsr && str(dsr.namespace)) {
    if (ds) errs.push(invalid(path, `${path}.dataSource`, 'may not be specified when dataSourceRef.namespace is specified'));
  } else if (ds && dsr) {
    if ((ds.apiGroup ?? null) !== (dsr.apiGroup ?? null) || ds.kind !== dsr.kind || ds.name !== dsr.name) {
      errs.push(invalid(path, `${path}.dataSource`, 'must match dataSourceRef'));
    }
  }
  return errs;
}

function validateDataSource(d: Obj, path: string, isRef: boolean): FieldError[] {
  const errs: FieldError[] = [];
  if (!str(d.name)) errs.push(required(`${path}.name`));
  if (!str(d.kind)) errs.push(required(`${path}.kind`));
  const group = str(d.apiGroup);
  if (!group && d.kind !== 'PersistentVolumeClaim') {
    errs.push(invalid(path, str(d.kind), "must be 'PersistentVolumeClaim' when referencing the default apiGroup"));
  }
  if (group) errs.push(...isDNS1123Subdomain(group).map((m) => invalid(`${path}.apiGroup`, group, m)));
  if (isRef && str(d.namespace)) errs.push(...validateDNS1123Label(str(d.namespace), `${path}.namespace`));
  return errs;
}

/** A template's metadata may hold labels and annotations only. */
const TEMPLATE_META_FORBIDDEN = OBJECT_META_FIELDS.filter((f) => f !== 'labels' && f !== 'annotations');

/** ValidateTemplateObjectMeta: only labels and annotations may be set. */
function validateTemplateObjectMeta(meta: unknown, path: string): FieldError[] {
  const m = asObj(meta) ?? {};
  const errs = validateAnnotations(m.annotations, `${path}.annotations`);
  errs.push(...validateLabels(m.labels, `${path}.labels`));
  for (const f of TEMPLATE_META_FORBIDDEN) {
    const v = m[f];
    const zero = v === undefined || v === null || v === '' || v === 0 || (Array.isArray(v) && v.length === 0);
    if (!zero) errs.push(forbidden(`${path}.${f}`, 'cannot be set'));
  }
  return errs;
}

export function validatePersistentVolumeClaimTemplate(tpl: unknown, path: string): FieldError[] {
  const t = asObj(tpl) ?? {};
  return [...validateTemplateObjectMeta(t.metadata, `${path}.metadata`), ...validatePersistentVolumeClaimSpec(t.spec, `${path}.spec`)];
}
