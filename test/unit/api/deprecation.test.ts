// The deprecation triple of a request to a deprecated API: kube's warning text, the audit
// annotations on the request context, and apiserver_requested_deprecated_apis.

import Koa from 'koa';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { deprecationWarning, isDeprecated, noteDeprecatedRequest } from '../../../src/api/deprecation.js';
import { auditAnnotationsOf } from '../../../src/api/audit-annotations.js';
import { exposition } from '../../../src/machinery/metrics-registry.js';
import { componentStatuses } from '../../../src/registry/core/componentstatuses/strategy.js';
import type { ResourceDef } from '../../../src/registry/types.js';

function context(): Koa.Context {
  const req = new IncomingMessage(new Socket());
  return new Koa().createContext(req, new ServerResponse(req));
}

// A version with a removal release and a replacement, as k8s.io/api states them for
// storagemigration.k8s.io/v1alpha1 (deprecated 1.33, removed 1.36) and
// admissionregistration.k8s.io/v1beta1 ValidatingAdmissionPolicy (1.31, 1.34, use v1).
const svm = { ...componentStatuses, group: 'storagemigration.k8s.io', version: 'v1alpha1', resource: 'storageversionmigrations', kind: 'StorageVersionMigration', lifecycle: { deprecated: [1, 33], removed: [1, 36] } } as ResourceDef;
const vap = {
  ...componentStatuses,
  group: 'admissionregistration.k8s.io',
  version: 'v1beta1',
  resource: 'validatingadmissionpolicies',
  kind: 'ValidatingAdmissionPolicy',
  lifecycle: { deprecated: [1, 31], removed: [1, 34], replacement: { group: 'admissionregistration.k8s.io', version: 'v1', kind: 'ValidatingAdmissionPolicy' } },
} as ResourceDef;

describe('deprecation warnings', () => {
  it('words them as kube\'s deprecation.WarningMessage', () => {
    expect(deprecationWarning(componentStatuses, componentStatuses.lifecycle!)).toBe('v1 ComponentStatus is deprecated in v1.19+');
    expect(deprecationWarning(svm, svm.lifecycle!)).toBe('storagemigration.k8s.io/v1alpha1 StorageVersionMigration is deprecated in v1.33+, unavailable in v1.36+');
    expect(deprecationWarning(vap, vap.lifecycle!)).toBe(
      'admissionregistration.k8s.io/v1beta1 ValidatingAdmissionPolicy is deprecated in v1.31+, unavailable in v1.34+; use admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy',
    );
  });

  it('a version deprecated only after 1.33 is not deprecated yet', () => {
    expect(isDeprecated({ deprecated: [1, 34], removed: [1, 37] })).toBe(false);
    expect(isDeprecated({ deprecated: [1, 33] })).toBe(true);
    expect(isDeprecated(undefined)).toBe(false);
  });
});

describe('a request to a deprecated API', () => {
  it('gets the Warning header, the audit annotations and the gauge', async () => {
    const ctx = context();
    noteDeprecatedRequest(ctx, svm, 'status');
    expect(ctx.response.get('Warning')).toBe('299 - "storagemigration.k8s.io/v1alpha1 StorageVersionMigration is deprecated in v1.33+, unavailable in v1.36+"');
    expect(auditAnnotationsOf(ctx)).toEqual({ 'k8s.io/deprecated': 'true', 'k8s.io/removed-release': '1.36' });
    expect(await exposition()).toContain(
      'apiserver_requested_deprecated_apis{group="storagemigration.k8s.io",version="v1alpha1",resource="storageversionmigrations",subresource="status",removed_release="1.36"} 1',
    );
  });

  it('without a removal release, only k8s.io/deprecated', () => {
    const ctx = context();
    noteDeprecatedRequest(ctx, componentStatuses, '');
    expect(auditAnnotationsOf(ctx)).toEqual({ 'k8s.io/deprecated': 'true' });
  });

  it('a current API gets none of it', () => {
    const ctx = context();
    noteDeprecatedRequest(ctx, { ...componentStatuses, lifecycle: undefined }, '');
    expect(ctx.response.get('Warning')).toBeFalsy();
    expect(auditAnnotationsOf(ctx)).toEqual({});
  });
});
