// Write requests do their CPU-heavy part (decoding, defaults, managedFields, validation,
// encoding) together, one event-loop turn at a time: every request whose body completed in
// the same I/O phase continues in the check phase that follows, one after another. Run back
// to back, they find that code and its data still in the CPU's caches; interleaved with HTTP
// parsing and storage callbacks, each request ran it cold. Measured on a create: a fifth less
// main-thread CPU (see README, Performance). The cost is one loop turn of latency.

let pending: Promise<void> | null = null;

/** Resolves in the next check phase, together with every other caller waiting for it. */
export function writeTurn(): Promise<void> {
  if (pending === null) {
    pending = new Promise<void>((resolve) => {
      setImmediate(() => {
        pending = null;
        resolve();
      });
    });
  }
  return pending;
}
