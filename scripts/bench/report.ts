// Table output (stdout) and the JSON results file.
import fs from 'node:fs';
import type { MetricRow } from './phases/types.js';

export function ratioOf(row: MetricRow): number | null {
  const { kapi: k, baseline: b } = row;
  if (k === null || b === null || row.better === 'none') return null;
  if (row.better === 'higher') return b === 0 ? null : k / b;
  return k === 0 ? null : b / k;
}

export function statusOf(row: MetricRow): string {
  if (row.pass === undefined) return '';
  if (row.pass === null) return 'n/a';
  return row.pass ? 'PASS' : 'MISS';
}

function fmt(v: number | null, unit: string): string {
  if (v === null) return '-';
  if (unit === '/s') return Math.round(v).toLocaleString('en-US');
  if (unit === 'MiB') return v.toFixed(1);
  if (unit === 'ms') return v < 10 ? v.toFixed(2) : v < 1000 ? v.toFixed(1) : Math.round(v).toLocaleString('en-US');
  return Number.isInteger(v) ? String(v) : v.toFixed(2);
}

export function renderTable(rows: MetricRow[]): string {
  const header = ['metric', 'kapi', 'baseline', 'ratio*', 'target', 'result'];
  const body = rows.map((r) => {
    const ratio = ratioOf(r);
    const unit = r.unit ? ` (${r.unit})` : '';
    return [r.label + unit, fmt(r.kapi, r.unit), fmt(r.baseline, r.unit), ratio === null ? '-' : `${ratio.toFixed(2)}x`, r.target ?? '', statusOf(r)];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]!.length)));
  const right = [false, true, true, true, false, false];
  const line = (cells: string[]): string =>
    '| ' + cells.map((c, i) => (right[i] ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join(' | ') + ' |';
  const sep = '|' + widths.map((w, i) => (right[i] ? '-'.repeat(w + 1) + ':' : '-'.repeat(w + 2))).join('|') + '|';
  return [line(header), sep, ...body.map(line)].join('\n');
}

export const RATIO_NOTE =
  '* ratio = kapi relative to baseline, >1 means kapi is better: kapi/baseline for rates (/s), baseline/kapi for latencies (ms) and memory (MiB).';

export function writeJson(file: string, data: unknown): void {
  const tmp = `${file}.tmp`;
  const round = (_k: string, v: unknown): unknown =>
    typeof v === 'number' && Number.isFinite(v) && !Number.isInteger(v) ? Math.round(v * 1000) / 1000 : v;
  fs.writeFileSync(tmp, JSON.stringify(data, round, 2) + '\n');
  fs.renameSync(tmp, file);
}
