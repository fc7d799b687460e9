// JSON Patch with evanphx/json-patch v4's semantics (what kube-apiserver applies).

import { describe, expect, it } from 'vitest';
import { applyJsonPatch, JsonPatchError } from '../../../src/patch/json-patch.js';

const doc = () => ({ a: { b: [1, 2, 3] }, s: 'x', n: null as null });

describe('applyJsonPatch', () => {
  it('applies operations in order and leaves the input alone', () => {
    const d = doc();
    const out = applyJsonPatch(d, [
      { op: 'add', path: '/a/b/1', value: 9 },
      { op: 'remove', path: '/a/b/0' },
      { op: 'replace', path: '/s', value: 'y' },
      { op: 'copy', from: '/s', path: '/t' },
      { op: 'move', from: '/t', path: '/a/u' },
      { op: 'add', path: '/a/b/-', value: 4 },
      { op: 'test', path: '/a/u', value: 'y' },
    ]);
    expect(out).toEqual({ a: { b: [9, 2, 3, 4], u: 'y' }, s: 'y', n: null });
    expect(d).toEqual(doc());
  });

  it('follows the library where it departs from the RFC', () => {
    // replace of a missing member adds it; test of a missing member against null passes
    expect(applyJsonPatch(doc(), [{ op: 'replace', path: '/z', value: 1 }])).toMatchObject({ z: 1 });
    expect(() => applyJsonPatch(doc(), [{ op: 'test', path: '/missing', value: null }])).not.toThrow();
    expect(() => applyJsonPatch(doc(), [{ op: 'test', path: '/n', value: null }])).not.toThrow();
    // negative indices count from the end
    expect(applyJsonPatch(doc(), [{ op: 'remove', path: '/a/b/-1' }])).toMatchObject({ a: { b: [1, 2] } });
    // escaped keys
    expect(applyJsonPatch({ 'x/y': { '~': 1 } }, [{ op: 'replace', path: '/x~1y/~0', value: 2 }])).toEqual({ 'x/y': { '~': 2 } });
  });

  it('fails on a failing test, missing parents, missing members and bad indices', () => {
    const bad = [
      [{ op: 'test', path: '/s', value: 'nope' }],
      [{ op: 'test', path: '/missing', value: 1 }],
      [{ op: 'add', path: '/no/such', value: 1 }],
      [{ op: 'remove', path: '/nope' }],
      [{ op: 'add', path: '/a/b/5', value: 1 }],
      [{ op: 'replace', path: '/a/b/3', value: 1 }],
      [{ op: 'remove', path: '/a/b/-4' }],
      [{ op: 'frobnicate', path: '/s' }],
      [{ op: 'add', value: 1 }],
      [{ op: 'replace', path: '/s', value: 'ok' }, { op: 'test', path: '/s', value: 'x' }],
    ];
    for (const ops of bad) expect(() => applyJsonPatch(doc(), ops), JSON.stringify(ops)).toThrow(JsonPatchError);
  });
});
