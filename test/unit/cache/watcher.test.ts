// The cache's Watcher driven through the cache API (no HTTP): a WatchCache fed by hand as the
// node's RegistryWatch feeds it, a watcher opened on it, and a sink that records what the
// watcher writes and lets the test play a client that reads, or stops reading.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WatchCache, type CacheEntry } from '../../../src/cache/watch-cache.js';
import { MAX_PENDING_BYTES, openWatcher, type WatcherOptions } from '../../../src/cache/watcher.js';
import { registeredWatchers } from '../../../src/cache/metrics.js';
import { decodeObject, encodeForStorage } from '../../../src/machinery/stored-bytes.js';
import type { KObject } from '../../../src/machinery/object.js';
import type { WatchEvent, WatchSink } from '../../../src/machinery/watch.js';

const PREFIX = '/registry/things/';
const RESOURCE = { group: 'example.com', version: 'v1', kind: 'Thing', apiVersion: 'example.com/v1' };

/** One resource's cache and the node's revision, written as the RegistryWatch writes them. */
class Node {
  rev = 0;
  readonly cache = new WatchCache(PREFIX, true, { historyMs: 60_000, maxHistory: 1000 });
  /** Replaced by a test that wants to hold the freshness wait. */
  freshen: (rv: string | undefined) => Promise<number> = () => Promise.resolve(this.rev);
  readonly src = { cache: this.cache, revision: () => this.rev, freshen: (rv: string | undefined) => this.freshen(rv) };

  put(ns: string, name: string, labels: Record<string, string> = {}, extra: Record<string, string> = {}): number {
    const obj: KObject = { kind: 'Thing', apiVersion: 'example.com/v1', metadata: { name, namespace: ns, labels, annotations: extra } };
    const rv = ++this.rev;
    const prev = this.cache.get(`${PREFIX}${ns}/${name}`);
    const ev = this.cache.apply('put', `${PREFIX}${ns}/${name}`, encodeForStorage(obj), rv, prev?.createRevision ?? rv, Date.now());
    this.cache.publish([ev!]);
    return rv;
  }

  del(ns: string, name: string): number {
    const rv = ++this.rev;
    const ev = this.cache.apply('delete', `${PREFIX}${ns}/${name}`, undefined, rv, 0, Date.now());
    this.cache.publish([ev!]);
    return rv;
  }
}

/** A client at the end of the stream: reading everything, or stalled with bytes piling up. */
class Sink implements WatchSink {
  constructor() {
    open.push(this);
  }
  readonly events: WatchEvent[] = [];
  stalled = false;
  ended = false;
  destroyed = false;
  private unread = 0;
  private readonly closeFns: (() => void)[] = [];
  private readonly drainFns: (() => void)[] = [];

  write(ev: WatchEvent): void {
    this.events.push(ev);
    if (this.stalled) this.unread += ev.stored ? ev.stored.bytes.length : 100;
  }
  pending(): number {
    return this.unread;
  }
  whenDrained(fn: () => void): void {
    this.drainFns.push(fn);
  }
  end(): void {
    this.ended = true;
  }
  destroy(): void {
    this.destroyed = true;
    this.close();
  }
  onClose(fn: () => void): void {
    this.closeFns.push(fn);
  }
  /** The client reads what piled up. */
  drain(): void {
    this.stalled = false;
    this.unread = 0;
    for (const fn of this.drainFns.splice(0)) fn();
  }
  /** The connection goes away. */
  close(): void {
    for (const fn of this.closeFns.splice(0)) fn();
  }

  /** The events as `TYPE name@rv`, for assertions. */
  seen(): string[] {
    return this.events.map((ev) => {
      if (!ev.stored) return `${ev.type} @${String((ev.object!.metadata as { resourceVersion: string } | undefined)?.resourceVersion ?? '')}`;
      const o = decodeObject(ev.stored.bytes);
      expect(o.metadata.resourceVersion).toBe(String(ev.stored.rv));
      return `${ev.type} ${o.metadata.name}@${ev.stored.rv}`;
    });
  }
}

/** The sinks of a test, closed after it. */
let open: Sink[] = [];

const options = (o: Partial<WatcherOptions> = {}): WatcherOptions => ({
  prefix: PREFIX,
  resourceVersion: '',
  allowWatchBookmarks: false,
  timeoutMs: 60_000,
  bookmarkIntervalMs: 60_000,
  ...o,
});

async function watching(node: Node, o: Partial<WatcherOptions> = {}): Promise<Sink> {
  const w = await openWatcher(node.src, RESOURCE, options(o));
  const sink = new Sink();
  w.pipe(sink);
  return sink;
}

/** Live events leave in the node's flushes, at most every 25 ms. */
const flush = async (): Promise<void> => {
  await vi.advanceTimersByTimeAsync(30);
};

async function registered(): Promise<number> {
  const m = await registeredWatchers.get();
  return m.values.find((v) => v.labels.kind === 'Thing')?.value ?? 0;
}

const labelIs = (key: string, value: string) => (e: CacheEntry): boolean => decodeObject(e.bytes).metadata.labels?.[key] === value;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'clearImmediate', 'setInterval', 'clearInterval', 'Date'] });
});
afterEach(async () => {
  for (const sink of open) sink.close();
  open = [];
  // The node-wide flush may still be armed on a fake timer: let it run before the clock goes.
  await vi.runOnlyPendingTimersAsync();
  vi.useRealTimers();
});

describe('start', () => {
  it('without a resourceVersion: the current state as ADDED in key order, then the changes under the prefix', async () => {
    const node = new Node();
    node.put('ns1', 'b');
    node.put('ns1', 'a');
    node.put('ns2', 'c');
    const sink = await watching(node, { prefix: `${PREFIX}ns1/` });
    expect(sink.seen()).toEqual(['ADDED a@2', 'ADDED b@1']);

    const m = node.put('ns1', 'a', { v: '2' });
    node.put('ns2', 'c', { v: '2' });
    const d = node.del('ns1', 'b');
    await flush();
    expect(sink.seen().slice(2)).toEqual([`MODIFIED a@${m}`, `DELETED b@${d}`]);
  });

  it('from N: only the history after N, no synthetic events', async () => {
    const node = new Node();
    node.put('ns1', 'a');
    const n = node.put('ns1', 'b');
    const m = node.put('ns1', 'a', { v: '2' });
    const sink = await watching(node, { resourceVersion: String(n) });
    expect(sink.seen()).toEqual([`MODIFIED a@${m}`]);
  });

  it('subscribes before it reads the start: a change during the freshness wait comes once', async () => {
    const node = new Node();
    node.put('ns1', 'a');
    let release!: () => void;
    node.freshen = () => new Promise((r) => (release = () => r(node.rev)));
    const opening = openWatcher(node.src, RESOURCE, options());
    const b = node.put('ns1', 'b');
    release();
    const w = await opening;
    const sink = new Sink();
    w.pipe(sink);
    const c = node.put('ns1', 'c');
    await flush();
    expect(sink.seen()).toEqual(['ADDED a@1', `ADDED b@${b}`, `ADDED c@${c}`]);
  });

  it('a resourceVersion older than the history: one ERROR event with the 410 Expired Status, then the end', async () => {
    const node = new Node();
    for (let i = 0; i < 5; i++) node.put('ns1', `o${i}`);
    // The history is kept for a minute: a minute on, the first three events are gone.
    node.cache.trim(Date.now() + 60_001);
    node.put('ns1', 'late');
    const oldest = node.cache.oldestRevision;
    expect(oldest).toBe(5);

    const sink = await watching(node, { resourceVersion: '2' });
    expect(sink.events).toHaveLength(1);
    expect(sink.events[0].type).toBe('ERROR');
    expect(sink.events[0].object).toMatchObject({
      kind: 'Status',
      status: 'Failure',
      code: 410,
      reason: 'Expired',
      message: `too old resource version: 2 (${oldest})`,
    });
    expect(sink.ended).toBe(true);
    expect(await registered()).toBe(0);
    // Nothing more comes, and a client that never reads the end is dropped after 30 s.
    node.put('ns1', 'x');
    await flush();
    expect(sink.events).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(sink.destroyed).toBe(true);

    // From the oldest revision on is still served.
    const ok = await watching(node, { resourceVersion: String(oldest) });
    expect(ok.seen()).toEqual(['ADDED late@6', 'ADDED x@7']);
  });

  it('sendInitialEvents: the state, then the initial-events-end bookmark, then live changes', async () => {
    const node = new Node();
    node.put('ns1', 'a');
    const at = node.put('ns1', 'b');
    const sink = await watching(node, { sendInitialEvents: true, resourceVersion: '', allowWatchBookmarks: true });
    expect(sink.seen()).toEqual(['ADDED a@1', `ADDED b@${at}`, `BOOKMARK @${at}`]);
    expect(sink.events[2].object).toEqual({
      kind: 'Thing',
      apiVersion: 'example.com/v1',
      metadata: { resourceVersion: String(at), annotations: { 'k8s.io/initial-events-end': 'true' } },
    });
    const c = node.put('ns1', 'c');
    await flush();
    expect(sink.seen().slice(3)).toEqual([`ADDED c@${c}`]);
  });

  it('sendInitialEvents=false: no synthetic events, changes from now on', async () => {
    const node = new Node();
    node.put('ns1', 'a');
    const sink = await watching(node, { sendInitialEvents: false });
    const m = node.put('ns1', 'a', { v: '2' });
    await flush();
    expect(sink.seen()).toEqual([`MODIFIED a@${m}`]);
  });
});

describe('selectors', () => {
  it('a change into the selection is ADDED, out of it DELETED with the last selected state at the new resourceVersion', async () => {
    const node = new Node();
    node.put('ns1', 'x', { app: 'web' });
    node.put('ns1', 'y', { app: 'db' });
    const sink = await watching(node, { filter: labelIs('app', 'web') });
    expect(sink.seen()).toEqual(['ADDED x@1']);

    const enters = node.put('ns1', 'y', { app: 'web' });
    const leaves = node.put('ns1', 'x', { app: 'db' });
    node.put('ns1', 'x', { app: 'db', more: 'yes' }); // unselected before and after: nothing
    const stays = node.put('ns1', 'y', { app: 'web', more: 'yes' });
    node.del('ns1', 'x'); // unselected: nothing
    const gone = node.del('ns1', 'y');
    await flush();
    expect(sink.seen().slice(1)).toEqual([`ADDED y@${enters}`, `DELETED x@${leaves}`, `MODIFIED y@${stays}`, `DELETED y@${gone}`]);
    // The DELETED of a leaving object carries what the watcher last could see.
    expect(decodeObject(sink.events[2].stored!.bytes).metadata.labels).toEqual({ app: 'web' });
  });

  it('watchers with the same view of a change share its object, so its encoding is made once', async () => {
    const node = new Node();
    node.put('ns1', 'x', { app: 'web' });
    const one = await watching(node, { filter: labelIs('app', 'web'), resourceVersion: '1' });
    const two = await watching(node, { filter: labelIs('app', 'web'), resourceVersion: '1' });
    node.put('ns1', 'x', { app: 'db' });
    await flush();
    expect(one.events[0].type).toBe('DELETED');
    expect(two.events[0].stored).toBe(one.events[0].stored);
  });
});

describe('bookmarks', () => {
  it('every interval at the node revision: one on an idle node, then one after each change', async () => {
    const node = new Node();
    node.put('ns1', 'a');
    const sink = await watching(node, { allowWatchBookmarks: true, bookmarkIntervalMs: 1000 });
    await vi.advanceTimersByTimeAsync(1000);
    expect(sink.seen()).toEqual(['ADDED a@1', 'BOOKMARK @1']);
    expect(sink.events[1].object).toEqual({ kind: 'Thing', apiVersion: 'example.com/v1', metadata: { resourceVersion: '1' } });
    await vi.advanceTimersByTimeAsync(2000);
    expect(sink.events).toHaveLength(2);

    const b = node.put('ns1', 'b');
    await vi.advanceTimersByTimeAsync(1000);
    expect(sink.seen().slice(2)).toEqual([`ADDED b@${b}`, `BOOKMARK @${b}`]);
    // A change elsewhere moves the node's revision: the next bookmark carries it.
    node.rev += 5;
    await vi.advanceTimersByTimeAsync(1000);
    expect(sink.seen().slice(4)).toEqual([`BOOKMARK @${node.rev}`]);
  });

  it('none for a watch that starts ahead of the node, until the node passes its start', async () => {
    const node = new Node();
    node.put('ns1', 'a');
    const sink = await watching(node, { resourceVersion: '10', allowWatchBookmarks: true, bookmarkIntervalMs: 1000 });
    node.put('ns1', 'b');
    await vi.advanceTimersByTimeAsync(3000);
    expect(sink.events).toEqual([]);
    node.rev = 12;
    await vi.advanceTimersByTimeAsync(1000);
    expect(sink.seen()).toEqual(['BOOKMARK @12']);
  });

  it('a watcher with events still queued skips the bookmark', async () => {
    const node = new Node();
    const sink = await watching(node, { allowWatchBookmarks: true, bookmarkIntervalMs: 1000 });
    sink.stalled = true;
    node.put('ns1', 'big', {}, { blob: 'x'.repeat(2 * 1024 * 1024) });
    await flush();
    node.put('ns1', 'next');
    await vi.advanceTimersByTimeAsync(1000);
    expect(sink.seen()).toEqual(['ADDED big@1']);
    sink.drain();
    await vi.advanceTimersByTimeAsync(1000);
    expect(sink.seen()).toEqual(['ADDED big@1', 'ADDED next@2', 'BOOKMARK @2']);
  });

  it('the last one 2 s before the deadline; the stream ends at the deadline', async () => {
    const node = new Node();
    node.put('ns1', 'a');
    const sink = await watching(node, { allowWatchBookmarks: true, timeoutMs: 5000 });
    await vi.advanceTimersByTimeAsync(2999);
    expect(sink.events).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(sink.seen()).toEqual(['ADDED a@1', 'BOOKMARK @1']);
    expect(sink.ended).toBe(false);
    await vi.advanceTimersByTimeAsync(2000);
    expect(sink.ended).toBe(true);
  });

  it('none without allowWatchBookmarks', async () => {
    const node = new Node();
    node.put('ns1', 'a');
    const sink = await watching(node, { bookmarkIntervalMs: 1000, timeoutMs: 5000 });
    await vi.advanceTimersByTimeAsync(5000);
    expect(sink.seen()).toEqual(['ADDED a@1']);
    expect(sink.ended).toBe(true);
  });
});

describe('pacing and lifetime', () => {
  it('a consumer that stops reading is ended once its backlog passes the bound, and dropped if it never drains', async () => {
    const node = new Node();
    const sink = await watching(node);
    expect(await registered()).toBe(1);
    sink.stalled = true;
    const blob = 'x'.repeat(1024 * 1024);
    let written = 0;
    let last = 0;
    for (let i = 0; i < 40 && !sink.ended; i++) {
      node.put('ns1', `o${i}`, {}, { blob });
      last = node.cache.get(`${PREFIX}ns1/o${i}`)!.bytes.length;
      written += last;
      await flush();
    }
    expect(sink.ended).toBe(true);
    // It ended with the change that took the backlog past the bound, not before.
    expect(written).toBeGreaterThan(MAX_PENDING_BYTES);
    expect(written - last).toBeLessThanOrEqual(MAX_PENDING_BYTES);
    // What it could take before it stalled was written; the rest waited in the watcher.
    expect(sink.events.length).toBe(1);
    expect(await registered()).toBe(0);
    node.put('ns1', 'after');
    await flush();
    expect(sink.events.length).toBe(1);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(sink.destroyed).toBe(true);
  });

  it('catch-up events wait for the connection to drain, and all of them come', async () => {
    const node = new Node();
    const blob = 'x'.repeat(400 * 1024);
    for (let i = 0; i < 10; i++) node.put('ns1', `o${i}`, {}, { blob });
    const w = await openWatcher(node.src, RESOURCE, options());
    const sink = new Sink();
    sink.stalled = true;
    w.pipe(sink);
    // Up to the high-water mark (1 MiB) of unread bytes, then it waits.
    expect(sink.events).toHaveLength(3);
    sink.drain();
    expect(sink.events).toHaveLength(10);
    expect(sink.ended).toBe(false);
  });

  it('a relist of the cache ends the watch', async () => {
    const node = new Node();
    node.put('ns1', 'a');
    const sink = await watching(node);
    node.cache.reset([], node.rev);
    expect(sink.ended).toBe(true);
    expect(await registered()).toBe(0);
  });

  it('a relist while the watch starts: the stream ends at once', async () => {
    const node = new Node();
    let release!: () => void;
    node.freshen = () => new Promise((r) => (release = () => r(node.rev)));
    const opening = openWatcher(node.src, RESOURCE, options());
    node.cache.reset([], node.rev);
    node.put('ns1', 'a');
    release();
    const w = await opening;
    const sink = new Sink();
    w.pipe(sink);
    expect(sink.events).toEqual([]);
    expect(sink.ended).toBe(true);
    expect(await registered()).toBe(0);
  });

  it('counts registered watchers while they stream, and stops feeding a closed one', async () => {
    const node = new Node();
    const before = node.cache.watcherCount;
    const one = await watching(node);
    const two = await watching(node);
    expect(await registered()).toBe(2);
    expect(node.cache.watcherCount).toBe(before + 2);
    one.close();
    expect(await registered()).toBe(1);
    expect(node.cache.watcherCount).toBe(before + 1);
    node.put('ns1', 'a');
    await flush();
    expect(one.events).toEqual([]);
    expect(two.seen()).toEqual(['ADDED a@1']);
    two.close();
    expect(await registered()).toBe(0);
    expect(node.cache.watcherCount).toBe(before);
  });

  it('stop before pipe leaves nothing subscribed or counted', async () => {
    const node = new Node();
    const w = await openWatcher(node.src, RESOURCE, options());
    expect(node.cache.watcherCount).toBe(1);
    w.stop();
    expect(node.cache.watcherCount).toBe(0);
    expect(await registered()).toBe(0);
  });

  it('a failed freshness wait rejects and unsubscribes', async () => {
    const node = new Node();
    node.freshen = () => Promise.reject(new Error('too large'));
    await expect(openWatcher(node.src, RESOURCE, options({ sendInitialEvents: true }))).rejects.toThrow('too large');
    expect(node.cache.watcherCount).toBe(0);
  });
});
