// Randomized Server-Side Apply sequences: three appliers (with and without force), updates
// (PUT), merge and strategic merge patches, /status and /scale writes (PUT, merge patch,
// apply of an autoscaling/v1 Scale), mostly on StatefulSets, some on PodDisruptionBudgets
// and PriorityClasses. Every write is followed by a GET of the object, which `checks` it.
// Nobody wrote these sequences by hand: the seed decides.

import type { RequestSpec, Sequence, Step, Suite } from '../format.js';
import { Rand } from '../random.js';

type Obj = Record<string, unknown>;

type RandomStep = Step;

const APPLIERS = ['alice', 'bob', 'carol'];
const APPLY_CT = { 'content-type': 'application/apply-patch+yaml' };
const MERGE_CT = { 'content-type': 'application/merge-patch+json' };
const SMP_CT = { 'content-type': 'application/strategic-merge-patch+json' };

const q = (manager: string | undefined, force?: boolean): string => {
  const p: string[] = [];
  if (manager) p.push(`fieldManager=${manager}`);
  if (force !== undefined) p.push(`force=${force}`);
  return p.length ? `?${p.join('&')}` : '';
};

/** Builds one sequence: writes, each followed by a read of the object. */
class Builder {
  readonly steps: RandomStep[] = [];

  constructor(readonly objectPath: string) {}

  /** The index of the latest read of the object (a read-modify-write starts from it). */
  lastRead = -1;

  write(note: string, req: RequestSpec): void {
    this.steps.push({ note, req });
    const w = this.steps.length - 1;
    this.steps.push({ note: 'read', req: { method: 'GET', path: this.objectPath }, checks: w });
    this.lastRead = this.steps.length - 1;
  }

  read(path: string, note: string): number {
    this.steps.push({ note, req: { method: 'GET', path } });
    return this.steps.length - 1;
  }
}

// ---- StatefulSets ----

const CONTAINERS: Record<string, { images: string[]; ports: Obj[] }> = {
  nginx: { images: ['nginx:1.27', 'nginx:1.28'], ports: [{ containerPort: 80 }, { containerPort: 443, name: 'https' }, { containerPort: 8080, protocol: 'TCP', name: 'http' }] },
  sidecar: { images: ['busybox:1.36', 'busybox:1.37'], ports: [{ containerPort: 9090, name: 'metrics' }, { containerPort: 9091, protocol: 'UDP' }] },
  extra: { images: ['redis:7'], ports: [{ containerPort: 6379 }] },
};

function container(r: Rand, name: string): Obj {
  const c = CONTAINERS[name];
  const out: Obj = { name, image: r.pick(c.images) };
  if (r.chance(0.3)) out.ports = r.some(c.ports, 0.5).slice(0, 2);
  // Now and then a port twice (80 is TCP by default): kube's type converter refuses it.
  if (r.chance(0.004)) out.ports = [...((out.ports as Obj[] | undefined) ?? []), { containerPort: 80 }, { containerPort: 80, protocol: 'TCP' }];
  if (r.chance(0.25)) out.env = r.some([{ name: 'MODE', value: r.pick(['a', 'b']) }, { name: 'LEVEL', value: r.pick(['1', '2']) }], 0.6);
  if (r.chance(0.15)) out.args = r.pick([['--v=1'], ['--v=2', '--x']]);
  if (r.chance(0.15)) out.resources = { limits: { cpu: r.pick(['100m', '200m', '0.5']) } };
  if (r.chance(0.15)) out.imagePullPolicy = r.pick(['Always', 'IfNotPresent']);
  return out;
}

function containers(r: Rand, atLeastOne: boolean): Obj[] {
  let names = r.some(Object.keys(CONTAINERS), 0.45);
  if (names.length === 0 && atLeastOne) names = [r.pick(['nginx', 'sidecar'])];
  return names.map((n) => container(r, n));
}

function updateStrategy(r: Rand): Obj {
  return r.weighted<Obj>([
    [3, { type: 'RollingUpdate' }],
    [3, { type: 'RollingUpdate', rollingUpdate: { partition: r.int(0, 2) } }],
    [2, { rollingUpdate: { partition: r.int(0, 2) } }],
    [2, { type: 'OnDelete' }],
    [1, { rollingUpdate: { maxUnavailable: r.pick([1, '50%']) } }],
  ]);
}

/** The fields every StatefulSet is created with. */
function stsCore(name: string): Obj {
  return { serviceName: name, selector: { matchLabels: { app: name } } };
}

function labels(r: Rand): Obj {
  const out: Obj = {};
  if (r.chance(0.6)) out.tier = r.pick(['x', 'y']);
  if (r.chance(0.4)) out.env = r.pick(['a', 'b']);
  if (r.chance(0.2)) out.team = 't1';
  return out;
}

/**
 * An apply configuration: the applier picks some of the field groups, with random values.
 * `full`: the fields a StatefulSet needs (the creator's applies carry them, mostly).
 */
function stsApplyConfig(r: Rand, name: string, full: boolean): Obj {
  const metadata: Obj = { name };
  const spec: Obj = {};
  if (r.chance(0.45)) metadata.labels = labels(r);
  if (r.chance(0.2)) metadata.annotations = { note: r.pick(['n1', 'n2']) };
  if (full || r.chance(0.1)) Object.assign(spec, stsCore(name));
  if (r.chance(0.45)) spec.replicas = r.int(0, 3);
  const withTemplate = full || r.chance(0.55);
  if (withTemplate) {
    const template: Obj = {};
    if (full || r.chance(0.5)) template.metadata = { labels: { app: name } };
    if (r.chance(0.15)) template.metadata = { ...((template.metadata as Obj) ?? {}), annotations: { t: r.pick(['1', '2']) } };
    template.spec = { containers: containers(r, full) };
    spec.template = template;
  }
  if (r.chance(0.3)) spec.updateStrategy = updateStrategy(r);
  if (r.chance(0.15)) spec.minReadySeconds = r.int(0, 10);
  if (r.chance(0.1)) spec.revisionHistoryLimit = r.int(5, 10);
  if (r.chance(0.1)) spec.ordinals = r.pick([{}, { start: r.int(0, 2) }]);
  if (r.chance(0.1)) spec.persistentVolumeClaimRetentionPolicy = { whenDeleted: r.pick(['Retain', 'Delete']), ...(r.chance(0.5) ? { whenScaled: r.pick(['Retain', 'Delete']) } : {}) };
  if (r.chance(0.04)) spec.podManagementPolicy = r.pick(['OrderedReady', 'Parallel']);
  const out: Obj = { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata };
  if (Object.keys(spec).length || r.chance(0.5)) out.spec = spec;
  return out;
}

/** A merge patch of the kind a client sends (labels set or removed, scalars, whole lists). */
function stsMergePatch(r: Rand): Obj {
  const patch: Obj = {};
  const meta: Obj = {};
  if (r.chance(0.4)) meta.labels = { tier: r.pick(['x', 'z', null]), ...(r.chance(0.3) ? { env: r.pick(['a', null]) } : {}) };
  if (r.chance(0.2)) meta.annotations = { note: r.pick(['n3', null]) };
  if (Object.keys(meta).length) patch.metadata = meta;
  const spec: Obj = {};
  if (r.chance(0.4)) spec.replicas = r.int(0, 4);
  if (r.chance(0.2)) spec.minReadySeconds = r.pick([0, 3, null]);
  if (r.chance(0.25)) spec.updateStrategy = r.pick<Obj>([{ rollingUpdate: { partition: r.int(0, 3) } }, { type: 'OnDelete', rollingUpdate: null }, { rollingUpdate: null }]);
  if (r.chance(0.25)) spec.template = { spec: { containers: containers(r, true) } };
  if (r.chance(0.05)) spec.revisionHistoryLimit = r.int(1, 4);
  if (Object.keys(spec).length || Object.keys(patch).length === 0) patch.spec = spec;
  return patch;
}

/** A strategic merge patch: containers merge by name, with `$patch: delete` now and then. */
function stsStrategicPatch(r: Rand): Obj {
  const patch: Obj = {};
  if (r.chance(0.3)) patch.metadata = { labels: { tier: r.pick(['x', 'w', null]) } };
  const spec: Obj = {};
  if (r.chance(0.3)) spec.replicas = r.int(0, 3);
  const cs: Obj[] = [];
  for (const name of r.some(Object.keys(CONTAINERS), 0.4)) {
    const c = CONTAINERS[name];
    cs.push(
      r.weighted<Obj>([
        [4, { name, image: r.pick(c.images) }],
        [2, { name, $patch: 'delete' }],
        [1, container(r, name)],
      ]),
    );
  }
  if (cs.length) spec.template = { spec: { containers: cs } };
  if (r.chance(0.15)) spec.updateStrategy = { rollingUpdate: { partition: r.int(0, 2) } };
  if (Object.keys(spec).length || !patch.metadata) patch.spec = spec;
  return patch;
}

function statefulSetSequence(r: Rand, name: string, length: number): RandomStep[] {
  const base = `/apis/apps/v1/namespaces/default/statefulsets`;
  const path = `${base}/${name}`;
  const b = new Builder(path);
  // The applier that created the object keeps applying the fields a StatefulSet needs.
  let creator = '';
  if (r.chance(0.6)) {
    const m = r.pick(APPLIERS);
    creator = m;
    b.write(`create: apply by ${m}`, { method: 'PATCH', path: path + q(m), headers: APPLY_CT, body: stsApplyConfig(r, name, true) });
  } else {
    const cfg = stsApplyConfig(r, name, true);
    const manager = r.chance(0.8) ? 'dave' : undefined;
    b.write(`create: POST by ${manager ?? 'the user agent'}`, { method: 'POST', path: base + q(manager), body: cfg });
  }
  for (let i = 0; i < length; i++) {
    const op = r.weighted<string>([
      [10, 'apply'],
      [2, 'put'],
      [2, 'merge'],
      [2, 'strategic'],
      [1, 'status-put'],
      [1, 'status-merge'],
      [1, 'status-apply'],
      [1, 'scale-put'],
      [1, 'scale-merge'],
      [2, 'scale-apply'],
    ]);
    switch (op) {
      case 'apply': {
        const m = r.pick(APPLIERS);
        const force = r.weighted<boolean | undefined>([
          [5, undefined],
          [1, false],
          [3, true],
        ]);
        const full = m === creator ? r.chance(0.9) : r.chance(0.05);
        b.write(`apply by ${m}${force ? ' (force)' : ''}`, { method: 'PATCH', path: path + q(m, force), headers: APPLY_CT, body: stsApplyConfig(r, name, full) });
        break;
      }
      case 'put': {
        const m = r.chance(0.8) ? 'dave' : undefined;
        const patch = stsMergePatch(r);
        b.write(`PUT by ${m ?? 'the user agent'} of the object read last, with ${JSON.stringify(patch)}`, {
          method: 'PUT',
          path: path + q(m),
          bodyFrom: { step: b.lastRead, mergePatch: patch },
        });
        break;
      }
      case 'merge': {
        const m = r.pick(['eve', 'dave']);
        b.write(`merge patch by ${m}`, { method: 'PATCH', path: path + q(m), headers: MERGE_CT, body: stsMergePatch(r) });
        break;
      }
      case 'strategic': {
        const m = r.pick(['frank', 'eve']);
        b.write(`strategic merge patch by ${m}`, { method: 'PATCH', path: path + q(m), headers: SMP_CT, body: stsStrategicPatch(r) });
        break;
      }
      case 'status-put': {
        const replicas = r.int(0, 3);
        b.write('PUT /status by ctl', {
          method: 'PUT',
          path: `${path}/status${q('ctl')}`,
          bodyFrom: { step: b.lastRead, mergePatch: { status: { replicas, readyReplicas: r.int(0, replicas), observedGeneration: r.int(1, 3) } } },
        });
        break;
      }
      case 'status-merge': {
        b.write('merge patch /status by ctl', {
          method: 'PATCH',
          path: `${path}/status${q(r.pick(['ctl', 'ctl2']))}`,
          headers: MERGE_CT,
          body: { status: { replicas: r.int(0, 3), ...(r.chance(0.5) ? { availableReplicas: r.int(0, 1) } : {}) } },
        });
        break;
      }
      case 'status-apply': {
        const m = r.pick(['ctl', 'alice']);
        const force = r.chance(0.5) ? true : undefined;
        b.write(`apply /status by ${m}`, {
          method: 'PATCH',
          path: `${path}/status${q(m, force)}`,
          headers: APPLY_CT,
          body: { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name }, status: { replicas: r.int(0, 3), ...(r.chance(0.4) ? { currentReplicas: r.int(0, 2) } : {}) }, ...(r.chance(0.2) ? { spec: { replicas: 5 } } : {}) },
        });
        break;
      }
      case 'scale-put': {
        const m = r.pick(['hpa', 'dave', undefined]);
        const replicas = r.int(0, 4);
        if (r.chance(0.3)) {
          const read = b.read(`${path}/scale`, 'read /scale');
          b.write(`PUT /scale by ${m ?? 'the user agent'} of the Scale read last`, { method: 'PUT', path: `${path}/scale${q(m)}`, bodyFrom: { step: read, mergePatch: { spec: { replicas } } } });
        } else {
          b.write(`PUT /scale by ${m ?? 'the user agent'}`, {
            method: 'PUT',
            path: `${path}/scale${q(m)}`,
            body: { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name, namespace: 'default' }, spec: { replicas } },
          });
        }
        break;
      }
      case 'scale-merge': {
        const m = r.pick(['hpa', 'eve']);
        b.write(`merge patch /scale by ${m}`, { method: 'PATCH', path: `${path}/scale${q(m)}`, headers: MERGE_CT, body: { spec: { replicas: r.int(0, 4) } } });
        break;
      }
      case 'scale-apply': {
        const m = r.pick(['scaler', 'alice', 'bob', 'hpa']);
        const force = r.weighted<boolean | undefined>([
          [2, undefined],
          [1, true],
        ]);
        const body: Obj = { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name } };
        if (r.chance(0.9)) body.spec = { replicas: r.int(0, 4) };
        b.write(`apply /scale by ${m}${force ? ' (force)' : ''}`, { method: 'PATCH', path: `${path}/scale${q(m, force)}`, headers: APPLY_CT, body });
        break;
      }
    }
  }
  b.steps.push({ note: 'clean up', req: { method: 'DELETE', path } });
  return b.steps;
}

// ---- PodDisruptionBudgets ----

function pdbConfig(r: Rand, name: string, full: boolean): Obj {
  const metadata: Obj = { name };
  if (r.chance(0.4)) metadata.labels = labels(r);
  const spec: Obj = {};
  if (full || r.chance(0.4)) spec.selector = { matchLabels: { app: r.pick([name, 'other']) } };
  const budget = r.weighted<Obj>([
    [3, { minAvailable: r.pick([1, 2, '50%']) }],
    [2, { maxUnavailable: r.pick([1, '25%']) }],
    [1, {}],
  ]);
  if (full || r.chance(0.6)) Object.assign(spec, budget);
  if (r.chance(0.2)) spec.unhealthyPodEvictionPolicy = r.pick(['IfHealthyBudget', 'AlwaysAllow']);
  const out: Obj = { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata };
  if (Object.keys(spec).length) out.spec = spec;
  return out;
}

function pdbSequence(r: Rand, name: string, length: number): RandomStep[] {
  const base = '/apis/policy/v1/namespaces/default/poddisruptionbudgets';
  const path = `${base}/${name}`;
  const b = new Builder(path);
  if (r.chance(0.6)) b.write('create: apply by alice', { method: 'PATCH', path: path + q('alice'), headers: APPLY_CT, body: pdbConfig(r, name, true) });
  else b.write('create: POST by dave', { method: 'POST', path: base + q('dave'), body: pdbConfig(r, name, true) });
  for (let i = 0; i < length; i++) {
    const op = r.weighted<string>([
      [6, 'apply'],
      [2, 'merge'],
      [1, 'put'],
      [2, 'status'],
    ]);
    if (op === 'apply') {
      const m = r.pick(APPLIERS);
      const force = r.chance(0.3) ? true : undefined;
      b.write(`apply by ${m}${force ? ' (force)' : ''}`, { method: 'PATCH', path: path + q(m, force), headers: APPLY_CT, body: pdbConfig(r, name, r.chance(0.2)) });
    } else if (op === 'merge') {
      const patch: Obj = { spec: r.pick<Obj>([{ minAvailable: r.pick([1, 3]), maxUnavailable: null }, { maxUnavailable: '10%', minAvailable: null }, { unhealthyPodEvictionPolicy: 'AlwaysAllow' }]) };
      if (r.chance(0.4)) patch.metadata = { labels: { tier: r.pick(['x', null]) } };
      b.write('merge patch by eve', { method: 'PATCH', path: path + q('eve'), headers: MERGE_CT, body: patch });
    } else if (op === 'put') {
      b.write('PUT by dave of the object read last', { method: 'PUT', path: path + q('dave'), bodyFrom: { step: b.lastRead, mergePatch: { metadata: { labels: { tier: r.pick(['x', 'q']) } } } } });
    } else {
      const status = { currentHealthy: r.int(0, 3), desiredHealthy: r.int(0, 3), disruptionsAllowed: r.int(0, 1), expectedPods: r.int(0, 3), observedGeneration: 1 };
      if (r.chance(0.5)) b.write('PUT /status by ctl', { method: 'PUT', path: `${path}/status${q('ctl')}`, bodyFrom: { step: b.lastRead, mergePatch: { status } } });
      else b.write('merge patch /status by ctl', { method: 'PATCH', path: `${path}/status${q('ctl')}`, headers: MERGE_CT, body: { status } });
    }
  }
  b.steps.push({ note: 'clean up', req: { method: 'DELETE', path } });
  return b.steps;
}

// ---- PriorityClasses ----

function pcConfig(r: Rand, name: string, full: boolean, value: number): Obj {
  const out: Obj = { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name, ...(r.chance(0.4) ? { labels: labels(r) } : {}) } };
  if (full || r.chance(0.5)) out.value = r.chance(0.9) ? value : value + 1;
  if (r.chance(0.4)) out.description = r.pick(['first', 'second']);
  if (r.chance(0.2)) out.preemptionPolicy = r.pick(['PreemptLowerPriority', 'Never']);
  if (r.chance(0.1)) out.globalDefault = false;
  return out;
}

function pcSequence(r: Rand, name: string, length: number): RandomStep[] {
  const path = `/apis/scheduling.k8s.io/v1/priorityclasses/${name}`;
  const b = new Builder(path);
  const value = r.int(100, 1000);
  b.write('create: apply by alice', { method: 'PATCH', path: path + q('alice'), headers: APPLY_CT, body: pcConfig(r, name, true, value) });
  for (let i = 0; i < length; i++) {
    if (r.chance(0.7)) {
      const m = r.pick(APPLIERS);
      const force = r.chance(0.3) ? true : undefined;
      b.write(`apply by ${m}${force ? ' (force)' : ''}`, { method: 'PATCH', path: path + q(m, force), headers: APPLY_CT, body: pcConfig(r, name, false, value) });
    } else if (r.chance(0.5)) {
      b.write('merge patch by eve', { method: 'PATCH', path: path + q('eve'), headers: MERGE_CT, body: { description: r.pick(['third', null]), metadata: { labels: { tier: r.pick(['x', null]) } } } });
    } else {
      b.write('PUT by dave of the object read last', { method: 'PUT', path: path + q('dave'), bodyFrom: { step: b.lastRead, mergePatch: { description: r.pick(['fourth', null]) } } });
    }
  }
  b.steps.push({ note: 'clean up', req: { method: 'DELETE', path } });
  return b.steps;
}

export interface RandomOptions {
  seed: number;
  sequences: number;
  minWrites: number;
  maxWrites: number;
}

export function randomSsaSuite(name: string, o: RandomOptions): Suite {
  return {
    name,
    generator: { ...o },
    gzip: true,
    sequences(): Sequence[] {
      const out: Sequence[] = [];
      for (let i = 0; i < o.sequences; i++) {
        const r = new Rand(o.seed * 100_003 + i);
        const length = r.int(o.minWrites, o.maxWrites) - 1;
        const id = String(i).padStart(4, '0');
        const kind = r.weighted<string>([
          [8, 'sts'],
          [1, 'pdb'],
          [1, 'pc'],
        ]);
        const seqName = `${kind}-${id}`;
        const objName = `r${o.seed}-${kind}-${id}`;
        const steps = kind === 'sts' ? statefulSetSequence(r, objName, length) : kind === 'pdb' ? pdbSequence(r, objName, length) : pcSequence(r, objName, length);
        out.push({ name: seqName, steps });
      }
      return out;
    },
  };
}

export const ssaRandom = randomSsaSuite('ssa-random', { seed: 1, sequences: 200, minWrites: 10, maxWrites: 20 });
