// Replays recorded sequences against a server and compares its answers with the recorded
// ones. A sequence's steps are grouped into units: a write with the read that checks it
// (Step.checks), plus any reads it needed first; agreement figures count units.

import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { Server } from './client.js';
import { compareAnswers, managedFieldsOrdered, type CompareOptions } from './compare.js';
import type { Answer, Fixture, RecordedStep, Sequence, Step } from './format.js';
import { Masker } from './mask.js';
import { runStep, type StepResult } from './run.js';

export interface StepOutcome {
  index: number;
  note?: string;
  method: string;
  path: string;
  /** Differences from the recorded answer; empty when they agree. */
  diffs: string[];
}

export interface UnitOutcome {
  /** Index of the unit's first step. */
  first: number;
  steps: StepOutcome[];
  agrees: boolean;
}

export interface SequenceOutcome {
  name: string;
  units: UnitOutcome[];
  agrees: boolean;
}

/** The units of a sequence: runs of step indexes, each closed by a step that checks an earlier one. */
export function units(steps: readonly Step[]): number[][] {
  // A sequence without reads that check writes: every step counts on its own.
  if (!steps.some((s) => s.checks !== undefined)) return steps.map((_, i) => [i]);
  const out: number[][] = [];
  let cur: number[] = [];
  steps.forEach((s, i) => {
    cur.push(i);
    if (s.checks !== undefined) {
      out.push(cur);
      cur = [];
    }
  });
  if (cur.length) out.push(cur);
  return out;
}

/** Checks kapi's own managedFields order by its own times (the recorded times are masked). */
function orderProblems(raw: StepResult): string[] {
  let body: unknown;
  try {
    body = JSON.parse(raw.raw.text);
  } catch {
    return [];
  }
  const mf = (body as { metadata?: { managedFields?: unknown } } | null)?.metadata?.managedFields;
  if (!Array.isArray(mf) || managedFieldsOrdered(mf as Record<string, unknown>[])) return [];
  return [`managedFields are not in kube's order by their own times: ${JSON.stringify(mf.map((e: Record<string, unknown>) => [e.manager, e.operation, e.time ?? null, e.subresource ?? null]))}`];
}

export async function replaySequence(server: Server, seq: Sequence<RecordedStep>, opts: CompareOptions = {}): Promise<SequenceOutcome> {
  const masker = new Masker();
  const results: StepResult[] = [];
  const outcomes: StepOutcome[] = [];
  for (let i = 0; i < seq.steps.length; i++) {
    const step = seq.steps[i];
    let res: StepResult;
    try {
      res = await runStep(server, step.req, results, masker, step);
    } catch (e) {
      const answer: Answer = { status: 0, body: `request failed: ${(e as Error).message}` };
      res = { raw: { status: 0, headers: [], text: '', bytes: Buffer.alloc(0) }, answer };
    }
    results.push(res);
    const diffs = step.cleanup ? [] : [...compareAnswers(step.answer, res.answer, { ...opts, step: i }), ...orderProblems(res)];
    outcomes.push({ index: i, note: step.note, method: step.req.method, path: step.req.path, diffs });
  }
  const us = units(seq.steps)
    .map((idx) => idx.filter((i) => !seq.steps[i].cleanup))
    .filter((idx) => idx.length > 0)
    .map((idx) => {
    const steps = idx.map((i) => outcomes[i]);
    return { first: idx[0], steps, agrees: steps.every((s) => s.diffs.length === 0) };
    });
  return { name: seq.name, units: us, agrees: us.every((u) => u.agrees) };
}

export interface Tally {
  units: number;
  unitsAgreeing: number;
  sequences: number;
  sequencesAgreeing: number;
}

export function tally(outcomes: readonly SequenceOutcome[]): Tally {
  const t: Tally = { units: 0, unitsAgreeing: 0, sequences: outcomes.length, sequencesAgreeing: 0 };
  for (const o of outcomes) {
    t.units += o.units.length;
    t.unitsAgreeing += o.units.filter((u) => u.agrees).length;
    if (o.agrees) t.sequencesAgreeing++;
  }
  return t;
}

/** A readable report of the units that differ. */
export function describe(outcomes: readonly SequenceOutcome[], max = 50, firstOnly = false): string {
  const lines: string[] = [];
  for (const o of outcomes) {
    for (const u of o.units.filter((x) => !x.agrees).slice(0, firstOnly ? 1 : undefined)) {
      if (lines.length >= max * 4) return lines.join('\n');
      for (const s of u.steps) {
        if (!s.diffs.length) continue;
        lines.push(`${o.name} step ${s.index} (${s.note ?? ''}) ${s.method} ${s.path}`);
        for (const d of s.diffs) lines.push(`    ${d}`);
      }
    }
  }
  return lines.join('\n');
}

/** The recorded fixtures of a suite: every .json (or .json.gz) file of its folder, in name order. */
export function loadFixtures(dir: string): Fixture[] {
  if (!existsSync(dir)) throw new Error(`no fixtures in ${dir}: record them with scripts/oracle-record`);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json') || f.endsWith('.json.gz'))
    .sort()
    .map((f) => {
      const raw = readFileSync(join(dir, f));
      return JSON.parse((f.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8')) as Fixture;
    });
}
