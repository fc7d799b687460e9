import type { IDuplexStream, IWatchRequest, IWatchResponse } from 'etcd3';
import { StorageError } from '../errors.js';
import type { StorageWatch, WatchEvent, WatchHandler } from '../interface.js';
import { prefixRange } from './key-range.js';
import { lastEventUnder } from './progress-probe.js';
import type { EtcdMembers, Member } from './members.js';
import { memberFailure } from './etcd-errors.js';

type Stream = IDuplexStream<IWatchRequest, IWatchResponse>;

/** The longest wait between two reconnects. */
const MAX_RECONNECT_DELAY_MS = 1000;

export interface EtcdWatchHooks {
  /** A linearizable read of the store revision. */
  currentRevision(): Promise<number>;
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
 *
 * Progress is not taken from etcd's progress_request: up to 3.4.30 / 3.5.12 etcd
 * answers it on a control channel that can overtake events still queued for the
 * watch, which would let a cache claim a revision it has not caught up to. Instead a
 * probe (see progress-probe.ts) finds the last event under the prefix up to the
 * current revision, and progress is reported once that event has been delivered.
 *
 * The stream lives on the members' pinned member. When the pin moves (the member died or
 * stopped answering) the watch reconnects to the new one from `next`; an outage (no
 * quorum, every member down) only delays it: it retries until a member answers, and only a
 * compacted start revision ends it, since nothing can resume from there.
 */
export class EtcdWatch implements StorageWatch {
  private next: number;
  private stream: Stream | null = null;
  /** The member `stream` is on. */
  private member: Member | null = null;
  private unsubscribe: (() => void) | null = null;
  private closed = false;
  private reconnects = 0;
  private timer: NodeJS.Timeout | null = null;
  /** Progress was asked for before the watch knew its start revision. */
  private progressWanted = false;
  private probing = false;
  private probeAgain = false;
  /** Report `revision` as soon as the event at `last` has been delivered. */
  private progressGoal: { last: number; revision: number } | null = null;

  constructor(
    private readonly members: EtcdMembers,
    private readonly prefix: string,
    fromRevision: number,
    private readonly handler: WatchHandler,
    private readonly hooks: EtcdWatchHooks,
  ) {
    // 0 asks etcd for "after the current revision"; fixed on the created response.
    this.next = fromRevision > 0 ? fromRevision : 0;
  }

  start(): void {
    this.unsubscribe = this.members.onSwitch((to) => {
      if (this.stream && this.member !== to) this.restart();
    });
    void this.connect();
  }

  /** Drops the stream and connects again (to the pinned member) from `next`. */
  private restart(): void {
    const s = this.stream;
    this.stream = null;
    this.member = null;
    s?.cancel();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    void this.connect();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.progressGoal = null;
    this.unsubscribe?.();
    const s = this.stream;
    this.stream = null;
    s?.cancel();
    this.hooks.closed(this);
  }

  fail(err: Error): void {
    if (this.closed) return;
    this.close();
    this.handler.onError(err);
  }

  requestProgress(): void {
    if (this.closed) return;
    if (this.next <= 0) {
      this.progressWanted = true;
      return;
    }
    // One probe at a time; requests during a probe are served by one more after it.
    if (this.probing) {
      this.probeAgain = true;
      return;
    }
    this.probing = true;
    this.probe()
      .catch(() => {
        // A failed probe just leaves the request unanswered; the caller asks again.
      })
      .finally(() => {
        this.probing = false;
        if (this.probeAgain) {
          this.probeAgain = false;
          this.requestProgress();
        }
      });
  }

  private async probe(): Promise<void> {
    const revision = await this.hooks.currentRevision();
    const from = this.next;
    if (this.closed) return;
    if (revision < from) {
      // Everything below `next` is already delivered.
      this.call(() => this.handler.onProgress?.(from - 1));
      return;
    }
    const last = await lastEventUnder(this.members.current.client.watchClient, this.prefix, from, revision);
    if (this.closed) return;
    if (!this.progressGoal || this.progressGoal.revision < revision) this.progressGoal = { last, revision };
    this.checkProgress();
  }

  private checkProgress(): void {
    const goal = this.progressGoal;
    if (!goal || this.next <= goal.last) return;
    this.progressGoal = null;
    // Nothing under the prefix lies between the last delivered event and the goal.
    if (this.next <= goal.revision) this.next = goal.revision + 1;
    this.call(() => this.handler.onProgress?.(goal.revision));
  }

  private async connect(): Promise<void> {
    this.timer = null;
    const member = this.members.current;
    let stream: Stream;
    try {
      stream = await member.client.watchClient.watch();
    } catch (err) {
      this.reconnect(err);
      return;
    }
    if (this.closed) {
      stream.cancel();
      return;
    }
    this.stream = stream;
    this.member = member;
    stream.on('data', (res) => this.onResponse(stream, res));
    stream.on('error', (err) => this.onBroken(stream, err));
    stream.on('end', () => this.onBroken(stream, new Error('watch stream ended')));
    stream.write({ create_request: { ...prefixRange(this.prefix), start_revision: this.next } });
  }

  private onBroken(stream: Stream, err: unknown): void {
    if (stream !== this.stream || this.closed) return;
    // A dead member breaks its streams before any call notices: move the pin at once.
    if (this.member && memberFailure(err)) this.members.markDown(this.member, err instanceof Error ? err.message : String(err));
    this.stream = null;
    this.member = null;
    stream.cancel();
    this.reconnect(err);
  }

  private reconnect(err: unknown): void {
    if (this.closed) return;
    void err;
    this.reconnects++;
    const delay = Math.min(MAX_RECONNECT_DELAY_MS, 25 * 2 ** this.reconnects);
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
      // etcd cancels watches of a member that lost its leader; another member may serve.
      this.onBroken(stream, new Error(`etcd canceled the watch on ${this.prefix}: ${res.cancel_reason}`));
      return;
    }
    if (res.created) {
      if (this.next <= 0) this.next = Number(res.header.revision) + 1;
      if (this.progressWanted) {
        this.progressWanted = false;
        this.requestProgress();
      }
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
    this.checkProgress();
  }

  private call(fn: () => void): void {
    if (this.closed) return;
    try {
      fn();
    } catch (err) {
      this.fail(err instanceof Error ? err : new Error(String(err)));
    }
  }
}
