// How controllers write: through the registry's store verbs, as any API client does (the same
// defaults, admission, validation and managedFields), under the field manager kube's
// controllers write as (the user agent "kube-controller-manager/<version> ... /<controller>"
// makes every one of them "kube-controller-manager"), and only while this node leads: every
// write checks leadership first, so a node that lost the lease cannot act on a stale belief.

import type { GenericStore, DeleteOptions, DeleteResult } from '../../registry/generic/store.js';
import type { KObject } from '../../machinery/object.js';
import { NotLeadingError } from './leading.js';
import { TokenBucket } from '../../client/token-bucket.js';

export const CONTROLLER_MANAGER = 'kube-controller-manager';

/**
 * kube-controller-manager's --kube-api-qps and --kube-api-burst defaults: each controller's
 * client is held to them, as client-go's rate limiter holds it. Besides matching kube's pace,
 * this keeps a controller from spending the API server's whole CPU (a Parallel StatefulSet of
 * 2^31-1 replicas would otherwise create pods as fast as the node can).
 */
export const CONTROLLER_QPS = 20;
export const CONTROLLER_BURST = 30;

export interface StoreLookup {
  storeFor(group: string, resource: string): GenericStore | undefined;
  /** Every served resource's store. */
  stores?(): GenericStore[];
}

export class ControllerClient {
  private readonly limiter = new TokenBucket(CONTROLLER_QPS, CONTROLLER_BURST);

  constructor(
    private readonly lookup: StoreLookup,
    private readonly leading: () => boolean,
    readonly manager = CONTROLLER_MANAGER,
  ) {}

  store(group: string, resource: string): GenericStore {
    const s = this.lookup.storeFor(group, resource);
    if (!s) throw new Error(`no store for ${resource}.${group}`);
    return s;
  }

  /** Every served resource's store. */
  stores(): GenericStore[] {
    return this.lookup.stores?.() ?? [];
  }

  private check(): void {
    if (!this.leading()) throw new NotLeadingError();
  }

  /** A write's turn: its token, then leadership checked (which may have changed meanwhile). */
  private async admit(): Promise<void> {
    await this.limiter.acquire();
    this.check();
  }

  private owner(subresource = ''): { manager: string; subresource: string } {
    return { manager: this.manager, subresource };
  }

  /** POST: answers the created object (with its resourceVersion). */
  async create(group: string, resource: string, obj: KObject): Promise<KObject> {
    await this.admit();
    const r = await this.store(group, resource).create(obj.metadata.namespace ?? '', obj, false, this.owner());
    return r.obj;
  }

  /** PUT of the whole object; a resourceVersion in it is a precondition (409 when stale). */
  async update(group: string, resource: string, obj: KObject, subresource = ''): Promise<KObject> {
    await this.admit();
    const r = await this.store(group, resource).update(obj.metadata.namespace ?? '', obj.metadata.name!, obj, subresource, false, this.owner(subresource));
    return r.obj;
  }

  /**
   * A patch: `mutate` turns the latest object into the wanted one (it runs again on a fresh
   * object after a conflict, as a patch does). It gets a copy it may change.
   */
  async patch(group: string, resource: string, namespace: string, name: string, mutate: (cur: KObject) => KObject | undefined, subresource = ''): Promise<KObject> {
    await this.admit();
    const r = await this.store(group, resource).guaranteedUpdate(
      namespace,
      name,
      subresource,
      (old) => {
        this.check();
        const copy = structuredClone(old);
        return mutate(copy) ?? copy;
      },
      undefined,
      false,
      this.owner(subresource),
    );
    return r.obj;
  }

  async delete(group: string, resource: string, namespace: string, name: string, opts: DeleteOptions = {}): Promise<DeleteResult> {
    await this.admit();
    return this.store(group, resource).delete(namespace, name, opts);
  }

  /** A live read (consistent: after every write acknowledged so far), as a client's GET. */
  async get(group: string, resource: string, namespace: string, name: string): Promise<KObject> {
    await this.limiter.acquire();
    return this.store(group, resource).getObject(namespace, name);
  }
}
