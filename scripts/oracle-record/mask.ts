// Masking of generated values, so that two servers' answers compare: uids become
// placeholders numbered by first appearance within a sequence; a resourceVersion becomes
// the step that first showed it (`<rv@7>`, `<rv@7.2>` for the second new one of step 7), so
// "the same resourceVersion as the step before" survives the masking while one write that
// only one server made does not renumber every later answer; timestamps the server sets
// become `<time>` (their presence is kept); pointer addresses in messages become `0x<address>`.

import type { Answer } from './format.js';
import type { RawAnswer } from './client.js';

/** Timestamps a server sets; a client-set one (conditions' lastTransitionTime) stays as sent. */
const SERVER_TIMES = new Set(['creationTimestamp', 'deletionTimestamp']);

export class Masker {
  private readonly uids = new Map<string, string>();
  private readonly rvs = new Map<string, string>();
  /** The step being masked, and how many new resourceVersions it showed so far. */
  private step = 0;
  private newInStep = 0;

  private placeholder(map: Map<string, string>, prefix: string, v: string): string {
    let p = map.get(v);
    if (p === undefined) {
      p = `<${prefix}-${map.size + 1}>`;
      map.set(v, p);
    }
    return p;
  }

  private rv(v: string): string {
    let p = this.rvs.get(v);
    if (p === undefined) {
      this.newInStep++;
      p = `<rv@${this.step}${this.newInStep > 1 ? `.${this.newInStep}` : ''}>`;
      this.rvs.set(v, p);
    }
    return p;
  }

  /** A masked copy of a JSON value. */
  value(v: unknown, key = '', inManagedFields = false): unknown {
    if (Array.isArray(v)) return v.map((x) => this.value(x, '', key === 'managedFields'));
    if (v === null || typeof v !== 'object') {
      if (typeof v !== 'string' || v === '') return v;
      if (key === 'uid') return this.placeholder(this.uids, 'uid', v);
      if (key === 'resourceVersion') return this.rv(v);
      if (SERVER_TIMES.has(key) || (inManagedFields && key === 'time')) return '<time>';
      // Go's %#v of a pointer prints its address (in messages of invalid values).
      if (v.includes(')(0x')) return v.replace(/\)\(0x[0-9a-f]+\)/g, ')(0x<address>)');
      return v;
    }
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      // FieldsV1 holds field names as keys, never generated values.
      out[k] = inManagedFields && k === 'fieldsV1' ? x : this.value(x, k, inManagedFields);
    }
    return out;
  }

  /** The masked answer of step `step` of the sequence. */
  answer(raw: RawAnswer, step: number): Answer {
    this.step = step;
    this.newInStep = 0;
    const out: Answer = { status: raw.status };
    const ct = raw.headers.find(([k]) => k === 'content-type');
    if (ct) out.contentType = ct[1];
    const warnings = raw.headers.filter(([k]) => k === 'warning').map(([, v]) => v);
    if (warnings.length) out.warnings = warnings;
    if (raw.text !== '') {
      let parsed: unknown;
      let isJson = false;
      try {
        parsed = JSON.parse(raw.text);
        isJson = true;
      } catch {
        // not JSON: kept as text
      }
      out.body = isJson ? this.value(parsed) : raw.text;
    }
    return out;
  }
}
