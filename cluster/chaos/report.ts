// The readable report of a run: the fault and its steps, the figures, the linearizability
// result, and for each violation the operations around it (the same object's operations
// near it in time, the watchers' reconnects near it).

import type { RunCheck, Violation } from './check.js';
import type { Operation, RunHistory } from './history.js';

const ms = (ns: number, t0: number): string => ((ns - t0) / 1e6).toFixed(1);

export function describeOp(op: Operation, t0: number): string {
  const when = `[${ms(op.call, t0)} .. ${op.ret === undefined ? '?' : ms(op.ret, t0)} ms]`;
  let what: string;
  switch (op.kind) {
    case 'create':
      what = `create ${op.key}=${op.value}`;
      break;
    case 'update':
      what = `update ${op.key}=${op.value}${op.precondition ? ` if rv=${op.precondition}` : ''}`;
      break;
    case 'delete':
      what = `delete ${op.key}${op.precondition ? ` if rv=${op.precondition}` : ''}`;
      break;
    case 'get':
      what = `get ${op.key} (${op.mode}${op.rv ? ` ${op.rv}` : ''})`;
      break;
    default:
      what = `list (${op.mode}${op.rv ? ` ${op.rv}` : ''}${op.limit ? `, pages of ${op.limit}` : ''})`;
  }
  let out: string;
  if (op.status === undefined) out = `no answer (${op.error})`;
  else if (op.kind === 'list' && op.status === 200) out = `200 at ${op.listRv}: ${op.items!.map((i) => `${i.name}=${i.value}@${i.rv}`).join(' ') || 'empty'}`;
  else if (op.status < 300 && op.outRv) out = `${op.status} ${op.outValue}@${op.outRv}`;
  else out = `${op.status}${op.error ? ` ${op.error}` : ''}`;
  return `${when} client ${op.client} conn ${op.conn ?? '-'} #${op.id}: ${what} -> ${out}`;
}

function context(v: Violation, h: RunHistory, t0: number): string[] {
  const all = [...h.ops, ...h.finalReads.map((f) => f.op)];
  const byId = new Map(all.map((o) => [o.id, o]));
  const focus = (v.ops ?? []).map((id) => byId.get(id)).filter((o): o is Operation => o !== undefined);
  if (!focus.length) return [];
  const from = Math.min(...focus.map((o) => o.call)) - 1e9;
  const to = Math.max(...focus.map((o) => o.ret ?? o.call)) + 2e8;
  const near = all
    .filter((o) => o.call <= to && (o.ret ?? Infinity) >= from)
    .filter((o) => focus.includes(o) || (v.key ? o.key === v.key || (o.kind === 'list' && o.items?.some((i) => i.name === v.key)) : false))
    .sort((a, b) => a.call - b.call)
    .slice(-40);
  return near.map((o) => `    ${focus.includes(o) ? '>' : ' '} ${describeOp(o, t0)}`);
}

export function runReport(h: RunHistory, c: RunCheck, t0: number, seconds: number): string {
  const lines: string[] = [];
  const ok = c.violations.length === 0 && c.linearizability.result === 'ok';
  lines.push(`run ${h.run}: ${ok ? 'PASS' : 'FAIL'} (${seconds} s, namespace ${h.namespace}, revisions ${h.startRev}..${h.endRev})`);
  lines.push(`  fault: ${h.fault.kind} on ${h.fault.target}, ${h.fault.start} ms .. healed at ${h.fault.healed} ms`);
  for (const s of h.fault.steps) lines.push(`    ${s.at} ms: ${s.what}`);
  const s = c.stats;
  lines.push(
    `  operations: ${s.ops} (${s.writesAcknowledged} writes acknowledged, ${s.ambiguous} with an unknown outcome of which etcd had ${s.ambiguousApplied}); weak reads checked: ${s.readsChecked}`,
  );
  lines.push(`  watches: ${h.watchers.length} watchers, ${s.watchEvents} events, ${s.watchReconnects} reconnects, ${s.watchRelists} relists after 410; etcd's log: ${s.logEvents} changes`);
  const lin = c.linearizability;
  lines.push(`  linearizability (porcupine): ${lin.result}, ${lin.ops} operations over ${lin.keys.length} objects`);
  if (c.violations.length) {
    lines.push(`  violations: ${c.violations.length}`);
    for (const v of c.violations.slice(0, 50)) {
      lines.push(`  - [${v.check}] ${v.message}`);
      lines.push(...context(v, h, t0));
      if (v.check === 'linearizability') {
        const k = lin.keys.find((x) => x.key === v.key);
        if (k?.linearization?.length) {
          lines.push('    the longest linearization found ends:');
          for (const p of k.linearization.slice(-8)) lines.push(`      ${p}`);
        }
      }
    }
    if (c.violations.length > 50) lines.push(`  ... and ${c.violations.length - 50} more (report.json)`);
  } else {
    lines.push('  violations: 0');
  }
  return lines.join('\n');
}
