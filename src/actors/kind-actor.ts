// One actor per resource kind. Writes to the kind go through its mailbox; each tick
// takes every queued write, computes them against the latest known state, and sends
// their compare-and-swap transactions together, so the LevelDB backend commits them as
// one batch (group commit). A write is answered only after its transaction committed.
//
// The actor's state guess can be stale (another node wrote through etcd, or the cache
// lags); the CAS then fails, the store hands back the current value, and the mutation
// runs again on it: GuaranteedUpdate's retry, in one place.

import type { KeyValue, Storage } from '../storage/interface.js';

export interface Current {
  kv: KeyValue;
}

/** What a mutation decides, given the current state of its key. */
export type Decision =
  | { kind: 'put'; value: Buffer }
  | { kind: 'delete' }
  /** Nothing to write: answer with the current state. */
  | { kind: 'none' };

/** Runs on the current state (null: the key is absent). Throwing rejects the write. */
export type Mutation = (current: KeyValue | null) => Decision;

export interface Outcome {
  /** The decision that was committed (or 'none'). */
  decision: Decision['kind'];
  /** The revision of the write; for 'none', the modRevision of the current state. */
  revision: number;
  /** The state after the write (null when deleted or absent). */
  current: KeyValue | null;
  /** The state the mutation ran on. */
  previous: KeyValue | null;
}

interface Job {
  key: string;
  mutate: Mutation;
  /** The state to try first; undefined means "ask the guesser". */
  guess?: KeyValue | null;
  /** True once `guess` came from the store itself rather than the cache. */
  authoritative: boolean;
  attempts: number;
  resolve: (o: Outcome) => void;
  reject: (e: unknown) => void;
}

const MAX_ATTEMPTS = 64;

export class ConflictRetriesExhausted extends Error {}

export class KindActor {
  private queue: Job[] = [];
  private scheduled = false;
  /**
   * Keys with a job between its mutation and its outcome, and the jobs for them that came
   * meanwhile. Those wait for the outcome and then start from the state it committed: run
   * earlier, they would compute on a state about to be replaced, fail their CAS and compute
   * again (two writers of one object, e.g. two managers applying, do that all the time).
   */
  private readonly busy = new Map<string, Job[]>();

  constructor(
    private readonly storage: Storage,
    /** Best guess of a key's current state (the watch cache); may be stale. */
    private readonly guess: (key: string) => KeyValue | null,
  ) {}

  submit(key: string, mutate: Mutation): Promise<Outcome> {
    return new Promise<Outcome>((resolve, reject) => {
      this.queue.push({ key, mutate, attempts: 0, authoritative: false, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.tick());
  }

  private tick(): void {
    this.scheduled = false;
    const jobs = this.queue;
    this.queue = [];
    for (const job of jobs) {
      const waiting = this.busy.get(job.key);
      if (waiting) {
        waiting.push(job);
        continue;
      }
      this.busy.set(job.key, []);
      this.run(job);
    }
  }

  /**
   * Frees `key` after a job's outcome. `committed`: the state the job wrote, which the waiting
   * jobs start from. `again`: the job itself, run again (on a fresher state) before them.
   */
  private release(key: string, committed?: KeyValue | null, again?: Job): void {
    const waiting = this.busy.get(key) ?? [];
    this.busy.delete(key);
    if (committed !== undefined) {
      for (const w of waiting) {
        w.guess = committed;
        w.authoritative = true;
      }
    }
    const next = again ? [again, ...waiting] : waiting;
    if (next.length === 0) return;
    this.queue = next.concat(this.queue);
    this.schedule();
  }

  /** Runs `settle` if `base` is the store's current state, else reruns the job on that state. */
  private confirm(job: Job, base: KeyValue | null, settle: () => void): void {
    if (job.authoritative) {
      settle();
      this.release(job.key);
      return;
    }
    this.storage.get(job.key).then(
      (kv) => {
        if ((kv?.modRevision ?? 0) === (base?.modRevision ?? 0)) {
          settle();
          this.release(job.key);
          return;
        }
        job.guess = kv;
        job.authoritative = true;
        this.release(job.key, undefined, job);
      },
      (err: unknown) => {
        job.reject(err);
        this.release(job.key);
      },
    );
  }

  private run(job: Job): void {
    const base = job.guess !== undefined ? job.guess : this.guess(job.key);
    let decision: Decision;
    try {
      decision = job.mutate(base);
    } catch (e) {
      // The rejection may come from a stale cache (a NotFound just after a create, a
      // resourceVersion conflict just after a write): decide again on the store's state.
      this.confirm(job, base, () => job.reject(e));
      return;
    }
    if (decision.kind === 'none') {
      this.confirm(job, base, () =>
        job.resolve({ decision: 'none', revision: base?.modRevision ?? 0, current: base, previous: base }),
      );
      return;
    }
    if (decision.kind === 'delete' && !base) {
      // Nothing to delete in our view; re-read to be sure before the mutation decides.
      job.resolve({ decision: 'none', revision: 0, current: null, previous: null });
      this.release(job.key);
      return;
    }
    const op = decision.kind === 'put' ? { type: 'put' as const, value: decision.value } : { type: 'delete' as const };
    this.storage.txn({ key: job.key, expectModRevision: base?.modRevision ?? 0, op }).then(
      (res) => {
        if (res.succeeded) {
          job.resolve({ decision: decision.kind, revision: res.revision, current: res.current, previous: base });
          this.release(job.key, res.current);
          return;
        }
        job.attempts++;
        if (job.attempts >= MAX_ATTEMPTS) {
          job.reject(new ConflictRetriesExhausted(`too many conflicting writes to ${job.key}`));
          this.release(job.key);
          return;
        }
        job.guess = res.current;
        job.authoritative = true;
        this.release(job.key, undefined, job);
      },
      (err: unknown) => {
        job.reject(err);
        this.release(job.key);
      },
    );
  }
}
