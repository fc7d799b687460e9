// Counters and histograms for the per-request metrics, kept per label set by the label values
// joined into one string. prom-client's own inc/observe validate and hash a label object on
// every call, which on a cheap request costs as much as routing it. These keep plain counts
// per label set and give prom-client's Registry the shape its own metrics give it (the
// `getForPromString` contract), so /metrics reads exactly as before.

import type { Registry } from 'prom-client';

type Labels = Record<string, string>;

interface Value {
  labels?: Labels;
  sharedLabels?: Labels;
  value: number;
  metricName?: string;
}

interface MetricData {
  name: string;
  help: string;
  type: 'counter' | 'histogram';
  values: Value[];
  aggregator: 'sum';
}

abstract class LabeledMetric<Cell> {
  protected readonly cells = new Map<string, { labels: Labels; cell: Cell }>();
  readonly aggregator = 'sum';

  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly string[],
    registry: Registry,
  ) {
    // The Registry takes any object that answers get()/getForPromString() as a metric.
    registry.registerMetric(this as unknown as Parameters<Registry['registerMetric']>[0]);
  }

  protected abstract fresh(): Cell;

  /** The cell of a label set, by its values in labelNames order ('\u0000' is in no label value). */
  protected cellOf(values: readonly string[]): Cell {
    const key = values.join('\u0000');
    let c = this.cells.get(key);
    if (!c) {
      const labels: Labels = {};
      this.labelNames.forEach((n, i) => (labels[n] = values[i] ?? ''));
      c = { labels, cell: this.fresh() };
      this.cells.set(key, c);
    }
    return c.cell;
  }

  abstract getForPromString(): MetricData;

  /** prom-client's JSON form: the label set merged into each value's labels. */
  get(): MetricData {
    const d = this.getForPromString();
    d.values = d.values.map(({ labels, sharedLabels, ...v }) => ({ ...v, labels: { ...labels, ...sharedLabels } }));
    return d;
  }

  reset(): void {
    this.cells.clear();
  }
}

export class LabeledCounter extends LabeledMetric<{ value: number }> {
  readonly type = 'counter';

  protected fresh(): { value: number } {
    return { value: 0 };
  }

  inc(values: readonly string[], by = 1): void {
    this.cellOf(values).value += by;
  }

  getForPromString(): MetricData {
    const values: Value[] = [];
    for (const { labels, cell } of this.cells.values()) values.push({ labels, value: cell.value });
    return { name: this.name, help: this.help, type: 'counter', values, aggregator: 'sum' };
  }
}

interface HistogramCell {
  /** Observations per bucket (not cumulative); the last slot is above every bound. */
  counts: Float64Array;
  sum: number;
  count: number;
}

export class LabeledHistogram extends LabeledMetric<HistogramCell> {
  readonly type = 'histogram';

  constructor(name: string, help: string, labelNames: readonly string[], readonly buckets: readonly number[], registry: Registry) {
    super(name, help, labelNames, registry);
  }

  protected fresh(): HistogramCell {
    return { counts: new Float64Array(this.buckets.length + 1), sum: 0, count: 0 };
  }

  observe(values: readonly string[], v: number): void {
    const c = this.cellOf(values);
    const b = this.buckets;
    let i = 0;
    while (i < b.length && v > b[i]) i++;
    c.counts[i]++;
    c.sum += v;
    c.count++;
  }

  getForPromString(): MetricData {
    const values: Value[] = [];
    const bucketName = `${this.name}_bucket`;
    for (const { labels, cell } of this.cells.values()) {
      let acc = 0;
      this.buckets.forEach((le, i) => {
        acc += cell.counts[i];
        values.push({ labels: { le: String(le) }, sharedLabels: labels, value: acc, metricName: bucketName });
      });
      values.push(
        { labels: { le: '+Inf' }, sharedLabels: labels, value: cell.count, metricName: bucketName },
        { labels: {}, sharedLabels: labels, value: cell.sum, metricName: `${this.name}_sum` },
        { labels: {}, sharedLabels: labels, value: cell.count, metricName: `${this.name}_count` },
      );
    }
    return { name: this.name, help: this.help, type: 'histogram', values, aggregator: 'sum' };
  }
}
