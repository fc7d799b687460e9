import type { IDuplexStream, IWatchRequest, IWatchResponse, WatchClient } from 'etcd3';
import { StorageError } from '../errors.js';

const PROBE_TIMEOUT_MS = 10_000;

/**
 * Finds the revision of the last event under `prefix` within [from, upTo], by
 * watching the *whole* keyspace from `from` until an event at or past `upTo` shows
 * up. Every revision is made by a write, so that event exists; a prefix-only watch
 * could not tell "no more events" from "not yet sent". Returns 0 if there is none.
 */
export async function lastEventUnder(
  client: WatchClient,
  prefix: string,
  from: number,
  upTo: number,
): Promise<number> {
  const stream: IDuplexStream<IWatchRequest, IWatchResponse> = await client.watch();
  const want = Buffer.from(prefix, 'utf8');
  return new Promise<number>((resolve, reject) => {
    let last = 0;
    let settled = false;
    const finish = (err: Error | null): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      stream.cancel();
      if (err) reject(err);
      else resolve(last);
    };
    const timer = setTimeout(() => finish(new StorageError('Unavailable', 'etcd progress probe timed out')), PROBE_TIMEOUT_MS);
    stream.on('data', (res: IWatchResponse) => {
      const compactRevision = Number(res.compact_revision ?? 0);
      if (compactRevision > 0) {
        finish(new StorageError('Compacted', `revision ${from} is compacted`, compactRevision));
        return;
      }
      if (res.canceled) {
        finish(new StorageError('Unavailable', `etcd canceled the progress probe: ${res.cancel_reason}`));
        return;
      }
      let seen = 0;
      for (const ev of res.events) {
        seen = Number(ev.kv.mod_revision);
        if (seen > upTo) break;
        const key = ev.kv.key;
        if (key.length >= want.length && key.subarray(0, want.length).equals(want)) last = seen;
      }
      // etcd never splits one revision's events across responses (without `fragment`),
      // so reaching `upTo` means every event up to it has been seen.
      if (seen >= upTo) finish(null);
    });
    stream.on('error', (err: Error) => finish(err));
    stream.on('end', () => finish(new StorageError('Unavailable', 'etcd progress probe stream ended')));
    stream.write({
      // '\0'..'\0' is etcd's "every key".
      create_request: { key: Buffer.from([0]), range_end: Buffer.from([0]), start_revision: from },
    });
  });
}
