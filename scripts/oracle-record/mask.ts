// Masking of generated values, so that two servers' answers compare: uids become
// placeholders numbered by first appearance within a sequence; a resourceVersion becomes
// the step that first showed it (`<rv@7>`, `<rv@7.2>` for the second new one of step 7), so
// "the same resourceVersion as the step before" survives the masking while one write that
// only one server made does not renumber every later answer; timestamps the server sets
// become `<time>` (their presence is kept); pointer addresses in messages become `0x<address>`;
// the random suffix of the ServiceAccount plugin's `kube-api-access-xxxxx` volume becomes
// `<random-N>`, numbered like uids, so the mounts still have to name the volume.

import { createHash } from 'node:crypto';
import { decodeMultiple } from 'cbor-x';
import { parse as parseYaml } from 'yaml';
import type { Answer } from './format.js';
import type { RawAnswer } from './client.js';
import { decodeProtobufObject, decodeProtobufWatchFrames } from '../../src/codec/protobuf/index.js';

/** A Table cell that is an age (`0s`, `5m3s`, `2d`): it depends on when the request ran. */
const AGE = /^(\d+[smhdy])+$/;
/** A Table cell that is a time (the default table's Created At: the object's creationTimestamp). */
const CELL_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

/** The JSON values of a body that is not JSON text (undefined when it cannot be read). */
function readBody(raw: RawAnswer, contentType: string): { value: unknown; format?: Answer['bodyFormat'] } | undefined {
  const [base, ...params] = contentType.split(';').map((x) => x.trim().toLowerCase());
  const stream = params.includes('stream=watch');
  try {
    if (base === 'application/vnd.kubernetes.protobuf') {
      if (stream) return { value: decodeProtobufWatchFrames(raw.bytes).events.map((e) => ({ type: e.type, object: e.object.object })), format: 'stream' };
      return { value: decodeProtobufObject(raw.bytes).object, format: 'protobuf' };
    }
    if (base === 'application/cbor' || base === 'application/cbor-seq') {
      const items = decodeMultiple(raw.bytes) as unknown[];
      return base === 'application/cbor-seq' ? { value: items.map(cborJson), format: 'stream' } : { value: cborJson(items[0]), format: 'cbor' };
    }
    if (base === 'application/yaml') return { value: parseYaml(raw.text) as unknown, format: 'yaml' };
    if (base === 'application/json') {
      if (!stream) return { value: jsonOrEventLines(raw.text) };
      const lines = raw.text.split('\n').filter((l) => l.trim() !== '');
      return { value: lines.map((l) => parseJsonExact(l)), format: 'stream' };
    }
  } catch {
    return undefined;
  }
  try {
    return { value: JSON.parse(raw.text) as unknown };
  } catch {
    return undefined;
  }
}

/**
 * A JSON text's value; or, when it is several JSON values a line (a watch's events, which
 * kube writes as plain application/json), their list.
 */
function jsonOrEventLines(text: string): unknown {
  try {
    return parseJsonExact(text);
  } catch (e) {
    const lines = text.split('\n').filter((l) => l.trim() !== '');
    if (lines.length < 2) throw e;
    return lines.map((l) => parseJsonExact(l));
  }
}

/**
 * JSON.parse, but a number whose text a JS number would not write back the same (an int64
 * beyond 2^53, `1.0`, `1e3` in a RawExtension) reads as the string `<number TEXT>`, so that a
 * server that keeps the text and one that rounds it do not compare equal.
 */
export function parseJsonExact(text: string): unknown {
  let out = '';
  let at = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: skip to its closing quote.
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      let j = i + 1;
      while (j < text.length && /[0-9eE.+-]/.test(text[j])) j++;
      const num = text.slice(i, j);
      if (String(Number(num)) !== num) {
        out += text.slice(at, i) + JSON.stringify(`<number ${num}>`);
        at = j;
      }
      i = j - 1;
    }
  }
  return JSON.parse(at === 0 ? text : out + text.slice(at)) as unknown;
}

/** A CBOR item as JSON: byte strings read as text (kube writes every string as one), tags looked through. */
function cborJson(v: unknown): unknown {
  if (v instanceof Uint8Array) return Buffer.from(v).toString('utf8');
  if (Array.isArray(v)) return v.map(cborJson);
  if (v instanceof Map) return Object.fromEntries([...v.entries()].map(([k, x]) => [String(cborJson(k)), cborJson(x)]));
  if (v !== null && typeof v === 'object') {
    const t = v as { tag?: unknown; value?: unknown };
    if (typeof t.tag === 'number' && 'value' in t && Object.keys(t).length === 2) return cborJson(t.value);
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, cborJson(x)]));
  }
  return v;
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;
const UUID_ALL = new RegExp(UUID.source, 'g');
/** The all-zero uid the suites send as a precondition that cannot hold. */
const ZERO_UID = '00000000-0000-0000-0000-000000000000';
/** Where a message quotes the stored object's resourceVersion. */
const STORED_RV = /(ResourceVersion in record \(|ResourceVersion in object meta: )(\d+)(\)?)/;
const STORED_RV_ALL = new RegExp(STORED_RV.source, 'g');
/** The ServiceAccount admission plugin's volume name: its 5 characters are random (kube's name generator). */
const API_ACCESS_VOLUME = /\bkube-api-access-([bcdfghjklmnpqrstvwxz2456789]{5})\b/g;

/** A digest of a value's JSON text, computed without recursion. */
export function deepDigest(v: unknown): string {
  const h = createHash('sha256');
  const todo: unknown[] = [v];
  // Items are values, or literal text (a Text box) to write between them.
  while (todo.length > 0) {
    const x = todo.pop();
    if (x instanceof Text) h.update(x.text);
    else if (Array.isArray(x)) {
      todo.push(new Text(']'));
      for (let i = x.length - 1; i >= 0; i--) todo.push(x[i], new Text(i === 0 ? '[' : ','));
      if (x.length === 0) todo.push(new Text('['));
    } else if (x !== null && typeof x === 'object') {
      const entries = Object.entries(x as Record<string, unknown>);
      todo.push(new Text('}'));
      for (let i = entries.length - 1; i >= 0; i--) todo.push(entries[i][1], new Text(`${i === 0 ? '{' : ','}${JSON.stringify(entries[i][0])}:`));
      if (entries.length === 0) todo.push(new Text('{'));
    } else h.update(JSON.stringify(x) ?? 'null');
  }
  return `<deep value ${h.digest('hex').slice(0, 16)}>`;
}

/** Whether a value nests more than `limit` levels, found without recursion. */
function deeperThan(v: unknown, limit: number): boolean {
  const todo: [unknown, number][] = [[v, 0]];
  while (todo.length > 0) {
    const [x, d] = todo.pop()!;
    if (x === null || typeof x !== 'object') continue;
    if (d >= limit) return true;
    for (const y of Array.isArray(x) ? x : Object.values(x as Record<string, unknown>)) todo.push([y, d + 1]);
  }
  return false;
}

class Text {
  constructor(readonly text: string) {}
}

/**
 * Timestamps a server sets (a volume's lastPhaseTransitionTime: stamped on each phase change);
 * a client-set one (conditions' lastTransitionTime) stays as sent.
 */
const SERVER_TIMES = new Set(['creationTimestamp', 'deletionTimestamp', 'lastPhaseTransitionTime']);

/**
 * Replaces each Go-quoted document (`"{...}"` or `"map[...]"`) after `Invalid value: ` with a
 * placeholder: kube quotes a whole patched object there.
 */
function maskQuotedDocuments(s: string): string {
  const lead = 'Invalid value: "';
  let out = '';
  let at = 0;
  for (;;) {
    const i = s.indexOf(lead, at);
    if (i < 0) return out + s.slice(at);
    let j = i + lead.length;
    if (s[j] !== '{' && !s.startsWith('map[', j)) {
      out += s.slice(at, j);
      at = j;
      continue;
    }
    while (j < s.length && s[j] !== '"') j += s[j] === '\\' ? 2 : 1;
    out += `${s.slice(at, i)}Invalid value: "<patched object>"`;
    at = j + 1;
  }
}

export class Masker {
  private readonly uids = new Map<string, string>();
  private readonly rvs = new Map<string, string>();
  private readonly volumeNames = new Map<string, string>();
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

  /** A continue token (base64 of kube's {"v","rv","start"}) with its resourceVersion masked. */
  private continueToken(v: string): string {
    try {
      const t = JSON.parse(Buffer.from(v, 'base64').toString('utf8')) as { v?: unknown; rv?: unknown; start?: unknown };
      if (typeof t.rv !== 'number') return v;
      return `<continue ${JSON.stringify({ v: t.v, rv: this.rv(String(t.rv)), start: t.start })}>`;
    } catch {
      return v;
    }
  }

  /** A masked copy of a JSON value. */
  value(v: unknown, key = '', inManagedFields = false, depth = 0): unknown {
    // Nothing generated lives that deep; deep request data (deep-nesting cases) is compared by
    // a digest of its JSON text, so no later step (JSON.stringify, comparison) recurses 10,000 levels.
    if (depth > 64) return deepDigest(v);
    if (Array.isArray(v)) {
      if (key === 'cells') return v.map((x) => (typeof x === 'string' && AGE.test(x) ? '<age>' : typeof x === 'string' && CELL_TIME.test(x) ? '<time>' : this.value(x, '', false, depth + 1)));
      return v.map((x) => this.value(x, '', key === 'managedFields', depth + 1));
    }
    if (v === null || typeof v !== 'object') {
      if (typeof v !== 'string' || v === '') return v;
      if (key === 'uid') return this.placeholder(this.uids, 'uid', v);
      if (key === 'resourceVersion') return this.rv(v);
      if (key === 'continue') return this.continueToken(v);
      if (SERVER_TIMES.has(key) || (inManagedFields && key === 'time')) return '<time>';
      // Go's %#v of a pointer prints its address (in messages of invalid values).
      let text = v;
      if (text.includes(')(0x')) text = text.replace(/\)\(0x[0-9a-f]+\)/g, ')(0x<address>)');
      // A 422 about a patched object quotes the whole object (uid, times, resourceVersion, and
      // Go's key order): only the cause after it compares.
      if (text.includes('Invalid value: "{') || text.includes('Invalid value: "map[')) text = maskQuotedDocuments(text);
      // Messages that name the stored object's uid or resourceVersion (failed preconditions).
      if (UUID.test(text)) text = text.replace(UUID_ALL, (u) => (u === ZERO_UID ? u : this.placeholder(this.uids, 'uid', u)));
      if (STORED_RV.test(text)) text = text.replace(STORED_RV_ALL, (_m, lead: string, rv: string, tail: string) => `${lead}${this.rv(rv)}${tail}`);
      if (text.includes('kube-api-access-')) text = text.replace(API_ACCESS_VOLUME, (_m, suffix: string) => `kube-api-access-${this.placeholder(this.volumeNames, 'random', suffix)}`);
      return text;
    }
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      // FieldsV1 holds field names as keys, never generated values.
      out[k] = inManagedFields && k === 'fieldsV1' ? (deeperThan(x, 64) ? deepDigest(x) : x) : this.value(x, k, inManagedFields, depth + 1);
    }
    return out;
  }

  /** The masked answer of step `step` of the sequence. */
  answer(raw: RawAnswer, step: number, compareHeaders?: string[]): Answer {
    this.step = step;
    this.newInStep = 0;
    const out: Answer = { status: raw.status };
    const ct = raw.headers.find(([k]) => k === 'content-type');
    if (ct) out.contentType = ct[1];
    const warnings = raw.headers.filter(([k]) => k === 'warning').map(([, v]) => v);
    if (warnings.length) out.warnings = warnings;
    if (compareHeaders?.length) {
      out.headers = {};
      for (const name of compareHeaders) {
        const h = raw.headers.find(([k]) => k === name);
        if (h) out.headers[name] = h[1];
      }
    }
    if (raw.bytes.length > 0) {
      const read = readBody(raw, ct?.[1] ?? '');
      if (read) {
        out.body = this.value(read.value);
        if (read.format) out.bodyFormat = read.format;
      } else if (raw.bytes.toString('utf8') === raw.text && !raw.text.includes('\ufffd')) {
        out.body = raw.text;
      } else {
        out.body = raw.bytes.toString('base64');
        out.bodyFormat = 'bytes';
      }
    }
    return out;
  }
}
