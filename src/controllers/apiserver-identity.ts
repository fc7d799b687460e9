// Each node's identity Lease in kube-system, as kube-apiserver keeps one (its
// "start-kube-apiserver-identity-lease-controller" and "...-garbage-collector" post-start
// hooks): named `apiserver-<hash>`, labelled `apiserver.kubernetes.io/identity=kube-apiserver`,
// renewed every 10 s, and deleted by any node once it has not been renewed for its duration.
// `kubectl get leases -n kube-system` thus lists the nodes of the cluster. Both run on every
// node, not under leader election, as in kube.
//
// kube hashes the host name into the lease name; several kapi nodes may share a host, so the
// node name stands in for it (and fills the `kubernetes.io/hostname` label).

import { createHash, randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { GenericStore } from '../registry/generic/store.js';
import type { KObject } from '../machinery/object.js';
import { StatusError } from '../machinery/errors.js';
import { decodeObject } from '../machinery/stored-bytes.js';
import { microTime } from './leader-election.js';

export const IDENTITY_LABEL = 'apiserver.kubernetes.io/identity';
const HOSTNAME_LABEL = 'kubernetes.io/hostname';
const COMPONENT = 'kube-apiserver';
const NAMESPACE = 'kube-system';
/** kube's IdentityLeaseGCPeriod. */
const MAX_GC_PERIOD_MS = 3_600_000;
/** component-helpers' lease controller: attempts per sync, and the longest back-off. */
const MAX_UPDATE_RETRIES = 5;
const MAX_BACKOFF_MS = 7000;

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

function base32NoPadding(buf: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const b of buf) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

const lengthPrefixed = (s: string): Buffer => {
  const b = Buffer.from(s, 'utf8');
  return Buffer.concat([Buffer.from([b.length >> 8, b.length & 0xff]), b]);
};

/** kube's APIServerID: sha256 of the length-prefixed host name and component, base32, lower case. */
export function apiserverID(host: string): string {
  const hash = createHash('sha256').update(Buffer.concat([lengthPrefixed(host), lengthPrefixed(COMPONENT)])).digest();
  return `apiserver-${base32NoPadding(hash.subarray(0, 16)).toLowerCase()}`;
}

export interface IdentityLeaseOptions {
  nodeName: string;
  durationSeconds: number;
  renewIntervalMs: number;
  log: Logger;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms).unref());

export class APIServerIdentity {
  readonly leaseName: string;
  readonly holderIdentity: string;
  private latest: KObject | null = null;
  private timer?: NodeJS.Timeout;
  private gcTimer?: NodeJS.Timeout;
  private stopped = false;
  private owner = { manager: COMPONENT, subresource: '' };

  constructor(
    private readonly leases: GenericStore,
    private readonly opts: IdentityLeaseOptions,
  ) {
    this.leaseName = apiserverID(opts.nodeName);
    this.holderIdentity = `${this.leaseName}_${randomUUID()}`;
  }

  start(): void {
    const loop = async (): Promise<void> => {
      await this.sync().catch((err: unknown) => this.opts.log.warn({ err: (err as Error).message }, 'identity lease renewal failed'));
      if (this.stopped) return;
      // wait.JitterUntil with a 0.04 jitter.
      this.timer = setTimeout(() => void loop(), this.opts.renewIntervalMs * (1 + Math.random() * 0.04));
      this.timer.unref();
    };
    void loop();
    const gcPeriod = Math.min(MAX_GC_PERIOD_MS, this.opts.durationSeconds * 1000);
    this.gcTimer = setInterval(() => void this.gc().catch(() => undefined), gcPeriod);
    this.gcTimer.unref();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.gcTimer);
  }

  /** The lease with renewTime now; a new one carries this node's holder and duration. */
  private renewed(base: KObject | null): KObject {
    const lease: KObject = base
      ? structuredClone(base)
      : {
          apiVersion: 'coordination.k8s.io/v1',
          kind: 'Lease',
          metadata: { name: this.leaseName, namespace: NAMESPACE },
          spec: { holderIdentity: this.holderIdentity, leaseDurationSeconds: this.opts.durationSeconds },
        };
    const spec = (lease.spec ??= {}) as Record<string, unknown>;
    spec.renewTime = microTime();
    lease.metadata.labels = { ...(lease.metadata.labels ?? {}), [IDENTITY_LABEL]: COMPONENT, [HOSTNAME_LABEL]: this.opts.nodeName };
    return lease;
  }

  private async sync(): Promise<void> {
    if (this.latest && (await this.update(this.latest))) return;
    const { lease, created } = await this.ensure();
    this.latest = lease;
    if (!created && lease) await this.update(lease);
  }

  private async ensure(): Promise<{ lease: KObject | null; created: boolean }> {
    let backoff = 100;
    while (!this.stopped) {
      try {
        try {
          return { lease: decodeObject((await this.leases.get(NAMESPACE, this.leaseName)).bytes), created: false };
        } catch (e) {
          if (!(e instanceof StatusError && e.code === 404)) throw e;
        }
        const out = await this.leases.create(NAMESPACE, this.renewed(null), false, this.owner);
        return { lease: out.obj, created: true };
      } catch (err) {
        backoff = Math.min(2 * backoff, MAX_BACKOFF_MS);
        this.opts.log.debug({ err: (err as Error).message }, 'failed to ensure the identity lease; retrying');
        await sleep(backoff);
      }
    }
    return { lease: null, created: false };
  }

  private async update(base: KObject): Promise<boolean> {
    let current: KObject | null = base;
    for (let i = 0; i < MAX_UPDATE_RETRIES && current && !this.stopped; i++) {
      try {
        this.latest = (await this.leases.update(NAMESPACE, this.leaseName, this.renewed(current), '', false, this.owner)).obj;
        return true;
      } catch (e) {
        if (!(e instanceof StatusError && e.code === 409)) return false;
        current = (await this.ensure()).lease;
      }
    }
    return false;
  }

  /** Deletes identity leases whose holder stopped renewing them (apiserverleasegc). */
  async gc(): Promise<string[]> {
    const deleted: string[] = [];
    const list = await this.leases.list(NAMESPACE, { resourceVersion: '0' });
    for (const item of list.items) {
      const cached = decodeObject(item.bytes);
      if (cached.metadata.labels?.[IDENTITY_LABEL] !== COMPONENT || !expired(cached)) continue;
      const name = cached.metadata.name!;
      try {
        // Read it again before deleting: another node may have renewed it since.
        const fresh = decodeObject((await this.leases.get(NAMESPACE, name)).bytes);
        if (!expired(fresh)) continue;
        await this.leases.delete(NAMESPACE, name, { preconditions: { resourceVersion: fresh.metadata.resourceVersion } });
        deleted.push(name);
      } catch (e) {
        if (!(e instanceof StatusError && (e.code === 404 || e.code === 409))) throw e;
      }
    }
    return deleted;
  }
}

function expired(lease: KObject): boolean {
  const spec = (lease.spec ?? {}) as { renewTime?: string; leaseDurationSeconds?: number };
  if (!spec.renewTime || spec.leaseDurationSeconds === undefined) return true;
  return Date.parse(spec.renewTime) + spec.leaseDurationSeconds * 1000 < Date.now();
}
