// Masking of generated values, so that two servers' answers compare: uids and
// resourceVersions become placeholders numbered by first appearance within a sequence (so
// "the same resourceVersion as the step before" survives the masking), timestamps the
// server sets become `<time>` (their presence is kept).

import type { Answer } from './format.js';
import type { RawAnswer } from './client.js';

/** Timestamps a server sets; a client-set one (conditions' lastTransitionTime) stays as sent. */
const SERVER_TIMES = new Set(['creationTimestamp', 'deletionTimestamp']);

export class Masker {
  private readonly uids = new Map<string, string>();
  private readonly rvs = new Map<string, string>();

  private placeholder(map: Map<string, string>, prefix: string, v: string): string {
    let p = map.get(v);
    if (p === undefined) {
      p = `<${prefix}-${map.size + 1}>`;
      map.set(v, p);
    }
    return p;
  }

  /** A masked copy of a JSON value. */
  value(v: unknown, key = '', inManagedFields = false): unknown {
    if (Array.isArray(v)) return v.map((x) => this.value(x, '', key === 'managedFields'));
    if (v === null || typeof v !== 'object') {
      if (typeof v !== 'string' || v === '') return v;
      if (key === 'uid') return this.placeholder(this.uids, 'uid', v);
      if (key === 'resourceVersion') return this.placeholder(this.rvs, 'rv', v);
      if (SERVER_TIMES.has(key) || (inManagedFields && key === 'time')) return '<time>';
      return v;
    }
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      // FieldsV1 holds field names as keys, never generated values.
      out[k] = inManagedFields && k === 'fieldsV1' ? x : this.value(x, k, inManagedFields);
    }
    return out;
  }

  answer(raw: RawAnswer): Answer {
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
