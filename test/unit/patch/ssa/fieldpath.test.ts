// Field paths and sets: element spelling, ordering, set algebra and the FieldsV1 wire form.

import { describe, expect, it } from 'vitest';
import { FieldSet, FieldsV1Error, comparePE, keyPE, pathString, valuePE } from '../../../../src/patch/ssa/fieldpath.js';

const set = (...paths: string[][]) => {
  const s = new FieldSet();
  for (const p of paths) s.insert(p);
  return s;
};

describe('path elements', () => {
  it('spells keys sorted by name with JSON values, and values as JSON', () => {
    expect(keyPE([['protocol', 'TCP'], ['containerPort', 80]])).toBe('k:{"containerPort":80,"protocol":"TCP"}');
    expect(keyPE([['name', 'a"b']])).toBe('k:{"name":"a\\"b"}');
    expect(valuePE('x')).toBe('v:"x"');
    expect(valuePE(3)).toBe('v:3');
  });

  it('orders fields, then keys, then values, then indexes', () => {
    const pes = ['i:1', 'v:"a"', 'k:{"name":"b"}', 'f:z', 'k:{"name":"a"}', 'f:a', 'i:0', 'v:1'];
    expect([...pes].sort(comparePE)).toStrictEqual(['f:a', 'f:z', 'k:{"name":"a"}', 'k:{"name":"b"}', 'v:1', 'v:"a"', 'i:0', 'i:1']);
    // numbers before strings in values and keys; numeric order, not text order
    expect(['k:{"p":10}', 'k:{"p":9}'].sort(comparePE)).toStrictEqual(['k:{"p":9}', 'k:{"p":10}']);
  });

  it('prints paths as kube does in conflicts', () => {
    expect(pathString(['f:spec', 'f:replicas'])).toBe('.spec.replicas');
    expect(pathString(['f:spec', 'f:containers', 'k:{"name":"app"}', 'f:image'])).toBe('.spec.containers[name="app"].image');
    expect(pathString(['f:ports', 'k:{"containerPort":80,"protocol":"TCP"}'])).toBe('.ports[containerPort=80,protocol="TCP"]');
    expect(pathString(['f:finalizers', 'v:"x"'])).toBe('.finalizers[="x"]');
    expect(pathString(['f:args', 'i:2'])).toBe('.args[2]');
  });
});

describe('FieldSet', () => {
  it('serializes to FieldsV1 with "." first where a member has children, elements in order', () => {
    const s = set(['f:spec', 'f:replicas'], ['f:metadata', 'f:labels'], ['f:metadata', 'f:labels', 'f:b'], ['f:metadata', 'f:labels', 'f:a']);
    expect(s.toFieldsV1Json()).toBe('{"f:metadata":{"f:labels":{".":{},"f:a":{},"f:b":{}}},"f:spec":{"f:replicas":{}}}');
    expect(Object.keys(s.toFieldsV1())).toStrictEqual(['f:metadata', 'f:spec']);
  });

  it('round-trips FieldsV1 and re-spells keys canonically', () => {
    const wire = { 'f:spec': { 'f:ports': { 'k:{"protocol":"TCP","containerPort":80}': { '.': {}, 'f:name': {} } } } };
    const s = FieldSet.fromFieldsV1(wire);
    expect(s.has(['f:spec', 'f:ports', 'k:{"containerPort":80,"protocol":"TCP"}'])).toBe(true);
    expect(s.has(['f:spec', 'f:ports', 'k:{"containerPort":80,"protocol":"TCP"}', 'f:name'])).toBe(true);
    expect(s.has(['f:spec', 'f:ports'])).toBe(false);
    expect(s.toFieldsV1()).toStrictEqual({ 'f:spec': { 'f:ports': { 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:name': {} } } } });
  });

  it('refuses malformed FieldsV1', () => {
    expect(() => FieldSet.fromFieldsV1({ 'x:y': {} })).toThrow(FieldsV1Error);
    expect(() => FieldSet.fromFieldsV1({ 'f:a': 1 })).toThrow(FieldsV1Error);
    expect(() => FieldSet.fromFieldsV1([])).toThrow(FieldsV1Error);
    expect(() => FieldSet.fromFieldsV1({ 'k:{nope': {} })).toThrow(FieldsV1Error);
  });

  it('union, difference, intersection, overlap and subset', () => {
    const a = set(['f:a'], ['f:b', 'f:c'], ['f:b', 'f:d']);
    const b = set(['f:b', 'f:c'], ['f:e']);
    expect(a.union(b).toFieldsV1()).toStrictEqual({ 'f:a': {}, 'f:b': { 'f:c': {}, 'f:d': {} }, 'f:e': {} });
    expect(a.difference(b).toFieldsV1()).toStrictEqual({ 'f:a': {}, 'f:b': { 'f:d': {} } });
    expect(a.intersection(b).toFieldsV1()).toStrictEqual({ 'f:b': { 'f:c': {} } });
    expect(a.overlaps(b)).toBe(true);
    expect(a.overlaps(set(['f:b']))).toBe(false);
    expect(set(['f:b', 'f:c']).subsetOf(a)).toBe(true);
    expect(b.subsetOf(a)).toBe(false);
    // difference leaves no empty children behind
    expect(set(['f:x', 'f:y']).difference(set(['f:x', 'f:y'])).isEmpty()).toBe(true);
  });

  it('drops top-level fields with their subtrees', () => {
    const s = set(['f:status', 'f:replicas'], ['f:spec', 'f:replicas'], ['f:status']);
    expect(s.withoutTopLevel(['f:status']).toFieldsV1()).toStrictEqual({ 'f:spec': { 'f:replicas': {} } });
  });

  it('iterates members before children, each in element order', () => {
    const s = set(['f:spec', 'f:replicas'], ['f:a'], ['f:metadata', 'f:labels', 'f:x']);
    const out: string[] = [];
    s.iterate((p) => out.push(pathString(p)));
    expect(out).toStrictEqual(['.a', '.metadata.labels.x', '.spec.replicas']);
  });
});
