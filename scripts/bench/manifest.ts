// Realistic ~1 KB StatefulSet manifests, built cheaply from a pre-serialized template.

const NAME_MARK = '__BENCH_NAME__';

function template(): object {
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: {
      name: NAME_MARK,
      labels: {
        app: 'bench',
        tier: 'backend',
        'app.kubernetes.io/name': 'bench',
        'app.kubernetes.io/component': 'database',
        'app.kubernetes.io/managed-by': 'kapi-bench',
      },
      annotations: {
        'kapi.dev/bench': 'true',
        'kapi.dev/description': 'benchmark statefulset used to measure create, get and list throughput',
      },
    },
    spec: {
      replicas: 3,
      serviceName: 'bench',
      podManagementPolicy: 'OrderedReady',
      selector: { matchLabels: { app: 'bench' } },
      template: {
        metadata: { labels: { app: 'bench', tier: 'backend' } },
        spec: {
          terminationGracePeriodSeconds: 10,
          containers: [
            {
              name: 'nginx',
              image: 'nginx:1.25',
              imagePullPolicy: 'IfNotPresent',
              ports: [
                { name: 'web', containerPort: 80, protocol: 'TCP' },
                { name: 'metrics', containerPort: 9113, protocol: 'TCP' },
              ],
              env: [{ name: 'NGINX_ENTRYPOINT_QUIET_LOGS', value: '1' }],
              resources: {
                requests: { cpu: '100m', memory: '128Mi' },
                limits: { cpu: '500m', memory: '256Mi' },
              },
              readinessProbe: { httpGet: { path: '/', port: 80 }, periodSeconds: 5 },
              volumeMounts: [{ name: 'www', mountPath: '/usr/share/nginx/html' }],
            },
          ],
        },
      },
      volumeClaimTemplates: [
        {
          metadata: { name: 'www' },
          spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
        },
      ],
    },
  };
}

const json = JSON.stringify(template());
const [PRE, POST] = json.split(NAME_MARK) as [string, string];

/** The JSON manifest (as a Buffer) of StatefulSet `name`. */
export function statefulSetBody(name: string): Buffer {
  return Buffer.from(PRE + name + POST, 'utf8');
}

/** The object form (for in-process storage baselines). */
export function statefulSetObject(name: string, namespace: string): Record<string, unknown> {
  const o = JSON.parse(PRE + name + POST) as { metadata: Record<string, unknown> };
  o.metadata.namespace = namespace;
  return o;
}

export const MANIFEST_BYTES = Buffer.byteLength(PRE + 'bench-00000' + POST);

export function namespaceBody(name: string): Buffer {
  return Buffer.from(JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } }), 'utf8');
}

export function stsCollectionPath(ns: string): string {
  return `/apis/apps/v1/namespaces/${ns}/statefulsets`;
}

export function stsPath(ns: string, name: string): string {
  return `/apis/apps/v1/namespaces/${ns}/statefulsets/${name}`;
}

export const PRIORITY_CLASSES_PATH = '/apis/scheduling.k8s.io/v1/priorityclasses';

/** 100 bytes of description text. */
export const DESCRIPTION_100 = 'kapi bench priority class used to measure paged lists, watch fan-out and resident memory per object.'.padEnd(100, '.').slice(0, 100);

/** A small PriorityClass (~230 B of JSON): cluster-scoped and cheap to validate. */
export function priorityClassBody(name: string, annotations?: Record<string, string>, description = DESCRIPTION_100): Buffer {
  const metadata: Record<string, unknown> = { name };
  if (annotations) metadata.annotations = annotations;
  return Buffer.from(
    JSON.stringify({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata, value: 1000, description }),
    'utf8',
  );
}
