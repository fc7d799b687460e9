// What the simulated-node suites share: reading an object that may not exist yet, and
// polling a pod until a condition holds.

import { eventually, http, json, type KapiProcess, type Obj } from '../http/helpers.js';

/** The object at `path`, or undefined while it is not there. */
export async function getObj(k: KapiProcess, path: string): Promise<Obj | undefined> {
  const r = await http(k, 'GET', path);
  return r.status === 200 ? json(r) : undefined;
}

/** Polls the pod at `path` until `f` says so; answers it (the failure shows its last status). */
export async function podUntil(k: KapiProcess, path: string, what: string, f: (p: Obj) => boolean, timeoutMs = 20_000): Promise<Obj> {
  let last: Obj | undefined;
  await eventually(
    `${path.split('/').pop()}: ${what}`,
    async () => {
      last = await getObj(k, path);
      return !!last && f(last);
    },
    timeoutMs,
  ).catch((e: Error) => {
    throw new Error(`${e.message}; last seen: ${JSON.stringify(last?.status)}`);
  });
  return last!;
}
