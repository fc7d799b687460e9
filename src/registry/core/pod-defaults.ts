// The defaults kube applies to a pod template (pkg/apis/core/v1/defaults.go), so a
// template stored by kapi reads back as it would from kube-apiserver.

import { withNullCreationTimestamp } from '../../machinery/meta.js';

interface Port {
  protocol?: string;
}
interface Container {
  image?: string;
  imagePullPolicy?: string;
  terminationMessagePath?: string;
  terminationMessagePolicy?: string;
  resources?: Record<string, unknown>;
  ports?: Port[];
}

/** Always for `:latest` or an untagged image, IfNotPresent otherwise (digests count as tags). */
export function defaultPullPolicy(image: string | undefined): string {
  if (!image) return 'IfNotPresent';
  if (image.includes('@')) return 'IfNotPresent';
  const lastSlash = image.lastIndexOf('/');
  const tail = image.slice(lastSlash + 1);
  const colon = tail.lastIndexOf(':');
  if (colon < 0) return 'Always';
  return tail.slice(colon + 1) === 'latest' ? 'Always' : 'IfNotPresent';
}

function defaultContainer(c: Container): void {
  c.terminationMessagePath ??= '/dev/termination-log';
  c.terminationMessagePolicy ??= 'File';
  c.imagePullPolicy ??= defaultPullPolicy(c.image);
  c.resources ??= {};
  for (const p of c.ports ?? []) p.protocol ??= 'TCP';
}

export function defaultPodSpec(spec: Record<string, unknown>): void {
  spec.restartPolicy ??= 'Always';
  spec.terminationGracePeriodSeconds ??= 30;
  spec.dnsPolicy ??= 'ClusterFirst';
  spec.securityContext ??= {};
  spec.schedulerName ??= 'default-scheduler';
  for (const list of ['containers', 'initContainers'] as const) {
    const cs = spec[list];
    if (Array.isArray(cs)) for (const c of cs) if (c && typeof c === 'object') defaultContainer(c as Container);
  }
}

export function defaultPodTemplate(template: { metadata?: Record<string, unknown>; spec?: Record<string, unknown> }): void {
  template.metadata = withNullCreationTimestamp(template.metadata ?? {});
  template.spec ??= {};
  defaultPodSpec(template.spec);
}
