// The service accounts controller (kube-controller-manager's serviceaccount-controller): every
// active namespace has a `default` ServiceAccount. It is created when a namespace appears (and
// for every namespace at start), and again when it is deleted while its namespace lives. It
// writes through the registry's store as any client, with kube-controller-manager's manager.

import type { Logger } from 'pino';
import type { GenericStore } from '../registry/generic/store.js';
import type { CacheEvent } from '../cache/watch-cache.js';
import { decodeObject } from '../machinery/stored-bytes.js';
import { StatusError } from '../machinery/errors.js';
import type { Controller, ControllerContext } from './manager.js';

export const DEFAULT_SERVICE_ACCOUNT = 'default';
const MANAGER = { manager: 'kube-controller-manager', subresource: '' };

export class ServiceAccountsController implements Controller {
  private readonly unsubscribe: (() => void)[] = [];
  private stopped = false;
  private readonly pending = new Set<string>();

  constructor(
    private readonly namespaces: GenericStore,
    private readonly serviceAccounts: GenericStore,
    private readonly log: Logger,
    private readonly ctx: Pick<ControllerContext, 'leading'> = { leading: () => true },
  ) {}

  /** Follows changes, and sees to every namespace there is now. */
  start(): void {
    this.unsubscribe.push(
      this.namespaces.cache.subscribe((evs) => evs.forEach((e) => this.onNamespace(e))),
      this.serviceAccounts.cache.subscribe((evs) => evs.forEach((e) => this.onServiceAccount(e))),
    );
    const names = this.namespaces.cache.list(this.namespaces.prefix).map((e) => decodeObject(e.bytes).metadata.name!);
    for (const n of names) void this.ensure(n);
  }

  stop(): void {
    this.stopped = true;
    for (const u of this.unsubscribe) u();
  }

  private onNamespace(e: CacheEvent): void {
    if (e.type === 'DELETED') return;
    void this.ensure(decodeObject(e.entry.bytes).metadata.name!);
  }

  private onServiceAccount(e: CacheEvent): void {
    if (e.type !== 'DELETED') return;
    const sa = decodeObject(e.entry.bytes);
    if (sa.metadata.name === DEFAULT_SERVICE_ACCOUNT) void this.ensure(sa.metadata.namespace!);
  }

  private async ensure(namespace: string): Promise<void> {
    // Only the leading node writes (the controller manager stops this one when it stops leading).
    if (this.stopped || !this.ctx.leading() || this.pending.has(namespace)) return;
    const nsEntry = this.namespaces.cache.get(this.namespaces.keyFor('', namespace));
    if (!nsEntry) return;
    const ns = decodeObject(nsEntry.bytes);
    if (ns.metadata.deletionTimestamp) return;
    if (this.serviceAccounts.cache.get(this.serviceAccounts.keyFor(namespace, DEFAULT_SERVICE_ACCOUNT))) return;
    this.pending.add(namespace);
    try {
      await this.serviceAccounts.create(namespace, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: DEFAULT_SERVICE_ACCOUNT } }, false, MANAGER);
    } catch (e) {
      // Made elsewhere already, or the namespace is going away (or gone): nothing to do.
      const known = e instanceof StatusError && (e.code === 409 || e.code === 403 || e.code === 404);
      if (!known) {
        this.log.warn({ namespace, err: (e as Error).message }, 'could not create the default service account; will retry');
        if (!this.stopped) setTimeout(() => void this.ensure(namespace), 1000).unref();
      }
    } finally {
      this.pending.delete(namespace);
    }
  }
}
