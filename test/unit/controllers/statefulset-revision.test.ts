// A StatefulSet's ControllerRevision name and data as kube's controller makes them: the pod
// template (as stored, defaults and all, with creationTimestamp: null) marshalled as Go's
// encoding/json does, wrapped as {"spec":{"template":{..., "$patch":"replace"}}}, hashed with
// FNV-32 and the collision count, then safe-encoded. The expected hashes were computed by a Go
// program with k8s.io/api v0.33.0 over the same stored sets (`kubectl get sts -o json`), so
// kubectl rollout history/undo and kube's controller agree with kapi's names.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { KObject } from '../../../src/machinery/object.js';
import { hashRevision, newRevision, templatePatch } from '../../../src/controllers/statefulset/utils.js';

const fixture = (name: string): KObject => JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', 'statefulset-revisions', `${name}.json`), 'utf8')) as KObject;

describe('StatefulSet revision hash', () => {
  it('matches kube for the canonical web set and for a template with escapes, quantities and probes', () => {
    expect(hashRevision(templatePatch(fixture('web')), 0)).toBe('7757fc6447');
    expect(hashRevision(templatePatch(fixture('complex')), 0)).toBe('6f67d786d8');
  });

  it('changes with the collision count, and names the revision <set>-<hash> with the hash label', () => {
    const set = { ...fixture('web'), metadata: { name: 'web', namespace: 'default', uid: 'u1' } } as KObject;
    expect(hashRevision(templatePatch(set), 1)).not.toBe('7757fc6447');
    const rev = newRevision(set, 3, 0);
    expect(rev.metadata.name).toBe('web-7757fc6447');
    expect(rev.metadata.labels).toEqual({ app: 'nginx', 'controller.kubernetes.io/hash': '7757fc6447' });
    expect(rev.revision).toBe(3);
    expect(JSON.stringify(rev.data)).toBe(templatePatch(set));
    expect(templatePatch(set)).toMatch(/^\{"spec":\{"template":\{"\$patch":"replace","metadata":\{"creationTimestamp":null,/);
  });
});
