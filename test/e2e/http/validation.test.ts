// Type rules over HTTP, worded as kube-apiserver 1.33 words them: StatefulSet spec
// validation and immutability, PriorityClass value/name/globalDefault rules (the last
// from the Priority admission plugin), and PodDisruptionBudget spec validation.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKapi, stopKapi } from '../../support/server.js';
import {
  NS,
  PC,
  PDB,
  STS,
  expectCode,
  expectFailure,
  expectInvalid,
  http,
  ns,
  pc,
  pdb,
  sts,
  uniq,
  type KapiProcess,
  type Obj,
} from './helpers.js';

let k: KapiProcess;
let NSA: string;

beforeAll(async () => {
  k = await startKapi();
  NSA = uniq('val');
  expectCode(await http(k, 'POST', NS(), ns(NSA)), 201);
});

afterAll(() => stopKapi(k));

const IMMUTABLE_SPEC =
  "Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden";

async function expectNoSts(name: string): Promise<void> {
  expectCode(await http(k, 'GET', STS(NSA, name)), 404);
}

describe('StatefulSet spec', () => {
  it('a missing selector is 422: spec.selector Required, and the template labels no longer match', async () => {
    const name = uniq('nosel');
    const body = sts(name, { app: 'x' });
    delete body.spec.selector;
    const mismatch = 'Invalid value: map[string]string{"app":"x"}: `selector` does not match template `labels`';
    expectInvalid(await http(k, 'POST', STS(NSA), body), {
      kind: 'StatefulSet',
      group: 'apps',
      name,
      message: `StatefulSet.apps "${name}" is invalid: [spec.selector: Required value, spec.template.metadata.labels: ${mismatch}]`,
      causes: [
        { reason: 'FieldValueRequired', field: 'spec.selector', message: 'Required value' },
        { reason: 'FieldValueInvalid', field: 'spec.template.metadata.labels', message: mismatch },
      ],
    });
    await expectNoSts(name);
  });

  it('a selector that does not match the template labels is 422 on spec.template.metadata.labels', async () => {
    const name = uniq('mism');
    const body = sts(name, { app: 'x' });
    body.spec.template.metadata.labels = { app: 'other', tier: 'db' };
    const detail = 'Invalid value: map[string]string{"app":"other", "tier":"db"}: `selector` does not match template `labels`';
    expectInvalid(await http(k, 'POST', STS(NSA), body), {
      kind: 'StatefulSet',
      group: 'apps',
      name,
      message: `StatefulSet.apps "${name}" is invalid: spec.template.metadata.labels: ${detail}`,
      causes: [{ reason: 'FieldValueInvalid', field: 'spec.template.metadata.labels', message: detail }],
    });
    await expectNoSts(name);
  });

  it('an empty selector is 422 on spec.selector', async () => {
    const name = uniq('empty');
    const body = sts(name);
    body.spec.selector = {};
    const r = await http(k, 'POST', STS(NSA), body);
    expect(r.status, r.text).toBe(422);
    const causes = (r.json as Obj).details.causes as Obj[];
    expect(causes).toHaveLength(1);
    expect(causes[0].field).toBe('spec.selector');
    expect(causes[0].reason).toBe('FieldValueInvalid');
    expect(causes[0].message).toMatch(/: empty selector is invalid for statefulset$/);
  });

  it('restartPolicy Never is 422 NotSupported on spec.template.spec.restartPolicy', async () => {
    const name = uniq('never');
    const body = sts(name);
    body.spec.template.spec.restartPolicy = 'Never';
    expectInvalid(await http(k, 'POST', STS(NSA), body), {
      kind: 'StatefulSet',
      group: 'apps',
      name,
      message: `StatefulSet.apps "${name}" is invalid: spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"`,
      causes: [{ reason: 'FieldValueNotSupported', field: 'spec.template.spec.restartPolicy', message: 'Unsupported value: "Never": supported values: "Always"' }],
    });
    await expectNoSts(name);
  });

  it('negative replicas is 422 on spec.replicas', async () => {
    const name = uniq('neg');
    expectInvalid(await http(k, 'POST', STS(NSA), sts(name, { replicas: -1 })), {
      kind: 'StatefulSet',
      group: 'apps',
      name,
      message: `StatefulSet.apps "${name}" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0`,
      causes: [{ reason: 'FieldValueInvalid', field: 'spec.replicas', message: 'Invalid value: -1: must be greater than or equal to 0' }],
    });
  });

  it('an unknown podManagementPolicy is 422', async () => {
    const name = uniq('pmp');
    const body = sts(name);
    body.spec.podManagementPolicy = 'Sometimes';
    expectInvalid(await http(k, 'POST', STS(NSA), body), {
      kind: 'StatefulSet',
      group: 'apps',
      name,
      message: `StatefulSet.apps "${name}" is invalid: spec.podManagementPolicy: Invalid value: "Sometimes": must be 'OrderedReady' or 'Parallel'`,
      causes: [{ reason: 'FieldValueInvalid', field: 'spec.podManagementPolicy', message: `Invalid value: "Sometimes": must be 'OrderedReady' or 'Parallel'` }],
    });
  });

  it('updateStrategy OnDelete is accepted and gets no rollingUpdate default', async () => {
    const name = uniq('ondel');
    const body = sts(name);
    body.spec.updateStrategy = { type: 'OnDelete' };
    body.spec.podManagementPolicy = 'Parallel';
    const o = expectCode(await http(k, 'POST', STS(NSA), body), 201);
    expect(o.spec.updateStrategy).toStrictEqual({ type: 'OnDelete' });
    expect(o.spec.podManagementPolicy).toBe('Parallel');
  });

  it('changing serviceName is 422 Forbidden on spec; the stored object is unchanged', async () => {
    const name = uniq('svc');
    const o = expectCode(await http(k, 'POST', STS(NSA), sts(name)), 201);
    const body = structuredClone(o);
    body.spec.serviceName = 'another';
    expectInvalid(await http(k, 'PUT', STS(NSA, name), body), {
      kind: 'StatefulSet',
      group: 'apps',
      name,
      message: `StatefulSet.apps "${name}" is invalid: spec: ${IMMUTABLE_SPEC}`,
      causes: [{ reason: 'FieldValueForbidden', field: 'spec', message: IMMUTABLE_SPEC }],
    });
    expect(expectCode(await http(k, 'GET', STS(NSA, name)), 200)).toStrictEqual(o);
  });

  it('changing the selector (template relabelled to match) is 422 Forbidden on spec', async () => {
    const name = uniq('sel');
    const o = expectCode(await http(k, 'POST', STS(NSA), sts(name)), 201);
    const body = structuredClone(o);
    body.spec.selector = { matchLabels: { app: 'moved' } };
    body.spec.template.metadata.labels = { app: 'moved' };
    expectInvalid(await http(k, 'PUT', STS(NSA, name), body), {
      kind: 'StatefulSet',
      group: 'apps',
      name,
      message: `StatefulSet.apps "${name}" is invalid: spec: ${IMMUTABLE_SPEC}`,
      causes: [{ reason: 'FieldValueForbidden', field: 'spec', message: IMMUTABLE_SPEC }],
    });
  });

  it('replicas, template, updateStrategy and minReadySeconds may change', async () => {
    const name = uniq('mut');
    const o = expectCode(await http(k, 'POST', STS(NSA), sts(name)), 201);
    const body = structuredClone(o);
    body.spec.replicas = 2;
    body.spec.minReadySeconds = 5;
    body.spec.template.spec.containers[0].image = 'nginx:1.28';
    body.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { partition: 1 } };
    const u = expectCode(await http(k, 'PUT', STS(NSA, name), body), 200);
    expect(u.spec.replicas).toBe(2);
    expect(u.spec.minReadySeconds).toBe(5);
    expect(u.spec.template.spec.containers[0].image).toBe('nginx:1.28');
    expect(u.spec.updateStrategy.rollingUpdate.partition).toBe(1);
    expect(u.metadata.generation).toBe(2);
  });
});

describe('PriorityClass', () => {
  it('a value above 1000000000 is 422 Forbidden on value', async () => {
    const name = uniq('big');
    const msg = 'Forbidden: maximum allowed value of a user defined priority is 1000000000';
    expectInvalid(await http(k, 'POST', PC(), pc(name, 1000000001)), {
      kind: 'PriorityClass',
      group: 'scheduling.k8s.io',
      name,
      message: `PriorityClass.scheduling.k8s.io "${name}" is invalid: value: ${msg}`,
      causes: [{ reason: 'FieldValueForbidden', field: 'value', message: msg }],
    });
    expectCode(await http(k, 'POST', PC(), pc(name, 1000000000)), 201);
  });

  it('changing value is 422 "may not be changed in an update."', async () => {
    const name = uniq('val');
    const o = expectCode(await http(k, 'POST', PC(), pc(name, 10)), 201);
    const body = structuredClone(o);
    body.value = 11;
    expectInvalid(await http(k, 'PUT', PC(name), body), {
      kind: 'PriorityClass',
      group: 'scheduling.k8s.io',
      name,
      message: `PriorityClass.scheduling.k8s.io "${name}" is invalid: value: Forbidden: may not be changed in an update.`,
      causes: [{ reason: 'FieldValueForbidden', field: 'value', message: 'Forbidden: may not be changed in an update.' }],
    });
    expect(expectCode(await http(k, 'GET', PC(name)), 200).value).toBe(10);
  });

  it('changing preemptionPolicy is 422 field is immutable', async () => {
    const name = uniq('pp');
    const o = expectCode(await http(k, 'POST', PC(), pc(name, 10)), 201);
    const body = structuredClone(o);
    body.preemptionPolicy = 'Never';
    expectInvalid(await http(k, 'PUT', PC(name), body), {
      kind: 'PriorityClass',
      group: 'scheduling.k8s.io',
      name,
      message: `PriorityClass.scheduling.k8s.io "${name}" is invalid: preemptionPolicy: Invalid value: "Never": field is immutable`,
      causes: [{ reason: 'FieldValueInvalid', field: 'preemptionPolicy', message: 'Invalid value: "Never": field is immutable' }],
    });
  });

  it('an unknown preemptionPolicy is 422 NotSupported', async () => {
    const name = uniq('ppx');
    const msg = 'Unsupported value: "Sometimes": supported values: "PreemptLowerPriority", "Never"';
    expectInvalid(await http(k, 'POST', PC(), pc(name, 10, { preemptionPolicy: 'Sometimes' })), {
      kind: 'PriorityClass',
      group: 'scheduling.k8s.io',
      name,
      message: `PriorityClass.scheduling.k8s.io "${name}" is invalid: preemptionPolicy: ${msg}`,
      causes: [{ reason: 'FieldValueNotSupported', field: 'preemptionPolicy', message: msg }],
    });
  });

  it('a "system-" name that is not a system class is 422 Forbidden on metadata.name', async () => {
    const msg =
      "Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-foo is not a known system priority class";
    expectInvalid(await http(k, 'POST', PC(), pc('system-foo', 1000)), {
      kind: 'PriorityClass',
      group: 'scheduling.k8s.io',
      name: 'system-foo',
      message: `PriorityClass.scheduling.k8s.io "system-foo" is invalid: metadata.name: ${msg}`,
      causes: [{ reason: 'FieldValueForbidden', field: 'metadata.name', message: msg }],
    });
  });

  describe('globalDefault', () => {
    let first: string;
    beforeAll(async () => {
      first = uniq('first');
      expectCode(await http(k, 'POST', PC(), pc(first, 100, { globalDefault: true })), 201);
    });
    afterAll(async () => {
      expectCode(await http(k, 'DELETE', PC(first)), 200);
    });

    it('a second globalDefault class is 403 Forbidden from the Priority admission plugin', async () => {
      const second = uniq('second');
      expectFailure(await http(k, 'POST', PC(), pc(second, 200, { globalDefault: true })), {
        code: 403,
        reason: 'Forbidden',
        message: `priorityclasses.scheduling.k8s.io "${second}" is forbidden: PriorityClass ${first} is already marked as default. Only one default can exist`,
        details: { name: second, group: 'scheduling.k8s.io', kind: 'priorityclasses' },
      });
      expectCode(await http(k, 'GET', PC(second)), 404);
    });

    it('marking an existing class as default is 403 too; updating the default itself is fine', async () => {
      const other = uniq('other');
      const o = expectCode(await http(k, 'POST', PC(), pc(other, 300)), 201);
      const body = structuredClone(o);
      body.globalDefault = true;
      expectFailure(await http(k, 'PUT', PC(other), body), {
        code: 403,
        reason: 'Forbidden',
        message: `priorityclasses.scheduling.k8s.io "${other}" is forbidden: PriorityClass ${first} is already marked as default. Only one default can exist`,
        details: { name: other, group: 'scheduling.k8s.io', kind: 'priorityclasses' },
      });
      const cur = expectCode(await http(k, 'GET', PC(first)), 200);
      cur.description = 'the default';
      expect(expectCode(await http(k, 'PUT', PC(first), cur), 200).globalDefault).toBe(true);
    });
  });
});

describe('PodDisruptionBudget spec', () => {
  it('minAvailable together with maxUnavailable is 422 on spec', async () => {
    const name = uniq('both');
    const r = await http(k, 'POST', PDB(NSA), pdb(name, { minAvailable: 1, maxUnavailable: 1, selector: { matchLabels: { app: 'x' } } }));
    expect(r.status, r.text).toBe(422);
    const s = r.json as Obj;
    expect(s).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Invalid', code: 422 });
    expect(s.details).toMatchObject({ name, group: 'policy', kind: 'PodDisruptionBudget' });
    expect(s.details.causes).toHaveLength(1);
    expect(s.details.causes[0].field).toBe('spec');
    expect(s.details.causes[0].reason).toBe('FieldValueInvalid');
    expect(s.details.causes[0].message).toMatch(/: minAvailable and maxUnavailable cannot be both set$/);
    expect(s.message.startsWith(`PodDisruptionBudget.policy "${name}" is invalid: spec: Invalid value: `)).toBe(true);
    expectCode(await http(k, 'GET', PDB(NSA, name)), 404);
  });

  it('minAvailable "150%" is 422 on spec.minAvailable', async () => {
    const name = uniq('pct');
    const r = await http(k, 'POST', PDB(NSA), pdb(name, { minAvailable: '150%', selector: { matchLabels: { app: 'x' } } }));
    expect(r.status, r.text).toBe(422);
    const causes = (r.json as Obj).details.causes as Obj[];
    expect(causes).toHaveLength(1);
    expect(causes[0]).toMatchObject({ reason: 'FieldValueInvalid', field: 'spec.minAvailable' });
    expect(causes[0].message).toMatch(/^Invalid value: .*: must not be greater than 100%$/);
  });

  it('a negative maxUnavailable is 422 on spec.maxUnavailable', async () => {
    const name = uniq('negmu');
    expectInvalid(await http(k, 'POST', PDB(NSA), pdb(name, { maxUnavailable: -1, selector: { matchLabels: { app: 'x' } } })), {
      kind: 'PodDisruptionBudget',
      group: 'policy',
      name,
      message: `PodDisruptionBudget.policy "${name}" is invalid: spec.maxUnavailable: Invalid value: -1: must be greater than or equal to 0`,
      causes: [{ reason: 'FieldValueInvalid', field: 'spec.maxUnavailable', message: 'Invalid value: -1: must be greater than or equal to 0' }],
    });
  });

  it('an unknown unhealthyPodEvictionPolicy is 422 NotSupported', async () => {
    const name = uniq('upe');
    const msg = 'Unsupported value: "Sometimes": supported values: "AlwaysAllow", "IfHealthyBudget"';
    expectInvalid(
      await http(k, 'POST', PDB(NSA), pdb(name, { minAvailable: 1, unhealthyPodEvictionPolicy: 'Sometimes', selector: { matchLabels: { app: 'x' } } })),
      {
        kind: 'PodDisruptionBudget',
        group: 'policy',
        name,
        message: `PodDisruptionBudget.policy "${name}" is invalid: spec.unhealthyPodEvictionPolicy: ${msg}`,
        causes: [{ reason: 'FieldValueNotSupported', field: 'spec.unhealthyPodEvictionPolicy', message: msg }],
      },
    );
  });

  it('percentages, an empty selector and spec updates are accepted in policy/v1', async () => {
    const name = uniq('ok');
    const o = expectCode(await http(k, 'POST', PDB(NSA), pdb(name, { maxUnavailable: '25%', selector: {} })), 201);
    expect(o.spec).toStrictEqual({ maxUnavailable: '25%', selector: {} });
    const body = structuredClone(o);
    body.spec = { minAvailable: 2, selector: { matchLabels: { app: 'y' } }, unhealthyPodEvictionPolicy: 'AlwaysAllow' };
    const u = expectCode(await http(k, 'PUT', PDB(NSA, name), body), 200);
    expect(u.spec).toStrictEqual(body.spec);
    expect(u.metadata.generation).toBe(2);
  });
});
