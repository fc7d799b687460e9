// Reads of the generic store (get and list), with kube 1.33's semantics of
// resourceVersion x resourceVersionMatch x limit/continue (apiserver storage/cacher
// delegator and etcd3 store):
//   resourceVersion unset  Most Recent: the cache once it reached the store's current
//                          revision (a consistent read); the store itself when the cache
//                          does not catch up in time.
//   "0"                    Any: the cache as it is, without a store round trip.
//   N (Not older than)     the cache once it reached N; 504 after 3 s.
//   N, Exact               the store at exactly revision N: 410 when compacted, 504 when N
//                          is ahead of the store.
// First pages come from wherever the list was served, at one revision; continue tokens
// carry that revision and later pages read the store at it, so all pages are one snapshot.

import type { KeyValue } from '../../storage/interface.js';
import type { CacheEntry } from '../../cache/watch-cache.js';
import { decodeContinue, encodeContinue, encodeContinueToken } from '../../machinery/continue-token.js';
import { StatusError, badRequest, gone, notFound } from '../../machinery/errors.js';
import { isStorageError } from '../../storage/errors.js';
import { withResourceVersion, type VersionedBytes } from '../../machinery/stored-bytes.js';
import { CorruptObjectError, corruptListError, corruptReason, type CorruptReason } from '../../machinery/corrupt.js';
import { parseResourceVersion } from '../../machinery/resource-version.js';
import { WAIT_FOR_RV_MS, type StoreContext } from './context.js';

export interface ListOptions {
  resourceVersion?: string;
  /** 'Exact', 'NotOlderThan' or ''/unset (validated by the handler). */
  resourceVersionMatch?: string;
  limit?: number;
  continue?: string;
  /** Keeps the entries a selector matches. */
  filter?: (e: CacheEntry) => boolean;
}

export interface ListResult {
  items: VersionedBytes[];
  resourceVersion: number;
  continue?: string;
  remainingItemCount?: number;
}

/** kube's etcd3 store grows a selector-thinned page's reads up to this batch size. */
const MAX_STORE_BATCH = 10_000;

// Texts of k8s.io/apiserver/pkg/storage/etcd3 (errors.go) for a compacted list revision.
const EXPIRED_LIST = 'The resourceVersion for the provided list is too old.';
const INCONSISTENT_CONTINUE =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

/**
 * storage.NewTooLargeResourceVersionError as the etcd3 store raises it for a revision ahead
 * of the store (no retry hint, unlike the watch cache's wait).
 */
function tooLargeResourceVersion(rv: number, current: number): StatusError {
  return new StatusError(504, 'Timeout', `Timeout: Too large resource version: ${rv}, current: ${current}`, {
    causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
  });
}

/** A list's resourceVersion, parsed as storage.ValidateListOptions words its failure. */
function parseListResourceVersion(rv: string): number {
  try {
    return parseResourceVersion(rv);
  } catch (e) {
    if (e instanceof StatusError) throw badRequest(`invalid resource version: ${e.status.message ?? ''}`);
    throw e;
  }
}

/** GET of one object, by the resourceVersion rules above. */
export async function getEntry(ctx: StoreContext, namespace: string, name: string, resourceVersion?: string): Promise<CacheEntry> {
  const key = ctx.keyFor(namespace, name);
  if (resourceVersion === undefined || resourceVersion === '') {
    // Most Recent. kube reads the store; the cache serves once it is provably current.
    const caughtUp = await consistentCache(ctx);
    if (!caughtUp) {
      const kv = await ctx.deps.storage.get(key);
      if (!kv) throw notFound(ctx.gr, name);
      const bad = corruptReason(kv);
      if (bad) throw new CorruptObjectError(relativeKey(ctx, key), bad);
      return entryOf(ctx, key, withResourceVersion(ctx.stored.view(kv.value), kv.modRevision), kv);
    }
  } else {
    await ctx.freshen(resourceVersion);
  }
  const e = ctx.cache.get(key);
  if (!e) {
    const c = ctx.cache.corruptAt(key);
    if (c) throw new CorruptObjectError(relativeKey(ctx, key), c.reason);
    throw notFound(ctx.gr, name);
  }
  return e;
}

/** A key as kube's get names it in a corrupt-object error: without the storage prefix. */
export const relativeKey = (ctx: StoreContext, key: string): string => key.slice(ctx.deps.storagePrefix.length);

/** kube's list answer when the listed keys hold unreadable values. */
function checkReadable(ctx: StoreContext, prefix: string): void {
  const bad = ctx.cache.corruptUnder(prefix);
  if (bad.length) throw corruptListError(ctx.gr, bad.map((c) => ({ fullKey: c.key, reason: c.reason })));
}

/**
 * Waits until the cache reflects the store's current revision. False when it does not get
 * there in time (the caller reads the store instead, as kube's consistent reads fall back
 * to etcd when the watch cache lags).
 */
async function consistentCache(ctx: StoreContext): Promise<boolean> {
  try {
    await ctx.deps.registryWatch.consistentRevision(WAIT_FOR_RV_MS);
    return true;
  } catch (e) {
    if (e instanceof StatusError && e.code === 504) return false;
    throw e;
  }
}

/** LIST: a page (or all) of the objects under `namespace`, by the rules above. */
export async function listObjects(ctx: StoreContext, namespace: string, opts: ListOptions): Promise<ListResult> {
  const prefix = ctx.listPrefix(namespace);
  const limit = opts.limit && opts.limit > 0 ? opts.limit : 0;
  const rvParam = opts.resourceVersion ?? '';
  const match = opts.resourceVersionMatch ?? '';
  if (opts.continue) return listContinue(ctx, prefix, opts.continue, rvParam, limit, opts.filter);
  if (rvParam === '') {
    // Most Recent.
    if (!(await consistentCache(ctx))) return listFromStore(ctx, prefix, 0, prefix, limit, opts.filter);
    return listFromCache(ctx, prefix, limit, opts.filter);
  }
  const rv = parseListResourceVersion(rvParam);
  // Exact: asked for, or the legacy meaning of a resourceVersion with a limit.
  if (rv > 0 && (match === 'Exact' || (match === '' && limit > 0))) {
    return listFromStore(ctx, prefix, rv, prefix, limit, opts.filter);
  }
  // Any: the cache as it is. kube's watch cache ignores the limit of such a list.
  if (rv === 0) return listFromCache(ctx, prefix, 0, opts.filter);
  // Not older than.
  await ctx.deps.registryWatch.waitFor(rv, WAIT_FOR_RV_MS);
  return listFromCache(ctx, prefix, limit, opts.filter);
}

/**
 * One page from the cache at the revision it reflects. Synchronous, so the items and the
 * revision (the one later pages read the store at) belong to one state.
 */
function listFromCache(ctx: StoreContext, prefix: string, limit: number, filter?: (e: CacheEntry) => boolean, from?: { key: string; rev: number }): ListResult {
  checkReadable(ctx, prefix);
  const rev = from ? from.rev : ctx.cacheRevision;
  if (!limit) {
    const all = ctx.cache.list(prefix, from?.key);
    return { items: filter ? all.filter(filter) : all, resourceVersion: rev };
  }
  const page = ctx.cache.page(prefix, from?.key, limit, filter);
  const out: ListResult = { items: page.items, resourceVersion: rev };
  // An entry past a full page means a next page (kube does not look further).
  if (page.more) {
    const lastKey = page.items.length > 0 ? page.items[page.items.length - 1].key : '';
    // kube's cacher encodes the key relative to the request's key, which has no trailing
    // slash (`/d14-1`); its etcd store relative to the prefix with one (`d14-1`).
    out.continue = encodeContinue(rev, lastKey.slice(prefix.length - 1));
    // With selectors the count of later matches is unknown, so kube leaves it out.
    if (!filter) out.remainingItemCount = page.total - page.items.length;
  }
  return out;
}

/** A later page: the token's revision and start key; a token minted by a 410 reads the latest state. */
async function listContinue(
  ctx: StoreContext,
  prefix: string,
  token: string,
  resourceVersion: string,
  limit: number,
  filter?: (e: CacheEntry) => boolean,
): Promise<ListResult> {
  // storage.ValidateListOptions: the token is checked first, then the resourceVersion.
  const tok = decodeContinue(token);
  if (resourceVersion !== '' && resourceVersion !== '0') {
    throw badRequest('specifying resource version is not allowed when using continue');
  }
  // Nothing of this resource changed since the token's revision: the cache holds that very
  // snapshot, so the page comes from memory instead of the store's history.
  // (The store must still hold that revision: a compacted token expires all the same.)
  if (
    tok.rv > 0 &&
    tok.rv <= ctx.cacheRevision &&
    ctx.cache.eventsAfter(tok.rv)?.length === 0 &&
    tok.rv >= (await ctx.deps.storage.compactedRevision())
  ) {
    return listFromCache(ctx, prefix, limit, filter, { key: prefix + tok.start, rev: tok.rv });
  }
  return listFromStore(ctx, prefix, tok.rv > 0 ? tok.rv : 0, prefix + tok.start, limit, filter, tok.start);
}

/**
 * A list read from the store at revision `rev` (0: the current one) from `fromKey`, after
 * kube's etcd3 store: with selectors, reads further (in doubling batches) until the page is
 * full or the keys run out. `tokenStart` marks a continuation, for the 410 it may answer.
 */
async function listFromStore(
  ctx: StoreContext,
  prefix: string,
  rev: number,
  fromKey: string,
  limit: number,
  filter?: (e: CacheEntry) => boolean,
  tokenStart?: string,
): Promise<ListResult> {
  const storage = ctx.deps.storage;
  const items: VersionedBytes[] = [];
  let at = rev;
  let from = fromKey;
  let batch = limit;
  let lastKey = '';
  let more = false;
  let remaining = 0;
  const unreadable: Array<{ fullKey: string; reason: CorruptReason }> = [];
  try {
    for (;;) {
      const res = await storage.range(prefix, { fromKey: from, limit: batch, revision: at || undefined });
      if (!at) at = res.revision;
      more = res.more;
      remaining = res.remaining;
      for (let i = 0; i < res.kvs.length; i++) {
        if (limit && items.length >= limit) {
          more = true;
          break;
        }
        const kv = res.kvs[i];
        lastKey = kv.key;
        const bad = corruptReason(kv);
        if (bad) {
          unreadable.push({ fullKey: kv.key, reason: bad });
          continue;
        }
        const vb = withResourceVersion(ctx.stored.view(kv.value), kv.modRevision);
        if (!filter || filter(entryOf(ctx, kv.key, vb, kv))) items.push(vb);
      }
      if (!more || !limit || items.length >= limit || res.kvs.length === 0) break;
      from = `${lastKey}\u0000`;
      if (batch < MAX_STORE_BATCH) batch = Math.min(batch * 2, MAX_STORE_BATCH);
    }
  } catch (e) {
    if (isStorageError(e, 'Compacted')) {
      if (tokenStart === undefined) throw gone(EXPIRED_LIST);
      // kube answers with a token that continues at the latest revision from the same key.
      const err = gone(INCONSISTENT_CONTINUE);
      (err.status as unknown as { metadata: Record<string, string> }).metadata = {
        continue: encodeContinueToken(-1, tokenStart),
      };
      throw err;
    }
    if (isStorageError(e, 'FutureRevision')) {
      throw tooLargeResourceVersion(at, await storage.currentRevision());
    }
    throw e;
  }
  if (unreadable.length) throw corruptListError(ctx.gr, unreadable);
  const out: ListResult = { items, resourceVersion: at };
  if (more && lastKey) {
    out.continue = encodeContinue(at, lastKey.slice(prefix.length));
    if (!filter) out.remainingItemCount = remaining;
  }
  return out;
}

function entryOf(ctx: StoreContext, key: string, vb: VersionedBytes, kv: KeyValue): CacheEntry {
  const rest = key.slice(ctx.prefix.length);
  const i = ctx.def.namespaced ? rest.indexOf('/') : -1;
  return {
    ...vb,
    key,
    namespace: i >= 0 ? rest.slice(0, i) : '',
    name: i >= 0 ? rest.slice(i + 1) : rest,
    rv: kv.modRevision,
    createRevision: kv.createRevision,
    stale: kv.stale === true,
  };
}
