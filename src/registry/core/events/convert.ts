// core/v1 Event <-> events.k8s.io/v1 Event: two views of the same stored objects, after kube's
// events/v1 conversion (regarding is involvedObject, note is message, the deprecated* fields
// are source, firstTimestamp, lastTimestamp and count, reportingController is
// reportingComponent). Events are stored in their core/v1 form.

import type { KObject } from '../../../machinery/object.js';
import { SCHEMAS, goRoundTrip } from '../../../schema/types/index.js';

type Obj = Record<string, unknown>;

// [core/v1 name, events.k8s.io/v1 name], in the order each version's Go struct declares them.
const RENAMES: Array<[string, string]> = [
  ['involvedObject', 'regarding'],
  ['message', 'note'],
  ['source', 'deprecatedSource'],
  ['firstTimestamp', 'deprecatedFirstTimestamp'],
  ['lastTimestamp', 'deprecatedLastTimestamp'],
  ['count', 'deprecatedCount'],
  ['reportingComponent', 'reportingController'],
];

const CORE_ORDER = ['involvedObject', 'reason', 'message', 'source', 'firstTimestamp', 'lastTimestamp', 'count', 'type', 'eventTime', 'series', 'action', 'related', 'reportingComponent', 'reportingInstance'];
const V1_ORDER = [
  'eventTime',
  'series',
  'reportingController',
  'reportingInstance',
  'action',
  'reason',
  'regarding',
  'related',
  'note',
  'type',
  'deprecatedSource',
  'deprecatedFirstTimestamp',
  'deprecatedLastTimestamp',
  'deprecatedCount',
];

const TO_V1 = new Map(RENAMES);
const TO_CORE = new Map(RENAMES.map(([a, b]) => [b, a]));

function convert(obj: KObject, apiVersion: string, names: Map<string, string>, order: string[]): KObject {
  const src = obj as unknown as Obj;
  const fields: Obj = {};
  for (const [k, v] of Object.entries(src)) {
    if (k === 'apiVersion' || k === 'kind' || k === 'metadata') continue;
    fields[names.get(k) ?? k] = v;
  }
  const out: Obj = { kind: 'Event', apiVersion, metadata: obj.metadata };
  for (const k of order) if (fields[k] !== undefined) out[k] = fields[k];
  return out as unknown as KObject;
}

/** The events.k8s.io/v1 view of a stored (core/v1) Event, as Go writes one (its omitempty fields). */
export function eventToV1(core: KObject): KObject {
  const out = convert(core, 'events.k8s.io/v1', TO_V1, V1_ORDER);
  goRoundTrip(out, 'io.k8s.api.events.v1.Event', SCHEMAS);
  return out;
}

/** The core/v1 (stored) form of an events.k8s.io/v1 Event. */
export function eventToCore(v1: KObject): KObject {
  const out = convert(v1, 'v1', TO_CORE, CORE_ORDER);
  goRoundTrip(out, 'io.k8s.api.core.v1.Event', SCHEMAS);
  return out;
}
