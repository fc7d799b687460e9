import type { IDuplexStream, IWatchRequest, IWatchResponse, WatchClient } from 'etcd3';
import { StorageError } from '../errors.js';
import type { StorageWatch, WatchEvent, WatchHandler } from '../interface.js';
import { prefixRange } from './key-range.js';

type Stream = IDuplexStream<IWatchRequest, IWatchResponse>;

/** Consecutive reconnects without a single response before the watch gives up. */
const MAX_RECONNECTS = 10;
/**
 * etcd 3.4 silently drops a progress request while the watch is still catching up
 * on history, so an unanswered request is repeated at this interval (up to a limit).
 */
const PROGRESS_RETRY_MS = 100;
const PROGRESS_TRIES = 50;

export interface EtcdWatchHooks {
  /** A compaction revision etcd revealed (the storage keeps it for compactedRevision()). */
  compacted(revision: number): void;
  closed(w: EtcdWatch): void;
}

/**
 * One storage watch on its own gRPC watch stream. The etcd3 client's Watcher is not
 * used: it resumes from the last *header* revision after a reconnect (which can skip
 * events while a watch is still catching up) and drops the compact revision of a
 * compacted start. Here `next` is the lowest revision not yet delivered; a reconnect
 * resumes exactly there and anything below it is dropped.
 */
export class EtcdWatch implements StorageWatch {
  private next: number;
  private stream: Stream | null = null;
  private created = false;
  private closed = false;
  private progressWanted = false;
  private progressTries = 0;
  private progressTimer: NodeJS.Timeout | null = null;
  private reconnects = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly client: WatchClient,
    private readonly prefix: string,
    fromRevision: number,
    private readonly handler: WatchHandler,
    private readonly hooks: EtcdWatchHooks,
  ) {
    // 0 asks etcd for "after the current revision"; fixed on the created response.
    this.next = fromRevision > 0 ? fromRevision : 0;
  }

  start(): void {
    void this.connect();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.stopProgress();
    const s = this.stream;
    this.stream = null;
    s?.cancel();
    this.hooks.closed(this);
  }

  requestProgress(): void {
    if (this.closed) return;
    this.progressWanted = true;
    this.progressTries = 0;
    this.sendProgress();
  }

  private sendProgress(): void {
    if (this.closed || !this.progressWanted) return;
    // Without a created stream the request goes out as soon as the watch is (re)created.
    if (this.stream && this.created) this.stream.write({ progress_request: {} });
    if (this.progressTimer === null && this.progressTries++ < PROGRESS_TRIES) {
      this.progressTimer = setTimeout(() => {
        this.progressTimer = null;
        this.sendProgress();
      }, PROGRESS_RETRY_MS);
    }
  }

  private stopProgress(): void {
    this.progressWanted = false;
    if (this.progressTimer) clearTimeout(this.progressTimer);
    this.progressTimer = null;
  }

  fail(err: Error): void {
    if (this.closed) return;
    this.close();
    this.handler.onError(err);
  }

  private async connect(): Promise<void> {
    this.timer = null;
    let stream: Stream;
    try {
      stream = await this.client.watch();
    } catch (err) {
      this.reconnect(err);
      return;
    }
    if (this.closed) {
      stream.cancel();
      return;
    }
    this.stream = stream;
    this.created = false;
    stream.on('data', (res) => this.onResponse(stream, res));
    stream.on('error', (err) => this.onBroken(stream, err));
    stream.on('end', () => this.onBroken(stream, new Error('watch stream ended')));
    stream.write({ create_request: { ...prefixRange(this.prefix), start_revision: this.next } });
  }

  private onBroken(stream: Stream, err: unknown): void {
    if (stream !== this.stream || this.closed) return;
    this.stream = null;
    stream.cancel();
    this.reconnect(err);
  }

  private reconnect(err: unknown): void {
    if (this.closed) return;
    this.reconnects++;
    if (this.reconnects > MAX_RECONNECTS) {
      const msg = err instanceof Error ? err.message : String(err);
      this.fail(new StorageError('Unavailable', `etcd watch on ${this.prefix} lost: ${msg}`));
      return;
    }
    const delay = Math.min(2000, 25 * 2 ** this.reconnects);
    this.timer = setTimeout(() => void this.connect(), delay);
  }

  private onResponse(stream: Stream, res: IWatchResponse): void {
    if (stream !== this.stream || this.closed) return;
    this.reconnects = 0;
    const compactRevision = Number(res.compact_revision ?? 0);
    if (compactRevision > 0) {
      this.hooks.compacted(compactRevision);
      this.fail(
        new StorageError('Compacted', `revision ${this.next} is compacted (at ${compactRevision})`, compactRevision),
      );
      return;
    }
    if (res.canceled) {
      this.fail(new StorageError('Unavailable', `etcd canceled the watch on ${this.prefix}: ${res.cancel_reason}`));
      return;
    }
    const headerRev = Number(res.header.revision);
    if (res.created) {
      this.created = true;
      if (this.next <= 0) this.next = headerRev + 1;
      if (this.progressWanted) stream.write({ progress_request: {} });
      return;
    }
    if (res.events.length === 0) {
      // A progress notification: etcd promises nothing at or below it is still to come.
      if (headerRev >= this.next) this.next = headerRev + 1;
      this.stopProgress();
      this.call(() => this.handler.onProgress?.(headerRev));
      return;
    }
    const events: WatchEvent[] = [];
    for (const ev of res.events) {
      const modRevision = Number(ev.kv.mod_revision);
      if (modRevision < this.next) continue;
      const isDelete = String(ev.type).toLowerCase() === 'delete';
      events.push({
        type: isDelete ? 'delete' : 'put',
        key: ev.kv.key.toString('utf8'),
        ...(isDelete ? {} : { value: ev.kv.value }),
        modRevision,
        createRevision: Number(ev.kv.create_revision),
      });
    }
    if (events.length === 0) return;
    this.next = events[events.length - 1]!.modRevision + 1;
    this.call(() => this.handler.onEvents(events));
  }

  private call(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.fail(err instanceof Error ? err : new Error(String(err)));
    }
  }
}
