// A deprecated API served (ComponentStatus, deprecated in 1.19 and still served by kube
// 1.33): the Warning header worded as kube's, the apiserver_requested_deprecated_apis gauge,
// kubectl showing the warning; and the metrics' own life cycle (stability levels, hidden
// deprecated metrics behind --show-hidden-metrics-for-version). Checked against
// kube-apiserver v1.33.13.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, kubectl, removeDir, startKapi, type KapiProcess } from '../../support/server.js';
import { WatchStream } from './helpers.js';

let k: KapiProcess;
let hidden: KapiProcess;

beforeAll(async () => {
  [k, hidden] = await Promise.all([startKapi(), startKapi({ args: ['--show-hidden-metrics-for-version', '1.32'] })]);
});

afterAll(async () => {
  for (const p of [k, hidden]) {
    await p?.stop();
    if (p) await removeDir(p.dataDir);
  }
});

const WARNING = '299 - "v1 ComponentStatus is deprecated in v1.19+"';

describe('ComponentStatus, a deprecated API', () => {
  it('lists the control plane with the deprecation warning', async () => {
    const r = await http(k, 'GET', '/api/v1/componentstatuses');
    expect(r.status).toBe(200);
    expect(r.headers.get('warning')).toBe(WARNING);
    const list = r.json as { kind: string; apiVersion: string; metadata: object; items: { metadata: { name: string }; conditions: object[] }[] };
    expect(list).toMatchObject({ kind: 'ComponentStatusList', apiVersion: 'v1', metadata: {} });
    expect(list.items.map((i) => i.metadata.name)).toEqual(['controller-manager', 'scheduler', 'leveldb']);
    expect(list.items[0]).toEqual({ metadata: { name: 'controller-manager', creationTimestamp: null }, conditions: [{ type: 'Healthy', status: 'True', message: 'ok' }] });
    // Nothing listens where kube looks for a scheduler: kube's own words for that.
    expect(list.items[1].conditions).toEqual([
      { type: 'Healthy', status: 'False', message: 'Get "https://127.0.0.1:10259/healthz": dial tcp 127.0.0.1:10259: connect: connection refused' },
    ]);
  });

  it('gets one, and 404s an unknown one, with the warning', async () => {
    const r = await http(k, 'GET', '/api/v1/componentstatuses/leveldb');
    expect(r.headers.get('warning')).toBe(WARNING);
    expect(r.json).toEqual({
      kind: 'ComponentStatus',
      apiVersion: 'v1',
      metadata: { name: 'leveldb', creationTimestamp: null },
      conditions: [{ type: 'Healthy', status: 'True', message: 'ok' }],
    });
    const nf = await http(k, 'GET', '/api/v1/componentstatuses/foo');
    expect(nf.status).toBe(404);
    expect(nf.headers.get('warning')).toBe(WARNING);
    expect(nf.json).toMatchObject({ reason: 'NotFound', message: 'componentstatus "foo" not found', details: { name: 'foo', kind: 'componentstatus' } });
  });

  it('refuses a watch (with the warning) and writes (without: no route of the resource takes them)', async () => {
    const w = await http(k, 'GET', '/api/v1/componentstatuses?watch=1');
    expect(w.status).toBe(405);
    expect(w.headers.get('warning')).toBe(WARNING);
    expect(w.json).toMatchObject({ reason: 'MethodNotAllowed', message: 'watch is not supported on resources of kind "componentstatuses"', details: { kind: 'componentstatuses' } });
    const p = await http(k, 'POST', '/api/v1/componentstatuses', {});
    expect(p.status).toBe(405);
    expect(p.headers.get('warning')).toBeNull();
  });

  it('kubectl shows the table and the warning', async () => {
    const r = await kubectl(k, ['get', 'cs']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('Warning: v1 ComponentStatus is deprecated in v1.19+\n');
    const lines = r.stdout.trimEnd().split('\n').map((l) => l.split(/\s{2,}/));
    expect(lines[0]).toEqual(['NAME', 'STATUS', 'MESSAGE', 'ERROR']);
    expect(lines.slice(1).map((l) => l.slice(0, 2))).toEqual([
      ['controller-manager', 'Healthy'],
      ['scheduler', 'Unhealthy'],
      ['leveldb', 'Healthy'],
    ]);
    const explain = await kubectl(k, ['explain', 'componentstatus.conditions']);
    expect(explain.code).toBe(0);
    expect(explain.stdout).toMatch(/FIELD: conditions <\[\]ComponentCondition>/);
  });

  it('sets apiserver_requested_deprecated_apis, beside apiserver_request_total', async () => {
    await http(k, 'GET', '/api/v1/componentstatuses');
    const text = (await http(k, 'GET', '/metrics')).text;
    expect(text).toContain(
      '# HELP apiserver_requested_deprecated_apis [STABLE] Gauge of deprecated APIs that have been requested, broken out by API group, version, resource, subresource, and removed_release.',
    );
    expect(text).toContain('apiserver_requested_deprecated_apis{group="",version="v1",resource="componentstatuses",subresource="",removed_release=""} 1');
    expect(text).toMatch(/apiserver_request_total\{verb="LIST",dry_run="",group="",version="v1",resource="componentstatuses",subresource="",scope="cluster",component="apiserver",code="200"\} \d+/);
    // A request to a served, current API leaves it alone.
    expect(text).not.toMatch(/apiserver_requested_deprecated_apis\{[^}]*resource="namespaces"/);
  });
});

describe('metrics as kube publishes them', () => {
  it('carry their stability level and kube\'s names and labels', async () => {
    await http(k, 'GET', '/api/v1/namespaces');
    const text = (await http(k, 'GET', '/metrics')).text;
    for (const line of [
      '# HELP apiserver_request_total [STABLE] Counter of apiserver requests',
      '# HELP apiserver_request_duration_seconds [STABLE] Response latency distribution',
      '# HELP apiserver_request_sli_duration_seconds [ALPHA] Response latency distribution (not counting webhook duration',
      '# HELP apiserver_current_inflight_requests [STABLE] Maximal number of currently used inflight request limit',
      '# HELP apiserver_longrunning_requests [STABLE] Gauge of all active long-running apiserver requests',
      '# HELP apiserver_storage_objects [STABLE] Number of stored objects',
      '# HELP apiserver_storage_size_bytes [STABLE] Size of the storage database file physically allocated in bytes.',
      '# HELP etcd_request_duration_seconds [ALPHA] Etcd request latency in seconds for each operation and object type.',
      '# HELP etcd_requests_total [ALPHA] Etcd request counts for each operation and object type.',
      '# HELP apiserver_watch_events_total [ALPHA] Number of events sent in watch clients',
      '# HELP kubernetes_feature_enabled [BETA]',
      '# HELP process_resident_memory_bytes ',
      '# HELP nodejs_heap_size_used_bytes ',
    ]) {
      expect(text, line).toContain(line);
    }
    expect(text).toMatch(/^etcd_requests_total\{operation="create",type="namespaces"\} \d+$/m);
    expect(text).toMatch(/^apiserver_storage_size_bytes\{storage_cluster_id="leveldb"\} [1-9]\d*$/m);
    // Declarative validation (the gate is on): no served type has declarative rules in 1.33,
    // so nothing differs, as kube 1.33 shows them.
    for (const [name, help] of [
      ['apiserver_validation_declarative_validation_mismatch_total', 'Number of times declarative validation results differed from handwritten validation results for core types.'],
      ['apiserver_validation_declarative_validation_panic_total', 'Number of times declarative validation has panicked during validation.'],
    ]) {
      expect(text).toContain(`# HELP ${name} [BETA] ${help}\n# TYPE ${name} counter\n${name} 0\n`);
    }
    // Deprecated before 1.33 and hidden: not on /metrics.
    expect(text).not.toContain('apiserver_request_slo_duration_seconds');
    expect(text).not.toContain('apiserver_storage_db_total_size_in_bytes');
  });

  it('a watch counts as a long-running request while it streams, and its events are counted', async () => {
    const w = await WatchStream.open(k, '/api/v1/namespaces?watch=1');
    await w.take(1);
    const during = (await http(k, 'GET', '/metrics')).text;
    expect(during).toMatch(/^apiserver_longrunning_requests\{verb="WATCH",group="",version="v1",resource="namespaces",subresource="",scope="cluster",component="apiserver"\} 1$/m);
    expect(during).toMatch(/^apiserver_watch_events_total\{group="",version="v1",kind="Namespace"\} [1-9]\d*$/m);
    w.close();
    await expect.poll(async () => (await http(k, 'GET', '/metrics')).text).toMatch(/^apiserver_longrunning_requests\{verb="WATCH",[^}]*resource="namespaces"[^}]*\} 0$/m);
  });

  it('--show-hidden-metrics-for-version=1.32 shows the hidden ones, marked deprecated, with kube\'s warning', async () => {
    await http(hidden, 'GET', '/api/v1/namespaces');
    const text = (await http(hidden, 'GET', '/metrics')).text;
    expect(text).toContain(
      '# HELP apiserver_request_slo_duration_seconds [ALPHA] (Deprecated since 1.27.0) Response latency distribution (not counting webhook duration and priority & fairness queue wait times) in seconds for each verb, group, version, resource, subresource, scope and component.',
    );
    expect(text).toContain('# HELP apiserver_storage_db_total_size_in_bytes [ALPHA] (Deprecated since 1.28.0) Total size of the storage database file physically allocated in bytes.');
    expect(text).toMatch(/^apiserver_request_slo_duration_seconds_count\{verb="LIST",group="",version="v1",resource="namespaces"/m);
    expect(hidden.logs()).toContain('Hidden metrics (apiserver_request_slo_duration_seconds) have been manually overridden, showing this very deprecated metric.');
  });
});
