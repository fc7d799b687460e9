// kube-apiserver's --enable-admission-plugins and --disable-admission-plugins: the names kube
// 1.33 knows are accepted (an unknown one fails the start as kube's), and the plugins kapi
// implements (ServiceAccount, Priority, DefaultTolerationSeconds, RuntimeClass,
// DefaultStorageClass, StorageObjectInUseProtection) run unless disabled. Those kapi does not
// have stay off whatever the flags say.

/** The admission plugins kube-apiserver 1.33 registers. */
const KUBE_PLUGINS = new Set([
  'AlwaysAdmit',
  'AlwaysDeny',
  'AlwaysPullImages',
  'CertificateApproval',
  'CertificateSigning',
  'CertificateSubjectRestriction',
  'ClusterTrustBundleAttest',
  'DefaultIngressClass',
  'DefaultStorageClass',
  'DefaultTolerationSeconds',
  'DenyServiceExternalIPs',
  'EventRateLimit',
  'ExtendedResourceToleration',
  'ImagePolicyWebhook',
  'LimitPodHardAntiAffinityTopology',
  'LimitRanger',
  'MutatingAdmissionPolicy',
  'MutatingAdmissionWebhook',
  'NamespaceAutoProvision',
  'NamespaceExists',
  'NamespaceLifecycle',
  'NodeRestriction',
  'OwnerReferencesPermissionEnforcement',
  'PersistentVolumeClaimResize',
  'PodNodeSelector',
  'PodSecurity',
  'PodTolerationRestriction',
  'PodTopologyLabels',
  'Priority',
  'ResourceQuota',
  'RuntimeClass',
  'ServiceAccount',
  'StorageObjectInUseProtection',
  'TaintNodesByCondition',
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionWebhook',
]);

/** The plugins kapi implements, by the name the flags use. */
export type AdmissionPlugin = 'ServiceAccount' | 'Priority' | 'DefaultTolerationSeconds' | 'RuntimeClass' | 'DefaultStorageClass' | 'StorageObjectInUseProtection';

/** The plugins turned off, from the two flags' comma-separated lists (kube's error for a name it does not know). */
export function disabledAdmissionPlugins(enable: string[], disable: string[]): string[] {
  const names = (flags: string[]) => flags.flatMap((f) => f.split(',')).map((s) => s.trim()).filter((s) => s !== '');
  for (const [flag, list] of [
    ['enable-admission-plugins', names(enable)],
    ['disable-admission-plugins', names(disable)],
  ] as const) {
    for (const p of list) if (!KUBE_PLUGINS.has(p)) throw new Error(`${flag} plugin ${JSON.stringify(p)} is unknown`);
  }
  return names(disable);
}
