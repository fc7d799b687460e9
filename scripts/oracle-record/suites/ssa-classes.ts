// Server-Side Apply and managedFields cases of issue 16, a few per class, written by hand
// to pin down one rule each (the random suite finds the combinations). Every sequence
// cleans up what it created, so sequences do not depend on each other.

import type { RequestSpec, Sequence, Step } from '../format.js';

type Obj = Record<string, unknown>;

const NS = 'default';
const STS = `/apis/apps/v1/namespaces/${NS}/statefulsets`;
const CR = `/apis/apps/v1/namespaces/${NS}/controllerrevisions`;
const APPLY = { 'content-type': 'application/apply-patch+yaml' };
const MERGE = { 'content-type': 'application/merge-patch+json' };
const SMP = { 'content-type': 'application/strategic-merge-patch+json' };

const q = (manager?: string, force?: boolean): string => {
  const p: string[] = [];
  if (manager) p.push(`fieldManager=${manager}`);
  if (force) p.push('force=true');
  return p.length ? `?${p.join('&')}` : '';
};

/** A sequence on one StatefulSet: every write is read back, the object is deleted at the end. */
class Seq {
  readonly steps: Step[] = [];

  constructor(
    readonly name: string,
    readonly obj: string,
    readonly base = STS,
  ) {}

  get path(): string {
    return `${this.base}/${this.obj}`;
  }

  private write(note: string, req: RequestSpec): this {
    this.steps.push({ note, req });
    const w = this.steps.length - 1;
    this.steps.push({ note: 'read', req: { method: 'GET', path: this.path }, checks: w });
    return this;
  }

  /** The index of the latest read (for a read-modify-write). */
  lastRead(): number {
    for (let i = this.steps.length - 1; i >= 0; i--) if (this.steps[i].req.method === 'GET') return i;
    return -1;
  }

  apply(manager: string, body: Obj, force = false, sub = ''): this {
    return this.write(`apply by ${manager}${force ? ' (force)' : ''}${sub ? ` to /${sub}` : ''}`, {
      method: 'PATCH',
      path: `${this.path}${sub ? `/${sub}` : ''}${q(manager, force)}`,
      headers: APPLY,
      body,
    });
  }

  post(manager: string, body: Obj): this {
    return this.write(`POST by ${manager}`, { method: 'POST', path: this.base + q(manager), body });
  }

  merge(manager: string, body: Obj, sub = ''): this {
    return this.write(`merge patch by ${manager}${sub ? ` to /${sub}` : ''}`, { method: 'PATCH', path: `${this.path}${sub ? `/${sub}` : ''}${q(manager)}`, headers: MERGE, body });
  }

  strategic(manager: string, body: Obj): this {
    return this.write(`strategic merge patch by ${manager}`, { method: 'PATCH', path: this.path + q(manager), headers: SMP, body });
  }

  /** PUT of the object as last read, with a merge patch applied. */
  put(manager: string, mergePatch: Obj, sub = ''): this {
    return this.write(`PUT by ${manager}${sub ? ` to /${sub}` : ''}`, {
      method: 'PUT',
      path: `${this.path}${sub ? `/${sub}` : ''}${q(manager)}`,
      bodyFrom: { step: this.lastRead(), mergePatch },
    });
  }

  putScale(manager: string | undefined, replicas: number): this {
    return this.write(`PUT /scale by ${manager ?? 'the user agent'}`, {
      method: 'PUT',
      path: `${this.path}/scale${q(manager)}`,
      body: { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: this.obj, namespace: NS }, spec: { replicas } },
    });
  }

  applyScale(manager: string, replicas: number | undefined, force = false): this {
    const body: Obj = { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: this.obj } };
    if (replicas !== undefined) body.spec = { replicas };
    return this.write(`apply /scale by ${manager}${force ? ' (force)' : ''}`, { method: 'PATCH', path: `${this.path}/scale${q(manager, force)}`, headers: APPLY, body });
  }

  /** Leaves the object untracked: a reset of its managedFields (kube then tracks nothing). */
  untrack(): this {
    return this.merge('resetter', { metadata: { managedFields: [] } });
  }

  done(): Sequence {
    this.steps.push({ note: 'clean up', req: { method: 'DELETE', path: this.path } });
    return { name: this.name, steps: this.steps };
  }
}

// ---- StatefulSet configurations ----

const core = (name: string, containers: Obj[] = [{ name: 'nginx', image: 'nginx:1.27' }]): Obj => ({
  serviceName: name,
  selector: { matchLabels: { app: name } },
  template: { metadata: { labels: { app: name } }, spec: { containers } },
});

const sts = (name: string, spec: Obj = {}, metadata: Obj = {}): Obj => ({
  apiVersion: 'apps/v1',
  kind: 'StatefulSet',
  metadata: { name, ...metadata },
  spec: { ...core(name), ...spec },
});

/** A partial configuration (no selector, template or serviceName). */
const part = (name: string, spec?: Obj, metadata: Obj = {}): Obj => ({
  apiVersion: 'apps/v1',
  kind: 'StatefulSet',
  metadata: { name, ...metadata },
  ...(spec ? { spec } : {}),
});

const containers = (cs: Obj[]): Obj => ({ template: { spec: { containers: cs } } });

// ---- class 20: a field an applier stops applying stays while another manager owns it ----

function class20(): Sequence[] {
  const n = (i: number) => `c20-${i}`;
  return [
    // The issue's example: dave creates with a label, alice applies it and then stops.
    new Seq('20-label-owned-by-creator', n(1)).post('dave', sts(n(1), {}, { labels: { tier: 'x' } })).apply('alice', sts(n(1), {}, { labels: { tier: 'x' } })).apply('alice', sts(n(1))).done(),
    // A container the creator made, shared by an applier that then drops it.
    new Seq('20-container-owned-by-creator', n(2))
      .post('dave', sts(n(2), core(n(2), [{ name: 'nginx', image: 'nginx:1.27' }, { name: 'side', image: 'busybox' }])))
      .apply('alice', sts(n(2), core(n(2), [{ name: 'nginx', image: 'nginx:1.27' }, { name: 'side', image: 'busybox' }])))
      .apply('alice', sts(n(2)))
      .done(),
    // updateStrategy fields set by a merge patch (Update owner) and applied, then dropped.
    new Seq('20-update-strategy-owned-by-patcher', n(3))
      .apply('alice', sts(n(3)))
      .merge('eve', { spec: { updateStrategy: { rollingUpdate: { partition: 2 } } } })
      .apply('alice', sts(n(3), { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 2 } } }))
      .apply('alice', sts(n(3)))
      .done(),
    // Nobody else owns it: dropping removes it (and a defaulted field returns to its default).
    new Seq('20-owned-by-nobody-else', n(4))
      .apply('alice', sts(n(4), { replicas: 3, minReadySeconds: 5 }, { labels: { tier: 'x' } }))
      .apply('alice', sts(n(4)))
      .done(),
    // Another applier owns it: it stays, owned by that applier only.
    new Seq('20-owned-by-another-applier', n(5))
      .apply('alice', sts(n(5), {}, { labels: { tier: 'x', env: 'a' } }))
      .apply('bob', part(n(5), undefined, { labels: { tier: 'x' } }))
      .apply('alice', sts(n(5)))
      .done(),
    // A PUT by an updater after the apply: the updater owns what it changed, and keeps it.
    new Seq('20-put-then-drop', n(6))
      .apply('alice', sts(n(6), { minReadySeconds: 2 }, { annotations: { note: 'a' } }))
      .put('dave', { metadata: { annotations: { note: 'b' } }, spec: { minReadySeconds: 3 } })
      .apply('alice', sts(n(6)))
      .done(),
    // An env entry owned by a strategic patcher survives the applier dropping the container's env.
    new Seq('20-env-owned-by-strategic-patcher', n(7))
      .apply('alice', sts(n(7), core(n(7), [{ name: 'nginx', image: 'nginx:1.27', env: [{ name: 'A', value: '1' }] }])))
      .strategic('frank', { spec: { template: { spec: { containers: [{ name: 'nginx', env: [{ name: 'B', value: '2' }] }] } } } })
      .apply('alice', sts(n(7)))
      .done(),
  ];
}

// ---- class 21: /scale field management ----

function class21(): Sequence[] {
  const n = (i: number) => `c21-${i}`;
  return [
    // A scale write that does not change replicas moves the Update owner's replicas into an entry of its own.
    new Seq('21-same-replicas-moves-owner', n(1)).post('dave', sts(n(1), { replicas: 2 })).putScale('hpa', 2).apply('alice', part(n(1), { replicas: 3 })).done(),
    // Replicas 0: the Scale answers spec {}, and nobody owns replicas afterwards.
    new Seq('21-zero-replicas', n(2)).apply('alice', sts(n(2), { replicas: 2 })).putScale('hpa', 0).putScale('hpa', 1).done(),
    // Conflicts of a Scale apply name autoscaling/v1.
    new Seq('21-apply-conflict-names-autoscaling', n(3)).post('dave', sts(n(3), { replicas: 2 })).applyScale('scaler', 4).applyScale('scaler', 4, true).applyScale('scaler', 4).done(),
    // A new scale owner's entry has no time and sorts first; a main-resource apply then conflicts with it.
    new Seq('21-scale-owner-then-main-apply', n(4))
      .apply('alice', sts(n(4), { replicas: 1 }))
      .merge('hpa', { spec: { replicas: 5 } }, 'scale')
      .apply('alice', sts(n(4), { replicas: 1 }))
      .apply('alice', sts(n(4), { replicas: 1 }), true)
      .done(),
    // An applier of the Scale drops replicas: it is pruned (to 0) when nobody else owns it.
    new Seq('21-scale-applier-drops-replicas', n(5)).apply('alice', sts(n(5))).applyScale('scaler', 3, true).applyScale('scaler', undefined).done(),
    // Scale writes on an object nobody tracks.
    new Seq('21-untracked', n(6)).post('dave', sts(n(6))).untrack().putScale('hpa', 3).applyScale('scaler', 2).done(),
    // The same Update manager through the main resource and /scale.
    new Seq('21-same-manager-both-ways', n(7)).post('dave', sts(n(7), { replicas: 2 })).putScale('dave', 3).merge('dave', { spec: { replicas: 4 } }).putScale('dave', 4).done(),
  ];
}

// ---- class 9: before-first-apply ----

function class9(): Sequence[] {
  const n = (i: number) => `c9-${i}`;
  return [
    // The issue's example: an apply that changes a field of an untracked object conflicts with before-first-apply.
    new Seq('9-conflict', n(1)).post('dave', sts(n(1), { replicas: 2 })).untrack().apply('alice', part(n(1), { replicas: 3 })).apply('alice', part(n(1), { replicas: 3 }), true).done(),
    // The same values: shared with before-first-apply, no conflict.
    new Seq('9-shared', n(2)).post('dave', sts(n(2), {}, { labels: { tier: 'x' } })).untrack().apply('alice', sts(n(2), {}, { labels: { tier: 'x' } })).done(),
    // Through /status.
    new Seq('9-status', n(3))
      .post('dave', sts(n(3)))
      .merge('ctl', { status: { replicas: 1 } }, 'status')
      .untrack()
      .apply('ctl2', { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: n(3) }, status: { replicas: 2 } }, false, 'status')
      .done(),
    // A first apply that changes nothing new: before-first-apply keeps the rest.
    new Seq('9-disjoint', n(4)).post('dave', sts(n(4))).untrack().apply('alice', part(n(4), undefined, { annotations: { a: 'b' } })).done(),
  ];
}

// ---- class 12: managedFields details ----

function class12(): Sequence[] {
  const n = (i: number) => `c12-${i}`;
  const cr = (name: string, data: unknown): Obj => ({ apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name }, data, revision: 1 });
  return [
    // A ControllerRevision's data (a RawExtension) is a leaf.
    new Seq('12-controllerrevision-data', n(1), CR).post('dave', cr(n(1), { a: { b: 1 } })).merge('eve', { metadata: { labels: { a: 'b' } } }).done(),
    new Seq('12-controllerrevision-apply', n(2), CR).apply('alice', cr(n(2), { x: 1 })).apply('bob', cr(n(2), { x: 2 })).done(),
    // managedFields: [] in a patch clears the entries; [{}] too; the next write stays untracked.
    new Seq('12-reset-empty-list', n(3)).post('dave', sts(n(3))).merge('eve', { metadata: { managedFields: [], labels: { a: 'b' } } }).merge('eve', { metadata: { labels: { c: 'd' } } }).done(),
    new Seq('12-reset-empty-entry', n(4)).post('dave', sts(n(4))).merge('eve', { metadata: { managedFields: [{}] } }).done(),
    // An empty ordinals: {} is ordinals {start: 0}, with a "." entry.
    new Seq('12-empty-ordinals', n(5)).post('dave', sts(n(5), { ordinals: {} })).apply('alice', sts(n(5), { ordinals: {} })).done(),
    // The scale entry has no time and sorts first.
    new Seq('12-scale-entry', n(6)).apply('alice', sts(n(6), { replicas: 1 })).putScale('hpa', 2).merge('eve', { metadata: { labels: { a: 'b' } } }).done(),
    // A PUT that sends the managedFields it read keeps them; one that changes them replaces them.
    new Seq('12-put-managed-fields', n(7)).apply('alice', sts(n(7))).put('dave', { spec: { replicas: 2 } }).done(),
  ];
}

// ---- class 23: $patch: delete of an item the target does not have ----

function class23(): Sequence[] {
  const n = (i: number) => `c23-${i}`;
  return [
    new Seq('23-delete-missing-item', n(1)).post('dave', sts(n(1))).strategic('frank', { spec: { template: { spec: { containers: [{ name: 'side', $patch: 'delete' }] } } } }).done(),
    new Seq('23-delete-missing-with-change', n(2))
      .post('dave', sts(n(2)))
      .strategic('frank', { spec: { replicas: 2, template: { spec: { containers: [{ name: 'side', $patch: 'delete' }, { name: 'nginx', image: 'nginx:1.28' }] } } } })
      .done(),
    new Seq('23-delete-from-absent-list', n(3)).post('dave', sts(n(3))).strategic('frank', { spec: { template: { spec: { containers: [{ name: 'nginx', env: [{ name: 'X', $patch: 'delete' }] }] } } } }).done(),
    new Seq('23-delete-present-item', n(4))
      .post('dave', sts(n(4), core(n(4), [{ name: 'nginx', image: 'nginx:1.27' }, { name: 'side', image: 'busybox' }])))
      .strategic('frank', { spec: { template: { spec: { containers: [{ name: 'side', $patch: 'delete' }] } } } })
      .done(),
  ];
}

// ---- class 24: apply reorders a list as structured-merge-diff's merge does ----

function class24(): Sequence[] {
  const n = (i: number) => `c24-${i}`;
  const two = (name: string, order: string[]) =>
    sts(
      name,
      core(
        name,
        order.map((c) => ({ name: c, image: c === 'nginx' ? 'nginx:1.27' : 'busybox' })),
      ),
    );
  return [
    new Seq('24-reorder-by-applier', n(1)).apply('alice', two(n(1), ['nginx', 'sidecar'])).apply('alice', two(n(1), ['sidecar', 'nginx'])).done(),
    new Seq('24-reorder-created-by-post', n(2)).post('dave', two(n(2), ['nginx', 'sidecar'])).apply('alice', two(n(2), ['sidecar', 'nginx'])).done(),
    new Seq('24-second-applier-order', n(3))
      .apply('alice', two(n(3), ['nginx', 'sidecar']))
      .apply('bob', part(n(3), containers([{ name: 'extra', image: 'redis' }, { name: 'nginx', image: 'nginx:1.27' }])))
      .done(),
    new Seq('24-env-order', n(4))
      .apply('alice', sts(n(4), core(n(4), [{ name: 'nginx', image: 'nginx:1.27', env: [{ name: 'A', value: '1' }, { name: 'B', value: '2' }] }])))
      .apply('alice', sts(n(4), core(n(4), [{ name: 'nginx', image: 'nginx:1.27', env: [{ name: 'B', value: '2' }, { name: 'A', value: '1' }] }])))
      .done(),
  ];
}

// ---- class 25: empty structs left after a removal ----

function class25(): Sequence[] {
  const n = (i: number) => `c25-${i}`;
  return [
    new Seq('25-rolling-update-partition', n(1))
      .apply('alice', sts(n(1), { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 2 } } }))
      .apply('bob', part(n(1), { updateStrategy: { rollingUpdate: { partition: 1 } } }), true)
      .apply('alice', sts(n(1)))
      .apply('bob', part(n(1)))
      .done(),
    new Seq('25-drop-whole-strategy', n(2)).apply('alice', sts(n(2), { updateStrategy: { type: 'OnDelete' } })).apply('alice', sts(n(2))).done(),
    new Seq('25-drop-partition-only', n(3))
      .apply('alice', sts(n(3), { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 2 } } }))
      .apply('alice', sts(n(3), { updateStrategy: { type: 'RollingUpdate' } }))
      .done(),
    new Seq('25-retention-policy', n(4))
      .apply('alice', sts(n(4), { persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete', whenScaled: 'Delete' } }))
      .apply('bob', part(n(4), { persistentVolumeClaimRetentionPolicy: { whenScaled: 'Delete' } }))
      .apply('alice', sts(n(4)))
      .done(),
    new Seq('25-resources-limits', n(5))
      .apply('alice', sts(n(5), core(n(5), [{ name: 'nginx', image: 'nginx:1.27', resources: { limits: { cpu: '100m' } } }])))
      .apply('alice', sts(n(5)))
      .done(),
  ];
}

// ---- class 26: conflict messages list owners in kube's order ----

function class26(): Sequence[] {
  const n = (i: number) => `c26-${i}`;
  return [
    new Seq('26-main-status-scale-owners', n(1))
      .post('dave', sts(n(1), { replicas: 2 }, { labels: { tier: 'x' } }))
      .putScale('hpa', 3)
      .merge('ctl', { metadata: { labels: { env: 'a' } } }, 'status')
      .apply('alice', part(n(1), { replicas: 4 }, { labels: { tier: 'y', env: 'b' } }))
      .done(),
    new Seq('26-appliers-and-updaters', n(2))
      .apply('bob', sts(n(2), { minReadySeconds: 1 }, { labels: { b: '1' } }))
      .apply('alice', part(n(2), undefined, { labels: { a: '1' } }))
      .merge('eve', { spec: { replicas: 3 } })
      .applyScale('scaler', 2, true)
      .apply('carol', part(n(2), { replicas: 5, minReadySeconds: 2 }, { labels: { a: '2', b: '2' } }))
      .done(),
  ];
}

// ---- class 22 through SSA: the template's port warnings on writes that leave repeated ports ----

function class22(): Sequence[] {
  const n = (i: number) => `c22-${i}`;
  const dup = (name: string) => core(name, [{ name: 'nginx', image: 'nginx:1.27', ports: [{ containerPort: 80 }, { containerPort: 80, protocol: 'TCP' }] }]);
  return [
    // A POST that repeats a port, then applies on top: the live repeats stay, and every write that changes the spec warns.
    new Seq('22-apply-over-repeated-ports', n(1)).post('dave', sts(n(1), dup(n(1)))).apply('bob', part(n(1), { replicas: 2 })).apply('bob', part(n(1), { replicas: 2 }), true).done(),
    // Across containers, and through /scale (the spec changes, so the template warns again).
    new Seq('22-across-containers-and-scale', n(2))
      .post('dave', sts(n(2), core(n(2), [{ name: 'a', image: 'nginx', ports: [{ containerPort: 8080 }] }, { name: 'b', image: 'nginx', ports: [{ containerPort: 8080 }] }])))
      .merge('hpa', { spec: { replicas: 3 } }, 'scale')
      .merge('eve', { metadata: { labels: { x: 'y' } } })
      .done(),
    // An apply that brings the second definition of a port, next to one a POST made.
    new Seq('22-apply-adds-overlap', n(3))
      .post('dave', sts(n(3), core(n(3), [{ name: 'nginx', image: 'nginx:1.27', ports: [{ containerPort: 80 }] }])))
      .apply('alice', part(n(3), containers([{ name: 'side', image: 'busybox', ports: [{ containerPort: 80, hostPort: 8080 }] }])))
      .done(),
  ];
}

// ---- StatefulSet rules that random sequences meet (classes 2, 3 and 11 of issue 16) ----

function statefulSetRules(): Sequence[] {
  const n = (i: number) => `csts-${i}`;
  return [
    // kube 1.33 does not validate the template's pod spec: no containers, or one without an image, is accepted.
    new Seq('2-template-not-validated', n(1)).apply('alice', sts(n(1), core(n(1), []))).apply('alice', sts(n(1), core(n(1), [{ name: 'c' }]))).done(),
    // revisionHistoryLimit may change; a negative one warns.
    new Seq('3-revision-history-limit', n(2)).apply('alice', sts(n(2), { revisionHistoryLimit: 3 })).apply('alice', sts(n(2), { revisionHistoryLimit: -1 })).apply('alice', sts(n(2), { serviceName: 'other' })).done(),
    // Go's %#v of invalid values.
    new Seq('11-rolling-update-on-delete', n(3))
      .apply('alice', sts(n(3)))
      .merge('eve', { spec: { updateStrategy: { type: 'OnDelete', rollingUpdate: { partition: 1 } } } })
      .apply('alice', part(n(3), { template: { metadata: { labels: null } } }))
      .done(),
    new Seq('11-pdb-both-set', 'cpdb-1', `/apis/policy/v1/namespaces/${NS}/poddisruptionbudgets`)
      .apply('alice', { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'cpdb-1' }, spec: { minAvailable: 1, selector: { matchLabels: { a: 'b' } } } })
      .apply('bob', { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'cpdb-1' }, spec: { maxUnavailable: '10%' } })
      .done(),
  ];
}

export const ssaClasses = {
  name: 'ssa-classes',
  sequences: (): Sequence[] => [...class20(), ...class21(), ...class9(), ...class12(), ...class22(), ...class23(), ...class24(), ...class25(), ...class26(), ...statefulSetRules()],
};
