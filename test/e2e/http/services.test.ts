// Services over HTTP: defaults, ClusterIP and NodePort allocation (IPAddress objects and per-port
// keys, through the store), release, kube 1.33's answers to bad and clashing requests (recorded
// from kube-apiserver v1.33.13), dry runs, concurrency, restarts, exhausted ranges, the
// `kubernetes` Service the server keeps, tables and field selectors.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKapi, stopKapi, type KapiProcess } from '../../support/server.js';
import { WatchStream, eventually, expectCode, expectFailure, expectInvalid, http, uniq, MERGE, type Obj } from './helpers.js';

let k: KapiProcess;
const NS = 'default';
const SVC = (name = ''): string => `/api/v1/namespaces/${NS}/services${name ? '/' + name : ''}`;
const IP = (name = ''): string => `/apis/networking.k8s.io/v1/ipaddresses${name ? '/' + name : ''}`;
const TABLE = { accept: 'application/json;as=Table;g=meta.k8s.io;v=v1' };

function svc(name: string, spec: Obj): Obj {
  return { apiVersion: 'v1', kind: 'Service', metadata: { name }, spec };
}

/** 10.96.0.0/12 without the network and broadcast addresses. */
function inServiceRange(ip: string): boolean {
  const p = ip.split('.').map(Number);
  const v = ((p[0]! << 24) | (p[1]! << 16) | (p[2]! << 8) | p[3]!) >>> 0;
  const base = (10 << 24) | (96 << 16);
  return v > base && v < base + (1 << 20) - 1;
}

beforeAll(async () => {
  k = await startKapi();
});

afterAll(() => stopKapi(k));

describe('allocation', () => {
  it('a ClusterIP service gets an address of the range, its IPAddress object, and kube 1.33 defaults', async () => {
    const name = uniq('s');
    const created = expectCode(await http(k, 'POST', SVC(), svc(name, { ports: [{ port: 80 }], selector: { app: 'web' } })), 201);
    const s = created.spec;
    expect(inServiceRange(s.clusterIP), s.clusterIP).toBe(true);
    expect(s).toEqual({
      ports: [{ protocol: 'TCP', port: 80, targetPort: 80 }],
      selector: { app: 'web' },
      clusterIP: s.clusterIP,
      clusterIPs: [s.clusterIP],
      type: 'ClusterIP',
      sessionAffinity: 'None',
      ipFamilies: ['IPv4'],
      ipFamilyPolicy: 'SingleStack',
      internalTrafficPolicy: 'Cluster',
    });
    expect(created.status).toEqual({ loadBalancer: {} });
    // Allocated values are nobody's fields (kube allocates after the field manager ran).
    const fields = JSON.stringify(created.metadata.managedFields);
    expect(fields).not.toContain('clusterIP');
    expect(fields).not.toContain('ipFamil');
    const ip = expectCode(await http(k, 'GET', IP(s.clusterIP)), 200);
    expect(ip.metadata.labels).toEqual({ 'ipaddress.kubernetes.io/ip-family': 'IPv4', 'ipaddress.kubernetes.io/managed-by': 'ipallocator.k8s.io' });
    expect(ip.spec).toEqual({ parentRef: { resource: 'services', namespace: NS, name } });
    expect(ip.metadata.managedFields[0].manager).toBe('kube-apiserver');
    // Deleting the service gives the address back.
    const deleted = expectCode(await http(k, 'DELETE', SVC(name)), 200);
    expect(deleted.kind).toBe('Service');
    await eventually('the IPAddress to go', async () => (await http(k, 'GET', IP(s.clusterIP))).status === 404);
  });

  it('a NodePort service gets node ports; headless and ExternalName services get no address', async () => {
    const np = expectCode(await http(k, 'POST', SVC(), svc(uniq('np'), { type: 'NodePort', ports: [{ port: 80, name: 'a' }, { port: 81, name: 'b', protocol: 'UDP' }] })), 201);
    for (const p of np.spec.ports) expect(p.nodePort >= 30000 && p.nodePort <= 32767, String(p.nodePort)).toBe(true);
    expect(np.spec.ports[0].nodePort).not.toBe(np.spec.ports[1].nodePort);
    expect(np.spec.externalTrafficPolicy).toBe('Cluster');
    // Recorded from kube-apiserver 1.33: headless with a selector is single-stack, without one dual.
    const withSel = expectCode(await http(k, 'POST', SVC(), svc(uniq('h'), { clusterIP: 'None', ports: [{ port: 80 }], selector: { a: 'b' } })), 201);
    expect(withSel.spec).toEqual({
      ports: [{ protocol: 'TCP', port: 80, targetPort: 80 }],
      selector: { a: 'b' },
      clusterIP: 'None',
      clusterIPs: ['None'],
      type: 'ClusterIP',
      sessionAffinity: 'None',
      ipFamilies: ['IPv4'],
      ipFamilyPolicy: 'SingleStack',
      internalTrafficPolicy: 'Cluster',
    });
    const noSel = expectCode(await http(k, 'POST', SVC(), svc(uniq('h'), { clusterIP: 'None', ports: [{ port: 80 }] })), 201);
    expect(noSel.spec.ipFamilies).toEqual(['IPv4', 'IPv6']);
    expect(noSel.spec.ipFamilyPolicy).toBe('RequireDualStack');
    const ext = expectCode(await http(k, 'POST', SVC(), svc(uniq('e'), { type: 'ExternalName', externalName: 'example.com' })), 201);
    expect(ext.spec).toEqual({ type: 'ExternalName', sessionAffinity: 'None', externalName: 'example.com' });
    const lb = expectCode(await http(k, 'POST', SVC(), svc(uniq('lb'), { type: 'LoadBalancer', ports: [{ port: 80 }] })), 201);
    expect(lb.spec.allocateLoadBalancerNodePorts).toBe(true);
    expect(lb.spec.ports[0].nodePort).toBeGreaterThanOrEqual(30000);
  });

  it("kube's answers to taken, foreign and malformed addresses and ports", async () => {
    const taken = expectCode(await http(k, 'POST', SVC(), svc(uniq('t'), { type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] })), 201);
    const ip = taken.spec.clusterIP as string;
    const name = uniq('c');
    expectInvalid(await http(k, 'POST', SVC(), svc(name, { clusterIP: ip, ports: [{ port: 80 }] })), {
      kind: 'Service',
      group: '',
      name,
      message: `Service "${name}" is invalid: spec.clusterIPs: Invalid value: []string{"${ip}"}: failed to allocate IP ${ip}: provided IP is already allocated`,
      causes: [{ reason: 'FieldValueInvalid', field: 'spec.clusterIPs', message: `Invalid value: []string{"${ip}"}: failed to allocate IP ${ip}: provided IP is already allocated` }],
    });
    for (const outside of ['10.200.0.1', '10.96.0.0', '10.111.255.255']) {
      const r = await http(k, 'POST', SVC(), svc(name, { clusterIP: outside, ports: [{ port: 80 }] }));
      expect(r.status).toBe(422);
      expect((r.json as Obj).message).toBe(
        `Service "${name}" is invalid: spec.clusterIPs: Invalid value: []string{"${outside}"}: failed to allocate IP ${outside}: the provided network does not match the current range`,
      );
    }
    expectInvalid(await http(k, 'POST', SVC(), svc(name, { clusterIP: 'bogus', ports: [{ port: 80 }] })), {
      kind: 'Service',
      group: '',
      name,
      message: `Service "${name}" is invalid: spec.clusterIPs[0]: Invalid value: "bogus": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)`,
      causes: [{ reason: 'FieldValueInvalid', field: 'spec.clusterIPs[0]', message: 'Invalid value: "bogus": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)' }],
    });
    expectInvalid(await http(k, 'POST', SVC(), svc(name, { type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] })), {
      kind: 'Service',
      group: '',
      name,
      message: `Service "${name}" is invalid: spec.ports[0].nodePort: Invalid value: 30080: provided port is already allocated`,
      causes: [{ reason: 'FieldValueInvalid', field: 'spec.ports[0].nodePort', message: 'Invalid value: 30080: provided port is already allocated' }],
    });
    expectInvalid(await http(k, 'POST', SVC(), svc(name, { type: 'NodePort', ports: [{ port: 80, nodePort: 80 }] })), {
      kind: 'Service',
      group: '',
      name,
      message: `Service "${name}" is invalid: spec.ports[0].nodePort: Invalid value: 80: provided port is not in the valid range. The range of valid ports is 30000-32767`,
      causes: [{ reason: 'FieldValueInvalid', field: 'spec.ports[0].nodePort', message: 'Invalid value: 80: provided port is not in the valid range. The range of valid ports is 30000-32767' }],
    });
    expectInvalid(await http(k, 'POST', SVC(), svc(name, { ipFamilyPolicy: 'RequireDualStack', ports: [{ port: 80 }] })), {
      kind: 'Service',
      group: '',
      name,
      message: `Service "${name}" is invalid: spec.ipFamilyPolicy: Invalid value: "RequireDualStack": this cluster is not configured for dual-stack services`,
      causes: [{ reason: 'FieldValueInvalid', field: 'spec.ipFamilyPolicy', message: 'Invalid value: "RequireDualStack": this cluster is not configured for dual-stack services' }],
    });
    expectInvalid(await http(k, 'POST', SVC(), svc(name, { ipFamilies: ['IPv6'], ports: [{ port: 80 }] })), {
      kind: 'Service',
      group: '',
      name,
      message: `Service "${name}" is invalid: spec.ipFamilies[0]: Invalid value: "IPv6": not configured on this cluster`,
      causes: [{ reason: 'FieldValueInvalid', field: 'spec.ipFamilies[0]', message: 'Invalid value: "IPv6": not configured on this cluster' }],
    });
    // A failed create gives back what it allocated: the address it asked for is free again.
    const free = '10.96.7.7';
    const bad = await http(k, 'POST', SVC(), svc(name, { clusterIP: free, type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] }));
    expect(bad.status).toBe(422);
    expect((await http(k, 'GET', IP(free))).status).toBe(404);
    expectCode(await http(k, 'POST', SVC(), svc(uniq('f'), { clusterIP: free, ports: [{ port: 80 }] })), 201);
  });

  it('clusterIP may not change; a type change releases what the new type does not use', async () => {
    const name = uniq('u');
    const created = expectCode(await http(k, 'POST', SVC(), svc(name, { type: 'NodePort', ports: [{ port: 80, nodePort: 30181 }] })), 201);
    const ip = created.spec.clusterIP as string;
    const r = await http(k, 'PATCH', SVC(name), { spec: { clusterIP: '10.96.0.50', clusterIPs: ['10.96.0.50'] } }, MERGE);
    expectInvalid(r, {
      kind: 'Service',
      group: '',
      name,
      message: `Service "${name}" is invalid: spec.clusterIPs[0]: Invalid value: []string{"10.96.0.50"}: may not change once set`,
      causes: [{ reason: 'FieldValueInvalid', field: 'spec.clusterIPs[0]', message: 'Invalid value: []string{"10.96.0.50"}: may not change once set' }],
    });
    // NodePort to ClusterIP: the node port goes (and is free for another service), the address stays.
    const toCluster = expectCode(await http(k, 'PATCH', SVC(name), { spec: { type: 'ClusterIP' } }, MERGE), 200);
    expect(toCluster.spec.ports).toEqual([{ protocol: 'TCP', port: 80, targetPort: 80 }]);
    expect(toCluster.spec.clusterIP).toBe(ip);
    expect(toCluster.spec.externalTrafficPolicy).toBeUndefined();
    expectCode(await http(k, 'POST', SVC(), svc(uniq('p'), { type: 'NodePort', ports: [{ port: 80, nodePort: 30181 }] })), 201);
    // To ExternalName: the address is released; back to ClusterIP: a new one is allocated.
    const toExt = expectCode(await http(k, 'PATCH', SVC(name), { spec: { type: 'ExternalName', externalName: 'example.com' } }, MERGE), 200);
    expect(toExt.spec.clusterIP).toBeUndefined();
    expect(toExt.spec.ipFamilies).toBeUndefined();
    await eventually('the released IPAddress to go', async () => (await http(k, 'GET', IP(ip))).status === 404);
    const back = expectCode(await http(k, 'PATCH', SVC(name), { spec: { type: 'ClusterIP' } }, MERGE), 200);
    expect(inServiceRange(back.spec.clusterIP)).toBe(true);
    expectCode(await http(k, 'GET', IP(back.spec.clusterIP)), 200);
    // A PUT of what was read keeps working (allocated values carried over when left out).
    delete back.spec.clusterIP;
    delete back.spec.clusterIPs;
    const put = expectCode(await http(k, 'PUT', SVC(name), back), 200);
    expect(put.spec.clusterIPs).toEqual([put.spec.clusterIP]);
  });

  it('an address spelt with a leading zero is held and released by its canonical form', async () => {
    const name = uniq('zero');
    const created = expectCode(await http(k, 'POST', SVC(), svc(name, { clusterIP: '10.96.203.025', ports: [{ port: 80 }] })), 201);
    expect(created.spec.clusterIPs).toEqual(['10.96.203.025']);
    expect(expectCode(await http(k, 'GET', IP('10.96.203.25')), 200).spec.parentRef.name).toBe(name);
    expectCode(await http(k, 'DELETE', SVC(name)), 200);
    await eventually('its address released', async () => (await http(k, 'GET', IP('10.96.203.25'))).status === 404);
  });

  it('dry runs answer as kube does and allocate nothing', async () => {
    const name = uniq('d');
    const dry = expectCode(await http(k, 'POST', `${SVC()}?dryRun=All`, svc(name, { type: 'NodePort', ports: [{ port: 80 }] })), 201);
    // kube's dry-run allocators answer the network address and a dummy port past the range.
    expect(dry.spec.clusterIP).toBe('10.96.0.0');
    expect(dry.spec.ports[0].nodePort).toBe(32769);
    expect((await http(k, 'GET', SVC(name))).status).toBe(404);
    // A dry run does not check whether a given address is taken, only that it is in range.
    expectCode(await http(k, 'POST', `${SVC()}?dryRun=All`, svc(name, { clusterIP: '10.96.0.1', ports: [{ port: 80 }] })), 201);
    const r = await http(k, 'POST', `${SVC()}?dryRun=All`, svc(name, { clusterIP: '10.200.0.1', ports: [{ port: 80 }] }));
    expect((r.json as Obj).message).toBe(
      `Service "${name}" is invalid: spec.clusterIPs: Invalid value: []string{"10.200.0.1"}: failed to allocate IP 10.200.0.1: the provided IP (10.200.0.1) is not in the valid range. The range of valid IPs is 10.96.0.0/12`,
    );
  });

  it('50 concurrent creates get 50 distinct addresses', async () => {
    const names = Array.from({ length: 50 }, () => uniq('cc'));
    const res = await Promise.all(names.map((n) => http(k, 'POST', SVC(), svc(n, { type: 'NodePort', ports: [{ port: 80 }] }))));
    const ips = res.map((r) => expectCode(r, 201).spec.clusterIP as string);
    const ports = res.map((r) => (r.json as Obj).spec.ports[0].nodePort as number);
    expect(new Set(ips).size).toBe(50);
    expect(new Set(ports).size).toBe(50);
    const list = expectCode(await http(k, 'GET', IP()), 200);
    const owned = list.items.filter((i: Obj) => names.includes(i.spec.parentRef.name));
    expect(owned.map((i: Obj) => i.metadata.name).sort()).toEqual([...ips].sort());
  });

  it('apply twice is a no-op: the allocated address stays and is nobody else\'s field', async () => {
    const name = uniq('ap');
    const cfg = JSON.stringify(svc(name, { ports: [{ name: 'http', port: 80, targetPort: 8080 }], selector: { app: name } }));
    const apply = { 'content-type': 'application/apply-patch+yaml' };
    const first = expectCode(await http(k, 'PATCH', `${SVC(name)}?fieldManager=me`, cfg, apply), 201);
    const second = expectCode(await http(k, 'PATCH', `${SVC(name)}?fieldManager=me`, cfg, apply), 200);
    expect(second.spec.clusterIP).toBe(first.spec.clusterIP);
    expect(second.metadata.resourceVersion).toBe(first.metadata.resourceVersion);
  });
});

describe('validation (kube-apiserver 1.33 answers)', () => {
  it('names, ports, protocols, affinity, external addresses and types', async () => {
    const r = await http(k, 'POST', SVC(), svc('C13', { ports: [{ port: 80 }, { port: 80, name: 'Bad_Name' }], type: 'Foo', sessionAffinity: 'X', externalIPs: ['127.0.0.1', '1.2.3'] }));
    expect(r.status).toBe(422);
    expect((r.json as Obj).message).toBe(
      'Service "C13" is invalid: [metadata.name: Invalid value: "C13": a DNS-1035 label must consist of lower case alphanumeric characters or \'-\', start with an alphabetic character, and end with an alphanumeric character (e.g. \'my-name\',  or \'abc-123\', regex used for validation is \'[a-z]([-a-z0-9]*[a-z0-9])?\'), spec.ports[0].name: Required value, spec.ports[1].name: Invalid value: "Bad_Name": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or \'-\', and must start and end with an alphanumeric character (e.g. \'my-name\',  or \'123-abc\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?\'), spec.sessionAffinity: Unsupported value: "X": supported values: "ClientIP", "None", spec.externalIPs[0]: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128), spec.externalIPs[1]: Invalid value: "1.2.3": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff), spec.type: Unsupported value: "Foo": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort", spec.ports[1]: Duplicate value: core.ServicePort{Name:"", Protocol:"TCP", AppProtocol:(*string)(nil), Port:80, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:0}]',
    );
    const lb = await http(k, 'POST', SVC(), svc('c14', { type: 'LoadBalancer', ports: [{ port: 80, protocol: 'ICMP', targetPort: 'http_x' }], externalTrafficPolicy: 'Local', loadBalancerSourceRanges: ['1.2.3.4/33'] }));
    expect((lb.json as Obj).message).toBe(
      'Service "c14" is invalid: [spec.ports[0].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP", spec.ports[0].targetPort: Invalid value: "http_x": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-), spec.LoadBalancerSourceRanges[0]: Invalid value: "1.2.3.4/33": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)]',
    );
    const aff = await http(k, 'POST', SVC(), svc('c15', { ports: [{ port: 80, nodePort: 30090 }], sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: { timeoutSeconds: 0 } } }));
    expect((aff.json as Obj).message).toBe(
      "Service \"c15\" is invalid: [spec.sessionAffinityConfig.clientIP.timeoutSeconds: Invalid value: 0: must be greater than 0 and less than 86400, spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP']",
    );
    expectInvalid(await http(k, 'POST', SVC(), svc('c16', {})), {
      kind: 'Service',
      group: '',
      name: 'c16',
      message: 'Service "c16" is invalid: spec.ports: Required value',
      causes: [{ reason: 'FieldValueRequired', field: 'spec.ports', message: 'Required value' }],
    });
  });

  it('the status: load balancer ingress only for LoadBalancer services', async () => {
    const name = uniq('st');
    expectCode(await http(k, 'POST', SVC(), svc(name, { clusterIP: 'None', ports: [{ port: 80 }] })), 201);
    const r = await http(k, 'PUT', SVC(`${name}/status`), { metadata: { name }, status: { loadBalancer: { ingress: [{ ip: '1.2.3.4' }] } } });
    expectInvalid(r, {
      kind: 'Service',
      group: '',
      name,
      message: `Service "${name}" is invalid: status.loadBalancer.ingress: Forbidden: may only be used when \`spec.type\` is 'LoadBalancer'`,
      causes: [{ reason: 'FieldValueForbidden', field: 'status.loadBalancer.ingress', message: "Forbidden: may only be used when `spec.type` is 'LoadBalancer'" }],
    });
    const lb = expectCode(await http(k, 'POST', SVC(), svc(uniq('lbs'), { type: 'LoadBalancer', ports: [{ port: 80 }] })), 201);
    const lbName = lb.metadata.name as string;
    // As in kube 1.33: a PUT without the spec is defaulted as a ClusterIP service (no ipMode
    // default), then takes the old spec; an address without ipMode is then refused.
    const put = await http(k, 'PUT', SVC(`${lbName}/status`), { metadata: { name: lbName }, status: { loadBalancer: { ingress: [{ ip: '203.0.113.9' }] } } });
    expect((put.json as Obj).message).toBe(`Service "${lbName}" is invalid: status.loadBalancer.ingress[0].ipMode: Required value: must be specified when \`ip\` is set`);
    // A patch keeps the spec, and the address defaults to a VIP.
    const withIngress = expectCode(await http(k, 'PATCH', SVC(`${lbName}/status`), { status: { loadBalancer: { ingress: [{ ip: '203.0.113.9' }] } } }, MERGE), 200);
    expect(withIngress.status.loadBalancer.ingress).toEqual([{ ip: '203.0.113.9', ipMode: 'VIP' }]);
    const t = expectCode(await http(k, 'GET', SVC(lbName), undefined, TABLE), 200);
    expect(t.rows[0].cells[3]).toBe('203.0.113.9');
  });
});

describe('the kubernetes Service', () => {
  it('exists with the first address of the range and the server\'s port, and comes back when deleted', async () => {
    const s = expectCode(await http(k, 'GET', SVC('kubernetes')), 200);
    const port = Number(new URL(k.url).port);
    expect(s.metadata.labels).toEqual({ component: 'apiserver', provider: 'kubernetes' });
    expect(s.spec.clusterIP).toBe('10.96.0.1');
    expect(s.spec.ports).toEqual([{ name: 'https', protocol: 'TCP', port: 443, targetPort: port }]);
    expectCode(await http(k, 'GET', IP('10.96.0.1')), 200);
    expectCode(await http(k, 'DELETE', SVC('kubernetes')), 200);
    await eventually('the kubernetes Service to come back', async () => (await http(k, 'GET', SVC('kubernetes'))).status === 200, 15_000);
    expect(expectCode(await http(k, 'GET', SVC('kubernetes')), 200).spec.clusterIP).toBe('10.96.0.1');
  });
});

describe('reading services', () => {
  it('Table columns and cells as kube prints them', async () => {
    const name = uniq('tb');
    expectCode(await http(k, 'POST', SVC(), svc(name, { type: 'NodePort', ports: [{ port: 80, nodePort: 30280 }, { port: 53, protocol: 'UDP', name: 'dns' }].map((p, i) => ({ ...p, name: i ? 'dns' : 'web' })), selector: { b: '2', a: '1' } })), 201);
    const t = expectCode(await http(k, 'GET', SVC(name), undefined, TABLE), 200);
    expect(t.columnDefinitions.map((c: Obj) => [c.name, c.priority])).toEqual([
      ['Name', 0],
      ['Type', 0],
      ['Cluster-IP', 0],
      ['External-IP', 0],
      ['Port(s)', 0],
      ['Age', 0],
      ['Selector', 1],
    ]);
    const cells = t.rows[0].cells as unknown[];
    expect(cells[1]).toBe('NodePort');
    expect(cells[3]).toBe('<none>');
    expect(cells[4]).toMatch(/^80:30280\/TCP,53:3\d{4}\/UDP$/);
    expect(cells[6]).toBe('a=1,b=2');
    const ext = expectCode(await http(k, 'POST', SVC(), svc(uniq('tx'), { type: 'ExternalName', externalName: 'db.example.com' })), 201);
    const te = expectCode(await http(k, 'GET', SVC(ext.metadata.name), undefined, TABLE), 200);
    expect([te.rows[0].cells[2], te.rows[0].cells[3], te.rows[0].cells[4], te.rows[0].cells[6]]).toEqual(['<none>', 'db.example.com', '<none>', '<none>']);
  });

  it('field selectors spec.type and spec.clusterIP; others are refused as kube words it', async () => {
    const name = uniq('fs');
    const created = expectCode(await http(k, 'POST', SVC(), svc(name, { type: 'NodePort', ports: [{ port: 80 }] })), 201);
    const byIP = expectCode(await http(k, 'GET', `${SVC()}?fieldSelector=spec.clusterIP%3D${created.spec.clusterIP}`), 200);
    expect(byIP.items.map((i: Obj) => i.metadata.name)).toEqual([name]);
    const byType = expectCode(await http(k, 'GET', `${SVC()}?fieldSelector=spec.type%3DExternalName`), 200);
    expect(byType.items.every((i: Obj) => i.spec.type === 'ExternalName')).toBe(true);
    expectFailure(await http(k, 'GET', `${SVC()}?fieldSelector=spec.ports%3Dx`), { code: 400, reason: 'BadRequest', message: 'field label not supported: spec.ports' });
  });

  it('watch: ADDED, MODIFIED, DELETED', async () => {
    const name = uniq('w');
    const list = expectCode(await http(k, 'GET', SVC()), 200);
    const w = await WatchStream.open(k, `${SVC()}?watch=true&resourceVersion=${list.metadata.resourceVersion}&fieldSelector=metadata.name%3D${name}`);
    try {
      expectCode(await http(k, 'POST', SVC(), svc(name, { ports: [{ port: 80 }] })), 201);
      expectCode(await http(k, 'PATCH', SVC(name), { metadata: { labels: { x: 'y' } } }, MERGE), 200);
      expectCode(await http(k, 'DELETE', SVC(name)), 200);
      const evs = await w.changes(3);
      expect(evs.map((e) => e.type)).toEqual(['ADDED', 'MODIFIED', 'DELETED']);
      expect(evs[1]!.object.metadata.labels).toEqual({ x: 'y' });
    } finally {
      w.close();
    }
  });
});

describe('allocations across restarts and in small ranges', () => {
  it('a restart keeps what is allocated', async () => {
    const a = await startKapi();
    try {
      const created = expectCode(await http(a, 'POST', SVC(), svc('keep', { type: 'NodePort', clusterIP: '10.96.9.9', ports: [{ port: 80, nodePort: 31999 }] })), 201);
      expect(created.spec.clusterIP).toBe('10.96.9.9');
      await a.stop();
      const b = await startKapi({ dataDir: a.dataDir });
      try {
        const again = await http(b, 'POST', SVC(), svc('other', { clusterIP: '10.96.9.9', ports: [{ port: 80 }] }));
        expect((again.json as Obj).message).toBe(
          'Service "other" is invalid: spec.clusterIPs: Invalid value: []string{"10.96.9.9"}: failed to allocate IP 10.96.9.9: provided IP is already allocated',
        );
        const port = await http(b, 'POST', SVC(), svc('other', { type: 'NodePort', ports: [{ port: 80, nodePort: 31999 }] }));
        expect((port.json as Obj).message).toBe('Service "other" is invalid: spec.ports[0].nodePort: Invalid value: 31999: provided port is already allocated');
        // The kubernetes Service was not created twice.
        expect(expectCode(await http(b, 'GET', IP('10.96.0.1')), 200).spec.parentRef.name).toBe('kubernetes');
        // Deleting frees both for the next service.
        expectCode(await http(b, 'DELETE', SVC('keep')), 200);
        await eventually('the release', async () => (await http(b, 'GET', IP('10.96.9.9'))).status === 404);
        expectCode(await http(b, 'POST', SVC(), svc('other', { type: 'NodePort', clusterIP: '10.96.9.9', ports: [{ port: 80, nodePort: 31999 }] })), 201);
      } finally {
        await b.stop();
      }
    } finally {
      await stopKapi(a);
    }
  });

  it('the repair at start takes back leaked addresses and retakes lost ones, as kube\'s RepairIPAddress', async () => {
    const a = await startKapi();
    const ipObj = (name: string, labels: Obj, parentRef: Obj): Obj => ({ apiVersion: 'networking.k8s.io/v1', kind: 'IPAddress', metadata: { name, labels }, spec: { parentRef } });
    const managed = { 'ipaddress.kubernetes.io/managed-by': 'ipallocator.k8s.io' };
    try {
      expectCode(await http(a, 'POST', SVC(), svc('held', { clusterIP: '10.96.7.7', ports: [{ port: 80 }] })), 201);
      // The allocator's address pointing at no Service goes; another manager's stays.
      expectCode(await http(a, 'POST', IP(), ipObj('10.96.8.8', managed, { group: 'apps', resource: 'deployments', namespace: NS, name: 'x' })), 201);
      expectCode(await http(a, 'POST', IP(), ipObj('10.96.8.9', { 'ipaddress.kubernetes.io/managed-by': 'someone.example.com' }, { group: '', resource: 'services', namespace: NS, name: 'gone' })), 201);
      // The Service still holds an address whose object was deleted: the repair takes it again.
      expectCode(await http(a, 'DELETE', IP('10.96.7.7')), 200);
      await a.stop();
      const b = await startKapi({ dataDir: a.dataDir });
      try {
        await eventually('the leaked address released', async () => (await http(b, 'GET', IP('10.96.8.8'))).status === 404);
        await eventually('the lost address taken again', async () => (await http(b, 'GET', IP('10.96.7.7'))).status === 200);
        expect(expectCode(await http(b, 'GET', IP('10.96.7.7')), 200).spec.parentRef).toEqual({ resource: 'services', namespace: NS, name: 'held' });
        expectCode(await http(b, 'GET', IP('10.96.8.9')), 200);
      } finally {
        await b.stop();
      }
    } finally {
      await stopKapi(a);
    }
  });

  it('an exhausted range answers kube\'s error, also under concurrent creates', async () => {
    const small = await startKapi({ args: ['--service-cluster-ip-range', '10.0.0.0/29', '--service-node-port-range', '30000-30001'] });
    try {
      expect(expectCode(await http(small, 'GET', SVC('kubernetes')), 200).spec.clusterIP).toBe('10.0.0.1');
      // Five addresses are left (.2 to .6); ten creates race for them.
      const res = await Promise.all(Array.from({ length: 10 }, (_, i) => http(small, 'POST', SVC(), svc(`s${i}`, { ports: [{ port: 80 }] }))));
      const created = res.filter((r) => r.status === 201).map((r) => (r.json as Obj).metadata.name as string);
      const ok = res.filter((r) => r.status === 201).map((r) => (r.json as Obj).spec.clusterIP as string);
      expect(ok.sort()).toEqual(['10.0.0.2', '10.0.0.3', '10.0.0.4', '10.0.0.5', '10.0.0.6']);
      const full = res.filter((r) => r.status !== 201);
      expect(full).toHaveLength(5);
      for (const r of full) {
        // kube-apiserver 1.33 answers a full range as an internal error.
        expectFailure(r, {
          code: 500,
          reason: 'InternalError',
          message: 'Internal error occurred: failed to allocate a serviceIP: range is full',
          details: { causes: [{ message: 'failed to allocate a serviceIP: range is full' }] },
        });
      }
      // Node ports: two in the range; a third NodePort service fails (and gives its address back).
      for (const n of created.slice(0, 3)) expectCode(await http(small, 'DELETE', SVC(n)), 200);
      expectCode(await http(small, 'POST', SVC(), svc('n1', { type: 'NodePort', ports: [{ port: 80 }] })), 201);
      expectCode(await http(small, 'POST', SVC(), svc('n2', { type: 'NodePort', ports: [{ port: 80 }] })), 201);
      expectFailure(await http(small, 'POST', SVC(), svc('n3', { type: 'NodePort', ports: [{ port: 80 }] })), {
        code: 500,
        reason: 'InternalError',
        message: 'Internal error occurred: failed to allocate a nodePort: range is full',
        details: { causes: [{ message: 'failed to allocate a nodePort: range is full' }] },
      });
      expectCode(await http(small, 'POST', SVC(), svc('n4', { ports: [{ port: 80 }] })), 201);
    } finally {
      await stopKapi(small);
    }
  });

  it('refuses a malformed range at start', async () => {
    await expect(startKapi({ args: ['--service-cluster-ip-range', '10.0.0.0/99'] })).rejects.toThrow(/service-cluster-ip-range/);
  });
});
