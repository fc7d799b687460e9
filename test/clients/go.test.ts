// client-go v0.33 against kapi, speaking one content type only: builds test/clients/go/clientset
// once (a Go program using kubernetes.Clientset with ContentType and AcceptContentTypes set to
// that type) and runs it twice against fresh kapis: protobuf (application/vnd.kubernetes.protobuf)
// and CBOR (application/cbor, with client-go's ClientsAllowCBOR gate on, against a kapi started
// with --feature-gates CBORServingAndStorage=true). The program creates, gets, updates, lists
// (label selectors), watches (MODIFIED, DELETED) and deletes StatefulSets, creates/gets a
// Namespace, PriorityClasses and PodDisruptionBudgets; then, for every served resource, creates,
// gets, lists, watches (ADDED, MODIFIED, DELETED), updates the status where there is one, and
// deletes an object; reads and writes a StatefulSet's autoscaling/v1 Scale. It checks that fields
// round-trip and match a JSON read of the same object, and that every response it got was in its
// type (errors included; the watch as protobuf ;stream=watch or application/cbor-seq). It also
// compares kapi's bytes with apimachinery's encoding of the same objects: in protobuf byte for
// byte, objects and lists of every served kind and the Scale. It prints one JSON line and exits
// non-zero on any mismatch. The protobuf run authenticates with a service account's bearer token
// (a kubeconfig as a workload holds one), the CBOR run with the admin's client certificate.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, startKapi, type KapiProcess } from '../support/server.js';
import { RESOURCE_DEFS } from '../../src/registry/all.js';
import { serviceAccountKubeconfig } from '../support/service-account.js';
import {
  BUILD_TIMEOUT_MS,
  buildClientset,
  describeRun,
  RUN_TIMEOUT_MS,
  runClientset,
  type ClientRun,
  type ClientsetBinary,
  type ContentType,
} from './go-clientset.js';

const PROTOBUF = 'application/vnd.kubernetes.protobuf';
const CBOR = 'application/cbor';
const CBOR_SEQ = 'application/cbor-seq';

const SHARED_STEPS = [
  'namespace.create',
  'namespace.get',
  'priorityclass.create',
  'priorityclass.get',
  'pdb.create',
  'pdb.get',
  'statefulset.create',
  'statefulset.get',
  'statefulset.update',
  'statefulset.create-more',
  'statefulset.list',
  'statefulset.watch',
  'statefulset.update2',
  'statefulset.delete',
  'statefulset.watch-events',
  'errors',
  'kinds',
  'scale',
];

/** The watch events each resource's round trip sees (a status update is a MODIFIED; deleting a
 * namespace or a pod first marks it, as kube does). */
const WATCHED: Record<string, string[]> = {
  namespaces: ['ADDED', 'MODIFIED', 'DELETED'],
  pods: ['ADDED', 'MODIFIED', 'MODIFIED', 'DELETED'],
  // The pvc-protection finalizer: the delete marks the claim (MODIFIED), the protection controller lets it go.
  persistentvolumeclaims: ['ADDED', 'MODIFIED', 'MODIFIED', 'DELETED'],
  controllerrevisions: ['ADDED', 'DELETED'],
  statefulsets: ['ADDED', 'MODIFIED', 'DELETED'],
  poddisruptionbudgets: ['ADDED', 'MODIFIED', 'DELETED'],
  priorityclasses: ['ADDED', 'DELETED'],
  roles: ['ADDED', 'DELETED'],
  clusterroles: ['ADDED', 'DELETED'],
  rolebindings: ['ADDED', 'DELETED'],
  clusterrolebindings: ['ADDED', 'DELETED'],
  serviceaccounts: ['ADDED', 'DELETED'],
  leases: ['ADDED', 'DELETED'],
  services: ['ADDED', 'MODIFIED', 'DELETED'],
  nodes: ['ADDED', 'MODIFIED', 'DELETED'],
  events: ['ADDED', 'DELETED'],
  'events.events.k8s.io': ['ADDED', 'DELETED'],
  // A Bound volume keeps its pv-protection finalizer: the delete only marks it, as on kube.
  persistentvolumes: ['ADDED', 'MODIFIED', 'MODIFIED'],
  storageclasses: ['ADDED', 'DELETED'],
  ipaddresses: ['ADDED', 'DELETED'],
};

/** The program's name of a resource: the plural, qualified by the group where two groups share it (events). */
const keyOf = (def: (typeof RESOURCE_DEFS)[number]): string =>
  def.group && RESOURCE_DEFS.some((o) => o !== def && o.resource === def.resource) ? `${def.resource}.${def.group}` : def.resource;

/** The resources whose round trip updates the status subresource. */
const WITH_STATUS = new Set(['pods', 'persistentvolumeclaims', 'statefulsets', 'poddisruptionbudgets', 'services', 'nodes', 'persistentvolumes']);

let bin: ClientsetBinary | undefined;

beforeAll(async () => {
  bin = await buildClientset();
}, BUILD_TIMEOUT_MS + 60_000);

afterAll(async () => {
  await bin?.remove();
});

interface Mode {
  title: string;
  contentType: ContentType;
  kapiArgs: string[];
  namespace: string;
  /** What the program authenticates with: the admin kubeconfig's certificate, or a service account's token. */
  credential: 'admin' | 'service-account';
  /** Steps the program runs in this mode only, after the shared ones. */
  extraSteps: string[];
  /** Name of the test that every exchange used the mode's content type. */
  spokeOnly: string;
  requestType: string;
  watchResponseType: string;
  isResponseType(contentType: string): boolean;
}

function clientsetAgainstKapi(mode: Mode): void {
  describe(mode.title, () => {
    let k: KapiProcess | undefined;
    let client: ClientRun;

    beforeAll(async () => {
      if (!bin) throw new Error('the clientset program was not built');
      k = await startKapi({ args: mode.kapiArgs });
      const kubeconfig = mode.credential === 'admin' ? k.kubeconfig : (await serviceAccountKubeconfig(k, 'go-client', 'kube-system')).kubeconfig;
      client = await runClientset(bin.path, mode.contentType, kubeconfig);
    }, RUN_TIMEOUT_MS + 60_000);

    afterAll(async () => {
      await k?.stop();
      if (k) await removeDir(k.dataDir);
    });

    it('exits 0 with no mismatches', () => {
      const { run, results } = client;
      expect(results, describeRun(client)).toBeDefined();
      expect(results!.failures, describeRun(client)).toEqual([]);
      expect(run.code, describeRun(client)).toBe(0);
      expect(results!.ok).toBe(true);
      expect(results!.checks).toBeGreaterThan(150);
    });

    it('ran every step', () => {
      expect(client.results?.steps).toEqual([...SHARED_STEPS, ...mode.extraSteps]);
    });

    it(mode.spokeOnly, () => {
      const r = client.results!;
      expect(r.requests).toBeGreaterThan(25);
      expect(Object.keys(r.requestContentTypes)).toEqual([mode.requestType]);
      // the StatefulSet watch, then one per served resource
      expect(r.responseContentTypes[mode.watchResponseType]).toBe(1 + RESOURCE_DEFS.length);
      const others = Object.keys(r.responseContentTypes).filter((t) => !mode.isResponseType(t));
      expect(others, `responses in another type: ${JSON.stringify(r.responseContentTypes)}`).toEqual([]);
    });

    it('StatefulSet: update, label-selector lists, watch MODIFIED then DELETED', () => {
      const r = client.results!;
      expect(r.statefulSet).toMatchObject({ containers: 1, ports: 3, env: 5, volumeClaimTemplates: 1, replicasAfterWatch: 7, generation: 3 });
      expect(r.listCounts).toEqual({
        '': 3,
        'app=pb-client': 2,
        'app=pb-client,role=primary': 1,
        'role in (primary,replica)': 3,
        'app!=pb-client': 1,
        'app.kubernetes.io/managed-by': 2,
        '!app.kubernetes.io/managed-by': 1,
        'app=nothing': 0,
      });
      expect(r.watchEvents).toEqual(['MODIFIED web replicas=7', 'DELETED web replicas=7']);
      expect(r.errors).toEqual({ getDeleted: 'NotFound', createDuplicate: 'AlreadyExists' });
    });

    it('Namespace, PriorityClass and PodDisruptionBudget', () => {
      const r = client.results!;
      expect(r.namespace).toMatchObject({ name: mode.namespace, phase: 'Active', finalizers: ['kubernetes'] });
      expect(r.priorityClass).toEqual({ name: 'pb-client-high', value: 1000000, preemptionPolicy: 'Never' });
      expect(r.podDisruptionBudget).toEqual({ name: 'pb-client-pdb', minAvailable: '2' });
    });

    it('every served resource: create, get, list, watch, status, delete', () => {
      const kinds = client.results!.kinds ?? {};
      expect(Object.keys(kinds).sort()).toEqual(RESOURCE_DEFS.map(keyOf).sort());
      for (const def of RESOURCE_DEFS) {
        const key = keyOf(def);
        const k = kinds[key]!;
        expect(k, key).toMatchObject({ created: true, got: true, listed: 1, deleted: true, watched: WATCHED[key] });
        expect(k.status ?? false, key).toBe(WITH_STATUS.has(key));
        // kapi's protobuf bytes of the object and its list are apimachinery's.
        expect(k.encoding?.length ?? 0, key).toBe(mode.contentType === 'protobuf' ? 2 : 0);
      }
    });

    it('the autoscaling/v1 Scale subresource', () => {
      expect(client.results!.scale).toEqual({ before: 4, after: 6 });
    });

    if (mode.contentType === 'protobuf') {
      it('kapi\'s protobuf is apimachinery\'s, byte for byte, for the objects and lists left', () => {
        expect(client.results!.encodings).toHaveLength(9);
      });
    }
  });
}

clientsetAgainstKapi({
  title: 'client-go v0.33 protobuf-only clientset against kapi',
  contentType: 'protobuf',
  kapiArgs: [],
  namespace: 'pb-client',
  credential: 'service-account',
  // kapi's protobuf bytes against apimachinery's encoder for the same objects.
  extraSteps: ['encoding'],
  spokeOnly: 'spoke protobuf only, both ways (watch as ;stream=watch)',
  requestType: PROTOBUF,
  watchResponseType: `${PROTOBUF};stream=watch`,
  isResponseType: (t) => t.startsWith(PROTOBUF),
});

clientsetAgainstKapi({
  title: 'client-go v0.33 CBOR-only clientset against kapi',
  contentType: 'cbor',
  kapiArgs: ['--feature-gates', 'CBORServingAndStorage=true'],
  namespace: 'cbor-client',
  credential: 'admin',
  // kapi's CBOR bytes against apimachinery's encoder for the same objects.
  extraSteps: ['encoding'],
  spokeOnly: 'spoke CBOR only, both ways (watch as application/cbor-seq)',
  requestType: CBOR,
  watchResponseType: CBOR_SEQ,
  isResponseType: (t) => t === CBOR || t === CBOR_SEQ,
});
