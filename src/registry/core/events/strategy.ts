// Events (core/v1), after pkg/registry/core/event: no status, create-on-update allowed, no
// garbage-collection finalizers, names only need to be path segments. The events.k8s.io/v1
// resource serves the same objects in its own shape (../../events/events/strategy.ts).

import type { ResourceDef, TableColumn } from '../../types.js';
import { plainStrategy } from '../../plain-strategy.js';
import type { KObject } from '../../../machinery/object.js';
import { nameIsPathSegment } from '../../../machinery/validation/name-validators.js';
import { asObj, str, type Obj } from '../../../machinery/json-view.js';
import { NAME_COLUMN, column, humanDuration } from '../../printers.js';
import { validateEventCreate, validateEventUpdate } from './validation.js';

const strategy = plainStrategy({
  allowCreateOnUpdate: true,
  validate: (obj) => validateEventCreate(obj, 'v1'),
  validateUpdate: (obj, old) => validateEventUpdate(obj, old, 'v1'),
});

const since = (ts: unknown, now: Date): string => (typeof ts === 'string' && ts ? humanDuration(now.getTime() - Date.parse(ts)) : '<unknown>');

/** printEvent (wide, as the server prints tables), on the core/v1 form. */
export function eventCells(obj: KObject, now: Date): unknown[] {
  const ev = obj as unknown as Obj;
  let first = since(ev.firstTimestamp, now);
  if (!ev.firstTimestamp) first = since(ev.eventTime, now);
  let last = since(ev.lastTimestamp, now);
  if (!ev.lastTimestamp) last = first;
  let count = typeof ev.count === 'number' ? ev.count : 0;
  const series = asObj(ev.series);
  if (series) {
    last = since(series.lastObservedTime, now);
    count = typeof series.count === 'number' ? series.count : 0;
  } else if (count === 0) {
    count = 1;
  }
  const involved = asObj(ev.involvedObject) ?? {};
  const kind = str(involved.kind).toLowerCase();
  const target = str(involved.name) ? `${kind}/${str(involved.name)}` : kind;
  const source = asObj(ev.source) ?? {};
  const component = str(source.component) || str(ev.reportingComponent);
  const instance = str(source.host) || str(ev.reportingInstance);
  return [last, str(ev.type), str(ev.reason), target, str(involved.fieldPath), instance ? `${component}, ${instance}` : component, str(ev.message).trim(), first, count, obj.metadata.name];
}

export const EVENT_COLUMNS: TableColumn[] = [
  column('Last Seen', 'string', 'The time at which the most recent occurrence of this event was recorded.'),
  column('Type', 'string', 'Type of this event (Normal, Warning), new types could be added in the future'),
  column('Reason', 'string', "This should be a short, machine understandable string that gives the reason for the transition into the object's current status."),
  column('Object', 'string', 'The object that this event is about.'),
  column(
    'Subobject',
    'string',
    'If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement, such as desiredState.manifest.containers[2]. For example, if the object reference is to a container within a pod, this would take on a value like: "spec.containers{name}" (where "name" refers to the name of the container that triggered the event) or if no container name is specified "spec.containers[2]" (container with index 2 in this pod). This syntax is chosen only to have some well-defined way of referencing a part of an object.',
    1,
  ),
  column('Source', 'string', 'The component reporting this event. Should be a short machine understandable string.', 1),
  column('Message', 'string', 'A human-readable description of the status of this operation.'),
  column('First Seen', 'string', 'The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)', 1),
  column('Count', 'string', 'The number of times this event has occurred.', 1),
  { ...NAME_COLUMN, priority: 1 },
];

const involved = (field: string) => (obj: KObject): string => str(asObj((obj as unknown as Obj).involvedObject)?.[field]);

export const events: ResourceDef = {
  group: '',
  version: 'v1',
  resource: 'events',
  kind: 'Event',
  listKind: 'EventList',
  singularName: 'event',
  shortNames: ['ev'],
  categories: [],
  namespaced: true,
  strategy,
  nameValidator: nameIsPathSegment,
  returnDeletedObject: false,
  garbageCollectionPolicy: 'Unsupported',
  fieldLabels: {
    'involvedObject.kind': involved('kind'),
    'involvedObject.namespace': involved('namespace'),
    'involvedObject.name': involved('name'),
    'involvedObject.uid': involved('uid'),
    'involvedObject.apiVersion': involved('apiVersion'),
    'involvedObject.resourceVersion': involved('resourceVersion'),
    'involvedObject.fieldPath': involved('fieldPath'),
    reason: (obj) => str((obj as unknown as Obj).reason),
    reportingComponent: (obj) => str((obj as unknown as Obj).reportingComponent),
    source: (obj) => str(asObj((obj as unknown as Obj).source)?.component) || str((obj as unknown as Obj).reportingComponent),
    type: (obj) => str((obj as unknown as Obj).type),
  },
  table: { columns: EVENT_COLUMNS, cells: eventCells },
};
