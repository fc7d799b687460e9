// Event validation with kube's paths and messages (pkg/apis/core/validation/events.go), on the
// core/v1 form. Which rules apply depends on the version the request used: core/v1 keeps the
// legacy rules only; events.k8s.io/v1 adds the strict ones and makes most fields immutable.

import type { FieldError } from '../../../machinery/errors.js';
import type { KObject } from '../../../machinery/object.js';
import { invalid, required } from '../../../machinery/validation/field.js';
import { isDNS1123Subdomain, isQualifiedName } from '../../../machinery/validation/names.js';
import { asObj, deepEqual, str, type Obj } from '../../../machinery/json-view.js';
import { goQuote } from '../../../machinery/go-format.js';

export type EventAPI = 'v1' | 'events.k8s.io/v1';

const REPORTING_INSTANCE_MAX = 128;
const ACTION_MAX = 128;
const REASON_MAX = 128;
const NOTE_MAX = 1024;

const isSet = (v: unknown): boolean => v !== undefined && v !== null && v !== '';
const len = (v: unknown): number => Buffer.byteLength(str(v));

/** legacyValidateEvent. */
function legacy(ev: Obj, namespace: string, api: EventAPI): FieldError[] {
  const errs: FieldError[] = [];
  const reportingField = api === 'v1' ? 'reportingComponent' : 'reportingController';
  const involved = asObj(ev.involvedObject) ?? {};
  const involvedNs = str(involved.namespace);
  if (!isSet(ev.eventTime)) {
    if (!involvedNs) {
      if (namespace !== '' && namespace !== 'default') errs.push(invalid('involvedObject.namespace', involvedNs, 'does not match event.namespace'));
    } else if (namespace !== involvedNs) {
      errs.push(invalid('involvedObject.namespace', involvedNs, 'does not match event.namespace'));
    }
  } else {
    if (!involvedNs && namespace !== 'default' && namespace !== 'kube-system') {
      errs.push(invalid('involvedObject.namespace', involvedNs, 'does not match event.namespace'));
    }
    const controller = str(ev.reportingComponent);
    if (!controller) errs.push(required(reportingField));
    for (const m of isQualifiedName(controller)) errs.push(invalid(reportingField, controller, m));
    if (!str(ev.reportingInstance)) errs.push(required('reportingInstance'));
    if (len(ev.reportingInstance) > REPORTING_INSTANCE_MAX) errs.push(invalid('reportingInstance', '', `can have at most ${REPORTING_INSTANCE_MAX} characters`));
    if (!str(ev.action)) errs.push(required('action'));
    if (len(ev.action) > ACTION_MAX) errs.push(invalid('action', '', `can have at most ${ACTION_MAX} characters`));
    if (!str(ev.reason)) errs.push(required('reason'));
    if (len(ev.reason) > REASON_MAX) errs.push(invalid('reason', '', `can have at most ${REASON_MAX} characters`));
    if (len(ev.message) > NOTE_MAX) errs.push(invalid('message', '', `can have at most ${NOTE_MAX} characters`));
  }
  for (const m of isDNS1123Subdomain(namespace)) errs.push(invalid('namespace', namespace, m));
  return errs;
}

function validateSeries(ev: Obj): FieldError[] {
  const series = asObj(ev.series);
  if (!series) return [];
  const errs: FieldError[] = [];
  if (typeof series.count !== 'number' || series.count < 2) errs.push(invalid('series.count', '', 'should be at least 2'));
  if (!isSet(series.lastObservedTime)) errs.push(required('series.lastObservedTime'));
  return errs;
}

/** ValidateEventCreate (the object metadata is checked by the store). */
export function validateEventCreate(obj: KObject, api: EventAPI): FieldError[] {
  const ev = obj as unknown as Obj;
  const errs = legacy(ev, obj.metadata.namespace ?? '', api);
  if (api === 'v1') return errs;
  errs.push(...validateSeries(ev));
  if (!isSet(ev.eventTime)) errs.push(required('eventTime'));
  if (ev.type !== 'Normal' && ev.type !== 'Warning') errs.push(invalid('type', '', `has invalid value: ${str(ev.type)}`));
  if (isSet(ev.firstTimestamp)) errs.push(invalid('firstTimestamp', '', 'needs to be unset'));
  if (isSet(ev.lastTimestamp)) errs.push(invalid('lastTimestamp', '', 'needs to be unset'));
  if (typeof ev.count === 'number' && ev.count !== 0) errs.push(invalid('count', '', 'needs to be unset'));
  const source = asObj(ev.source) ?? {};
  if (str(source.component) || str(source.host)) errs.push(invalid('source', '', 'needs to be unset'));
  return errs;
}

/** MicroTime to the microsecond, as kube compares eventTime on update. */
const toMicros = (v: unknown): string => {
  if (typeof v !== 'string') return '';
  const m = /^(.*?)(?:\.(\d+))?(Z|[+-]\d\d:\d\d)$/.exec(v);
  if (!m) return v;
  const ms = Date.parse(`${m[1]}${m[3]}`);
  return `${ms}.${(m[2] ?? '').padEnd(6, '0').slice(0, 6)}`;
};

/** Go's time.Time String() of a timestamp (the zero time when unset), fractions without trailing zeros. */
function goTime(v: unknown): string {
  const m = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.(\d+))?Z$/.exec(str(v));
  if (!m) return '0001-01-01 00:00:00 +0000 UTC';
  const frac = (m[7] ?? '').replace(/0+$/, '');
  return `${m[1]}-${m[2]}-${m[3]} ${m[4]}:${m[5]}:${m[6]}${frac ? `.${frac}` : ''} +0000 UTC`;
}

/**
 * An immutable field's value as field.Invalid prints the internal Event's: references and the
 * source with %#v of their structs (a nil pointer as null), times through their String().
 */
function goFieldValue(field: string, v: unknown): unknown {
  const q = (x: unknown): string => goQuote(str(x));
  switch (field) {
    case 'involvedObject':
    case 'related': {
      const r = asObj(v);
      // related is a pointer (nil prints as null); involvedObject a struct.
      if (!r) return field === 'related' ? null : { goString: 'core.ObjectReference{Kind:"", Namespace:"", Name:"", UID:"", APIVersion:"", ResourceVersion:"", FieldPath:""}' };
      return { goString: `core.ObjectReference{Kind:${q(r.kind)}, Namespace:${q(r.namespace)}, Name:${q(r.name)}, UID:${q(r.uid)}, APIVersion:${q(r.apiVersion)}, ResourceVersion:${q(r.resourceVersion)}, FieldPath:${q(r.fieldPath)}}` };
    }
    case 'source': {
      const r = asObj(v) ?? {};
      return { goString: `core.EventSource{Component:${q(r.component)}, Host:${q(r.host)}}` };
    }
    case 'firstTimestamp':
    case 'lastTimestamp':
    case 'eventTime':
      return { goString: goTime(v) };
  }
  return v ?? null;
}

/** ValidateEventUpdate. */
export function validateEventUpdate(obj: KObject, old: KObject, api: EventAPI): FieldError[] {
  const ev = obj as unknown as Obj;
  const o = old as unknown as Obj;
  const errs = legacy(ev, obj.metadata.namespace ?? '', api);
  if (api === 'v1') return errs;
  if (!deepEqual(ev.series, o.series)) errs.push(...validateSeries(ev));
  const immutable = (field: string): void => {
    if (!deepEqual(ev[field] ?? null, o[field] ?? null)) errs.push(invalid(field, goFieldValue(field, ev[field]), 'field is immutable'));
  };
  for (const f of ['involvedObject', 'reason', 'message', 'source', 'firstTimestamp', 'lastTimestamp', 'count', 'reason', 'type']) immutable(f);
  if (toMicros(ev.eventTime) !== toMicros(o.eventTime)) immutable('eventTime');
  for (const f of ['action', 'related']) immutable(f);
  if (!deepEqual(ev.reportingComponent ?? '', o.reportingComponent ?? '')) errs.push(invalid('reportingController', ev.reportingComponent ?? '', 'field is immutable'));
  immutable('reportingInstance');
  return errs;
}
