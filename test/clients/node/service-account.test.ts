// @kubernetes/client-node as a workload would use it: a kubeconfig holding a service account's
// bearer token (issued through the `token` subresource, which the client itself asks for) and
// the server's CA. It reads who it is, creates, watches and deletes with that token alone.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { AuthenticationV1Api, CoreV1Api, KubeConfig, Watch, type V1Pod } from '@kubernetes/client-node';
import { startKapi, stopKapi, type KapiProcess } from '../../support/server.js';
import { serviceAccountKubeconfig } from '../../support/service-account.js';

let k: KapiProcess;

beforeAll(async () => {
  k = await startKapi();
});

afterAll(() => stopKapi(k));

it('authenticates with a service account token and works with it', async () => {
  // The admin's client asks for the token, as `kubectl create token` does.
  const admin = new KubeConfig();
  admin.loadFromFile(k.kubeconfig);
  await admin.makeApiClient(CoreV1Api).createNamespacedServiceAccount({ namespace: 'default', body: { metadata: { name: 'node-client' } } });
  const tr = await admin.makeApiClient(CoreV1Api).createNamespacedServiceAccountToken({
    name: 'node-client',
    namespace: 'default',
    body: { spec: { audiences: [], expirationSeconds: 3600 } },
  });
  expect(tr.status?.token).toMatch(/^eyJ/);

  const { kubeconfig } = await serviceAccountKubeconfig(k, 'node-client');
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfig);
  expect(kc.getCurrentUser()?.token).toMatch(/^eyJ/);
  expect(kc.getCurrentUser()?.certData).toBeFalsy();

  const me = await kc.makeApiClient(AuthenticationV1Api).createSelfSubjectReview({ body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' } });
  expect(me.status?.userInfo?.username).toBe('system:serviceaccount:default:node-client');
  expect(me.status?.userInfo?.groups).toEqual(['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated']);

  const core = kc.makeApiClient(CoreV1Api);
  const seen: string[] = [];
  const list = await core.listNamespacedPod({ namespace: 'default' });
  const watch = await new Watch(kc).watch(
    '/api/v1/namespaces/default/pods',
    { resourceVersion: list.metadata?.resourceVersion },
    (type: string, obj: V1Pod) => seen.push(`${type} ${obj.metadata?.name}`),
    () => undefined,
  );
  try {
    const pod = await core.createNamespacedPod({ namespace: 'default', body: { metadata: { name: 'by-sa' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } });
    expect(pod.spec?.serviceAccountName).toBe('default');
    await core.deleteNamespacedPod({ name: 'by-sa', namespace: 'default', gracePeriodSeconds: 0 });
    await expect.poll(() => seen.at(-1), { timeout: 5000 }).toBe('DELETED by-sa');
    expect(seen[0]).toBe('ADDED by-sa');
  } finally {
    watch.abort();
  }
});
