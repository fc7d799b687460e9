// Events (events.k8s.io/v1): the core/v1 Events in the events.k8s.io shape, as kube serves
// them from the same storage. Writes are validated as kube validates requests of this version
// (the strict rules, most fields immutable), on the core form.

import type { ResourceDef } from '../../types.js';
import { plainStrategy } from '../../plain-strategy.js';
import type { KObject } from '../../../machinery/object.js';
import { nameIsDNSSubdomain } from '../../../machinery/validation/names.js';
import { asObj, str, type Obj } from '../../../machinery/json-view.js';
import { eventToCore, eventToV1 } from '../../core/events/convert.js';
import { EVENT_COLUMNS, eventCells } from '../../core/events/strategy.js';
import { validateEventCreate, validateEventUpdate } from '../../core/events/validation.js';

const strategy = plainStrategy({
  allowCreateOnUpdate: true,
  validate: (obj) => validateEventCreate(eventToCore(obj), 'events.k8s.io/v1'),
  validateUpdate: (obj, old) => validateEventUpdate(eventToCore(obj), eventToCore(old), 'events.k8s.io/v1'),
});

const regarding = (field: string) => (obj: KObject): string => str(asObj((obj as unknown as Obj).regarding)?.[field]);

export const eventsV1: ResourceDef = {
  group: 'events.k8s.io',
  version: 'v1',
  resource: 'events',
  kind: 'Event',
  listKind: 'EventList',
  singularName: 'event',
  shortNames: ['ev'],
  categories: [],
  namespaced: true,
  strategy,
  nameValidator: nameIsDNSSubdomain,
  returnDeletedObject: false,
  garbageCollectionPolicy: 'Unsupported',
  storedAs: { group: '', resource: 'events', toStored: eventToCore, fromStored: eventToV1 },
  fieldLabels: {
    'regarding.kind': regarding('kind'),
    'regarding.namespace': regarding('namespace'),
    'regarding.name': regarding('name'),
    'regarding.uid': regarding('uid'),
    'regarding.apiVersion': regarding('apiVersion'),
    'regarding.resourceVersion': regarding('resourceVersion'),
    'regarding.fieldPath': regarding('fieldPath'),
    reason: (obj) => str((obj as unknown as Obj).reason),
    reportingController: (obj) => str((obj as unknown as Obj).reportingController),
    type: (obj) => str((obj as unknown as Obj).type),
  },
  table: { columns: EVENT_COLUMNS, cells: (obj, now) => eventCells(eventToCore(obj), now) },
};
