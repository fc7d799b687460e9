// The GC finalizer rules DELETE applies (kube's generic store and namespace registry).

import { describe, expect, it } from 'vitest';
import { gcFinalizersOnDelete, namespaceFinalizersOnDelete } from '../../../src/registry/generic/deletion.js';

const obj = (finalizers?: string[]) => ({ metadata: { name: 'x', ...(finalizers ? { finalizers } : {}) } });

describe('gcFinalizersOnDelete', () => {
  it('sets the finalizer a policy asks for and drops the other', () => {
    expect(gcFinalizersOnDelete(obj(), { propagationPolicy: 'Orphan' })).toEqual(['orphan']);
    expect(gcFinalizersOnDelete(obj(['a']), { propagationPolicy: 'Foreground' })).toEqual(['a', 'foregroundDeletion']);
    expect(gcFinalizersOnDelete(obj(['orphan', 'a']), { propagationPolicy: 'Foreground' })).toEqual(['a', 'foregroundDeletion']);
    expect(gcFinalizersOnDelete(obj(['orphan']), { propagationPolicy: 'Background' })).toEqual([]);
    expect(gcFinalizersOnDelete(obj(['a']), { propagationPolicy: 'Background' })).toBeUndefined();
  });

  it('orphanDependents outranks everything; false is background in the generic store', () => {
    expect(gcFinalizersOnDelete(obj(), { orphanDependents: true })).toEqual(['orphan']);
    expect(gcFinalizersOnDelete(obj(['foregroundDeletion']), { orphanDependents: false })).toEqual([]);
  });

  it('without options the object keeps its GC finalizer, else the type default decides', () => {
    expect(gcFinalizersOnDelete(obj(['foregroundDeletion']), {})).toBeUndefined();
    expect(gcFinalizersOnDelete(obj(['orphan']), {})).toBeUndefined();
    expect(gcFinalizersOnDelete(obj(), {})).toBeUndefined();
    expect(gcFinalizersOnDelete(obj(), {}, 'OrphanDependents')).toEqual(['orphan']);
    expect(gcFinalizersOnDelete(obj(), { propagationPolicy: 'Orphan' }, 'Unsupported')).toBeUndefined();
  });
});

describe('namespaceFinalizersOnDelete', () => {
  it('orphanDependents=false asks for foreground; no option keeps what is there', () => {
    expect(namespaceFinalizersOnDelete(obj(), { orphanDependents: false })).toEqual(['foregroundDeletion']);
    expect(namespaceFinalizersOnDelete(obj(['orphan']), {})).toBeUndefined();
    expect(namespaceFinalizersOnDelete(obj(['orphan']), { propagationPolicy: 'Background' })).toEqual([]);
  });
});
