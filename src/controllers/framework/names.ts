// kube-controller-manager 1.33's --controllers flag: its controller names and aliases, '*'
// (every controller on by default), 'name' and '-name', checked and resolved as its
// GenericControllerManagerConfigurationOptions does. kapi runs a few of these controllers; the
// others are known names that select nothing here.

/** Every controller kube-controller-manager 1.33 knows, with its aliases (cmd/kube-controller-manager/app). */
export const KNOWN_CONTROLLERS: Readonly<Record<string, readonly string[]>> = {
  'bootstrap-signer-controller': ['bootstrapsigner'],
  'certificatesigningrequest-approving-controller': ['csrapproving'],
  'certificatesigningrequest-cleaner-controller': ['csrcleaner'],
  'certificatesigningrequest-signing-controller': ['csrsigning'],
  'cloud-node-lifecycle-controller': ['cloud-node-lifecycle'],
  'clusterrole-aggregation-controller': ['clusterrole-aggregation'],
  'cronjob-controller': ['cronjob'],
  'daemonset-controller': ['daemonset'],
  'deployment-controller': ['deployment'],
  'device-taint-eviction-controller': [],
  'disruption-controller': ['disruption'],
  'endpoints-controller': ['endpoint'],
  'endpointslice-controller': ['endpointslice'],
  'endpointslice-mirroring-controller': ['endpointslicemirroring'],
  'ephemeral-volume-controller': ['ephemeral-volume'],
  'garbage-collector-controller': ['garbagecollector'],
  'horizontal-pod-autoscaler-controller': ['horizontalpodautoscaling'],
  'job-controller': ['job'],
  'kube-apiserver-serving-clustertrustbundle-publisher-controller': [],
  'legacy-serviceaccount-token-cleaner-controller': ['legacy-service-account-token-cleaner'],
  'namespace-controller': ['namespace'],
  'node-ipam-controller': ['nodeipam'],
  'node-lifecycle-controller': ['nodelifecycle'],
  'node-route-controller': ['route'],
  'persistentvolume-attach-detach-controller': ['attachdetach'],
  'persistentvolume-binder-controller': ['persistentvolume-binder'],
  'persistentvolume-expander-controller': ['persistentvolume-expander'],
  'persistentvolume-protection-controller': ['pv-protection'],
  'persistentvolumeclaim-protection-controller': ['pvc-protection'],
  'pod-garbage-collector-controller': ['podgc'],
  'replicaset-controller': ['replicaset'],
  'replicationcontroller-controller': ['replicationcontroller'],
  'resourceclaim-controller': ['resource-claim-controller'],
  'resourcequota-controller': ['resourcequota'],
  'root-ca-certificate-publisher-controller': ['root-ca-cert-publisher'],
  'selinux-warning-controller': [],
  'service-cidr-controller': [],
  'service-lb-controller': ['service'],
  'serviceaccount-controller': ['serviceaccount'],
  'serviceaccount-token-controller': ['serviceaccount-token'],
  'statefulset-controller': ['statefulset'],
  'storage-version-migrator-controller': ['svm'],
  'storageversion-garbage-collector-controller': ['storage-version-gc'],
  'taint-eviction-controller': [],
  'token-cleaner-controller': ['tokencleaner'],
  'ttl-after-finished-controller': ['ttl-after-finished'],
  'ttl-controller': ['ttl'],
  'validatingadmissionpolicy-status-controller': [],
  'volumeattributesclass-protection-controller': [],
};

/** Off unless named (kube's isDisabledByDefault). */
export const DISABLED_BY_DEFAULT = new Set(['bootstrap-signer-controller', 'selinux-warning-controller', 'token-cleaner-controller']);

const ALIASES: ReadonlyMap<string, string> = new Map(Object.entries(KNOWN_CONTROLLERS).flatMap(([name, aliases]) => aliases.map((a) => [a, name] as [string, string])));

/**
 * The --controllers values with aliases replaced by canonical names (`-alias` becomes
 * `-name`); throws kube's message for a name it does not know.
 */
export function resolveControllers(values: readonly string[]): string[] {
  const errs: string[] = [];
  const out = values.map((v) => {
    if (v === '*') return v;
    const bare = v.startsWith('-') ? v.slice(1) : v;
    const name = ALIASES.get(bare) ?? bare;
    if (!(name in KNOWN_CONTROLLERS)) errs.push(`${JSON.stringify(bare)} is not in the list of known controllers`);
    return v.startsWith('-') ? `-${name}` : name;
  });
  if (errs.length) throw new Error(errs.join(', '));
  return out;
}

/** kube's IsControllerEnabled: an explicit name or -name wins (first match); else '*' enables the default ones. */
export function controllerEnabled(name: string, controllers: readonly string[]): boolean {
  let star = false;
  for (const c of controllers) {
    if (c === name) return true;
    if (c === `-${name}`) return false;
    if (c === '*') star = true;
  }
  return star && !DISABLED_BY_DEFAULT.has(name);
}
