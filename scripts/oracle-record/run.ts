// Runs a request sequence against one server: resolves read-modify-write bodies from that
// server's own earlier answers, sends each request in order and masks the answers.

import { send, type RawAnswer, type Server } from './client.js';
import type { Answer, RequestSpec, Sequence, Step } from './format.js';
import { Masker } from './mask.js';

export interface StepResult {
  raw: RawAnswer;
  answer: Answer;
}

/** The User-Agent every request carries unless the step sets one (it names the Update manager of writes without fieldManager). */
export const DEFAULT_USER_AGENT = 'oracle-record/v1.0.0';

/** RFC 7386 JSON merge patch. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return patch;
  const out: Record<string, unknown> = target !== null && typeof target === 'object' && !Array.isArray(target) ? { ...(target as Record<string, unknown>) } : {};
  for (const [k, v] of Object.entries(patch as Record<string, unknown>)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

function bodyOf(req: RequestSpec, earlier: StepResult[]): Buffer | undefined {
  if (req.bodyFrom) {
    const from = earlier[req.bodyFrom.step];
    if (!from) throw new Error(`bodyFrom refers to step ${req.bodyFrom.step}, which has not run`);
    let base: unknown;
    try {
      base = JSON.parse(from.raw.text);
    } catch {
      base = {};
    }
    return Buffer.from(JSON.stringify(req.bodyFrom.mergePatch === undefined ? base : mergePatch(base, req.bodyFrom.mergePatch)));
  }
  if (req.bodyBase64 !== undefined) return Buffer.from(req.bodyBase64, 'base64');
  if (req.body === undefined) return undefined;
  return Buffer.from(typeof req.body === 'string' ? req.body : JSON.stringify(req.body));
}

/** What of a step besides its request shapes its answer: headers to keep, a body to leave out. */
export type StepOptions = Pick<Step, 'headers' | 'ignoreBody'>;

export async function runStep(server: Server, req: RequestSpec, earlier: StepResult[], masker: Masker, opts: StepOptions = {}): Promise<StepResult> {
  const body = bodyOf(req, earlier);
  const headers: Record<string, string> = { accept: 'application/json', 'user-agent': DEFAULT_USER_AGENT, ...(req.headers ?? {}) };
  if (body && !headers['content-type']) headers['content-type'] = 'application/json';
  const raw = await send(server, req.method, req.path, headers, body);
  const answer = masker.answer(raw, earlier.length, opts.headers);
  if (opts.ignoreBody) delete answer.body;
  return { raw, answer };
}

export async function runSequence(server: Server, seq: Sequence<Step>): Promise<StepResult[]> {
  const masker = new Masker();
  const out: StepResult[] = [];
  for (const step of seq.steps) out.push(await runStep(server, step.req, out, masker, step));
  return out;
}
