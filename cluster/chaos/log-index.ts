// etcd's log of a run, indexed: the state of an object or of a namespace at any revision, and
// when a version stopped being current.

import type { LogEvent } from './history.js';

export interface Version {
  value: string;
  rv: number;
}

export class LogIndex {
  private readonly byKey = new Map<string, LogEvent[]>();
  private readonly byRv = new Map<number, LogEvent>();

  constructor(
    readonly events: LogEvent[],
    /** The revision the log starts after: keys of a run's namespace did not exist then. */
    readonly from: number,
  ) {
    for (const e of events) {
      let list = this.byKey.get(e.key);
      if (!list) this.byKey.set(e.key, (list = []));
      list.push(e);
      this.byRv.set(e.rv, e);
    }
  }

  at(rv: number): LogEvent | undefined {
    return this.byRv.get(rv);
  }

  /** The object at revision `rv`: undefined when absent. */
  stateAt(key: string, rv: number): Version | undefined {
    let last: LogEvent | undefined;
    for (const e of this.byKey.get(key) ?? []) {
      if (e.rv > rv) break;
      last = e;
    }
    return last && last.type !== 'DELETED' ? { value: last.value, rv: last.rv } : undefined;
  }

  /** The objects of namespace `ns` at revision `rv`, by name. */
  namespaceAt(ns: string, rv: number): Map<string, Version> {
    const out = new Map<string, Version>();
    for (const key of this.byKey.keys()) {
      if (!key.startsWith(`${ns}/`)) continue;
      const v = this.stateAt(key, rv);
      if (v) out.set(key.slice(ns.length + 1), v);
    }
    return out;
  }

  /** The first change to `key` after revision `rv` (Infinity: none in the log). */
  nextChange(key: string, rv: number): number {
    for (const e of this.byKey.get(key) ?? []) if (e.rv > rv) return e.rv;
    return Infinity;
  }

  /** Whether `key` had exactly this version (a put of `value` at `rv`). */
  hadVersion(key: string, value: string, rv: number): boolean {
    const e = this.byRv.get(rv);
    return e !== undefined && e.key === key && e.type !== 'DELETED' && e.value === value;
  }

  /** The put of `value` to `key` (values are unique in a run), if etcd has it. */
  findPut(key: string, value: string): LogEvent | undefined {
    return (this.byKey.get(key) ?? []).find((e) => e.type !== 'DELETED' && e.value === value);
  }

  /** Spans of revisions [start, end) in which `key` was absent. */
  absentSpans(key: string): [number, number][] {
    const spans: [number, number][] = [];
    let start: number | undefined = this.from;
    for (const e of this.byKey.get(key) ?? []) {
      if (e.type === 'DELETED') start = e.rv;
      else if (start !== undefined) {
        spans.push([start, e.rv]);
        start = undefined;
      }
    }
    if (start !== undefined) spans.push([start, Infinity]);
    return spans;
  }

  /** The events under a scope ('' every namespace, else `ns/`) with from < rv <= to. */
  inScope(namespace: string, from: number, to: number): LogEvent[] {
    return this.events.filter((e) => e.rv > from && e.rv <= to && (!namespace || e.key.startsWith(`${namespace}/`)));
  }
}
