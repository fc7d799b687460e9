// ControllerExpectations, after kube's pkg/controller/controller_utils.go: a controller that
// just asked for N creates or deletes records them against the owner's key, and skips syncing
// that owner until its informer has seen them all (or the record is 5 minutes old: a watch
// event lost for good must not stop the owner forever). Without this, a sync that runs before
// the caches caught up with the controller's own writes would act on a stale count.

export const EXPECTATIONS_TIMEOUT_MS = 5 * 60 * 1000;

interface Expectation {
  add: number;
  del: number;
  at: number;
}

export class ControllerExpectations {
  private readonly records = new Map<string, Expectation>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Whether `key` may be synced: nothing expected, everything observed, or the record expired. */
  satisfied(key: string): boolean {
    const e = this.records.get(key);
    if (!e) return true;
    if (e.add <= 0 && e.del <= 0) return true;
    return this.now() - e.at > EXPECTATIONS_TIMEOUT_MS;
  }

  /** Replaces the record (kube's SetExpectations); timestamps it now. */
  set(key: string, add: number, del: number): void {
    this.records.set(key, { add, del, at: this.now() });
  }

  expectCreations(key: string, n: number): void {
    this.set(key, n, 0);
  }

  expectDeletions(key: string, n: number): void {
    this.set(key, 0, n);
  }

  /** Adds to what is expected (a create or delete about to be sent). */
  raise(key: string, add: number, del: number): void {
    const e = this.records.get(key);
    if (!e) {
      this.set(key, add, del);
      return;
    }
    e.add += add;
    e.del += del;
  }

  /** One expected change happened (or will never happen, when the request failed). */
  lower(key: string, add: number, del: number): void {
    const e = this.records.get(key);
    if (!e) return;
    e.add -= add;
    e.del -= del;
  }

  creationObserved(key: string): void {
    this.lower(key, 1, 0);
  }

  deletionObserved(key: string): void {
    this.lower(key, 0, 1);
  }

  delete(key: string): void {
    this.records.delete(key);
  }

  /** What is still expected (for logs and tests). */
  get(key: string): { add: number; del: number } | undefined {
    const e = this.records.get(key);
    return e && { add: e.add, del: e.del };
  }
}
