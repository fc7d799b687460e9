// Descriptions for every served type and field, keyed by OpenAPI definition name
// (`io.k8s.api.apps.v1.StatefulSetSpec`) or definition name plus JSON field name
// (`io.k8s.api.apps.v1.StatefulSetSpec.updateStrategy`). They feed OpenAPI v2/v3 and
// `kubectl explain`. Field names follow upstream; the prose is kapi's own.

export const DESCRIPTIONS: Record<string, string> = {
  'io.k8s.api.apps.v1.ControllerRevision':
    'An immutable snapshot of state data kept by a controller (such as the StatefulSet or DaemonSet controller) so it can track revisions and roll back. Its content is never changed after creation.',
  'io.k8s.api.apps.v1.ControllerRevision.apiVersion':
    'The group/version the body is written in, always `apps/v1` here. The server uses it to pick the schema for decoding and rejects versions it does not serve.',
  'io.k8s.api.apps.v1.ControllerRevision.data':
    'The serialized state captured by this revision; its contents are up to the controller that wrote it.',
  'io.k8s.api.apps.v1.ControllerRevision.kind':
    'The REST resource type of this object, always `ControllerRevision` here. Servers fill it in on responses, and clients should send it so the body can be decoded without outside context.',
  'io.k8s.api.apps.v1.ControllerRevision.metadata':
    'The object\'s name, namespace, labels, annotations and other metadata shared by all persisted objects.',
  'io.k8s.api.apps.v1.ControllerRevision.revision':
    'The number of this revision within its owner\'s history. Required.',
  'io.k8s.api.apps.v1.ControllerRevisionList':
    'A list of ControllerRevision objects.',
  'io.k8s.api.apps.v1.ControllerRevisionList.apiVersion':
    'The group/version the body is written in, always `apps/v1` here. The server uses it to pick the schema for decoding and rejects versions it does not serve.',
  'io.k8s.api.apps.v1.ControllerRevisionList.items':
    'The ControllerRevisions in the list.',
  'io.k8s.api.apps.v1.ControllerRevisionList.kind':
    'The REST resource type of this object, always `ControllerRevisionList` here. Servers fill it in on responses, and clients should send it so the body can be decoded without outside context.',
  'io.k8s.api.apps.v1.ControllerRevisionList.metadata':
    'The resource version the list was read at, plus paging information.',
  'io.k8s.api.apps.v1.RollingUpdateStatefulSetStrategy':
    'Parameters for a StatefulSet rolling update.',
  'io.k8s.api.apps.v1.RollingUpdateStatefulSetStrategy.maxUnavailable':
    'The most pods that may be unavailable at once during the update, as a number (such as `2`) or a percentage of replicas (such as `10%`, rounded up). Must not be 0; defaults to 1. Alpha: only honored where the MaxUnavailableStatefulSet feature is enabled.',
  'io.k8s.api.apps.v1.RollingUpdateStatefulSetStrategy.partition':
    'Only pods with an ordinal greater than or equal to this number are moved to the new revision; lower ordinals keep the old one, even if recreated. Useful for staged rollouts. Defaults to 0, updating every pod.',
  'io.k8s.api.apps.v1.StatefulSet':
    'Runs a set of pods that each keep a stable identity: an ordinal-based name, a stable hostname through a governing service, and their own persistent volume claims that survive rescheduling.',
  'io.k8s.api.apps.v1.StatefulSet.apiVersion':
    'The group/version the body is written in, always `apps/v1` here. The server uses it to pick the schema for decoding and rejects versions it does not serve.',
  'io.k8s.api.apps.v1.StatefulSet.kind':
    'The REST resource type of this object, always `StatefulSet` here. Servers fill it in on responses, and clients should send it so the body can be decoded without outside context.',
  'io.k8s.api.apps.v1.StatefulSet.metadata':
    'The object\'s name, namespace, labels, annotations and other metadata shared by all persisted objects.',
  'io.k8s.api.apps.v1.StatefulSet.spec':
    'The desired state: how many replicas, the pod template, per-pod storage and how updates are rolled out.',
  'io.k8s.api.apps.v1.StatefulSet.status':
    'The most recently observed state of the set, reported by the controller. May lag behind the spec.',
  'io.k8s.api.apps.v1.StatefulSetCondition':
    'One observed aspect of a StatefulSet\'s state at a point in time.',
  'io.k8s.api.apps.v1.StatefulSetCondition.lastTransitionTime':
    'When `status` last changed.',
  'io.k8s.api.apps.v1.StatefulSetCondition.message':
    'Human-readable details about the last change of the condition.',
  'io.k8s.api.apps.v1.StatefulSetCondition.reason':
    'A short CamelCase word explaining why the condition last changed.',
  'io.k8s.api.apps.v1.StatefulSetCondition.status':
    'Whether the condition holds: `True`, `False` or `Unknown`.',
  'io.k8s.api.apps.v1.StatefulSetCondition.type':
    'The kind of condition.',
  'io.k8s.api.apps.v1.StatefulSetList':
    'A list of StatefulSet objects.',
  'io.k8s.api.apps.v1.StatefulSetList.apiVersion':
    'The group/version the body is written in, always `apps/v1` here. The server uses it to pick the schema for decoding and rejects versions it does not serve.',
  'io.k8s.api.apps.v1.StatefulSetList.items':
    'The StatefulSets in the list.',
  'io.k8s.api.apps.v1.StatefulSetList.kind':
    'The REST resource type of this object, always `StatefulSetList` here. Servers fill it in on responses, and clients should send it so the body can be decoded without outside context.',
  'io.k8s.api.apps.v1.StatefulSetList.metadata':
    'The resource version the list was read at, plus paging information.',
  'io.k8s.api.apps.v1.StatefulSetOrdinals':
    'Options for numbering the replicas of a StatefulSet.',
  'io.k8s.api.apps.v1.StatefulSetOrdinals.start':
    'The first ordinal to use. Replicas are numbered `start` through `start + replicas - 1`, which lets a set take over a numbered range from another set. Defaults to 0.',
  'io.k8s.api.apps.v1.StatefulSetPersistentVolumeClaimRetentionPolicy':
    'Decides what happens to claims made from a StatefulSet\'s volume claim templates once they are no longer needed.',
  'io.k8s.api.apps.v1.StatefulSetPersistentVolumeClaimRetentionPolicy.whenDeleted':
    'What to do with the claims when the StatefulSet itself is deleted: `Retain` (the default) keeps them, `Delete` removes them.',
  'io.k8s.api.apps.v1.StatefulSetPersistentVolumeClaimRetentionPolicy.whenScaled':
    'What to do with the claims of pods removed by a scale-down: `Retain` (the default) keeps them, `Delete` removes the claims that belonged to ordinals at or above the new replica count.',
  'io.k8s.api.apps.v1.StatefulSetSpec':
    'The desired state of a StatefulSet.',
  'io.k8s.api.apps.v1.StatefulSetSpec.minReadySeconds':
    'Seconds a newly created pod must be ready, with no container crashing, before it counts as available. Defaults to 0, meaning available as soon as ready.',
  'io.k8s.api.apps.v1.StatefulSetSpec.ordinals':
    'Controls the ordinal numbers given to replicas. By default they start at 0.',
  'io.k8s.api.apps.v1.StatefulSetSpec.persistentVolumeClaimRetentionPolicy':
    'Whether claims created from `volumeClaimTemplates` are kept or deleted when the set is deleted or scaled down. By default they are always kept.',
  'io.k8s.api.apps.v1.StatefulSetSpec.podManagementPolicy':
    'How pods are created and removed when scaling: `OrderedReady` (the default) handles one pod at a time in ordinal order, waiting for each to be ready; `Parallel` launches or terminates all of them at once. It does not affect rolling updates. Immutable.',
  'io.k8s.api.apps.v1.StatefulSetSpec.replicas':
    'How many pods the set should run. Defaults to 1 when omitted; 0 scales the set down completely.',
  'io.k8s.api.apps.v1.StatefulSetSpec.revisionHistoryLimit':
    'The number of old ControllerRevisions kept for history and rollback. Defaults to 10.',
  'io.k8s.api.apps.v1.StatefulSetSpec.selector':
    'A label query that must match the labels of the pod template; it tells the controller which pods belong to the set. Required and immutable.',
  'io.k8s.api.apps.v1.StatefulSetSpec.serviceName':
    'The headless service that gives the pods their network identity, so each pod resolves as `<pod name>.<serviceName>.<namespace>.svc`. The service is expected to exist, and is not created by the controller.',
  'io.k8s.api.apps.v1.StatefulSetSpec.template':
    'The pod template each replica is created from. Each pod gets a name of the form `<set name>-<ordinal>`; the template\'s `restartPolicy` must be `Always`.',
  'io.k8s.api.apps.v1.StatefulSetSpec.updateStrategy':
    'How pods are replaced when the pod template changes. Defaults to a `RollingUpdate`.',
  'io.k8s.api.apps.v1.StatefulSetSpec.volumeClaimTemplates':
    'Templates for claims each pod gets its own copy of, named `<template name>-<set name>-<ordinal>`. Every template must be referenced by a volume mount in the pod template, and a claim template takes precedence over a template volume of the same name.',
  'io.k8s.api.apps.v1.StatefulSetStatus':
    'The observed state of a StatefulSet, written by its controller.',
  'io.k8s.api.apps.v1.StatefulSetStatus.availableReplicas':
    'The number of the set\'s pods that have been ready for at least `minReadySeconds`.',
  'io.k8s.api.apps.v1.StatefulSetStatus.collisionCount':
    'A counter the controller bumps when a new ControllerRevision\'s name clashes with an existing one; it is mixed into the name hash to avoid the clash.',
  'io.k8s.api.apps.v1.StatefulSetStatus.conditions':
    'Conditions describing the set\'s current state.',
  'io.k8s.api.apps.v1.StatefulSetStatus.currentReplicas':
    'The number of pods running the revision named in `currentRevision`.',
  'io.k8s.api.apps.v1.StatefulSetStatus.currentRevision':
    'The ControllerRevision that pods with ordinals below the update point are running.',
  'io.k8s.api.apps.v1.StatefulSetStatus.observedGeneration':
    'The most recent `metadata.generation` the controller has processed. Compare with the object\'s generation to tell whether the status is up to date.',
  'io.k8s.api.apps.v1.StatefulSetStatus.readyReplicas':
    'The number of the set\'s pods whose Ready condition is true.',
  'io.k8s.api.apps.v1.StatefulSetStatus.replicas':
    'The number of pods the controller has created for the set.',
  'io.k8s.api.apps.v1.StatefulSetStatus.updateRevision':
    'The ControllerRevision built from the current pod template; pods are moved to it during an update.',
  'io.k8s.api.apps.v1.StatefulSetStatus.updatedReplicas':
    'The number of pods running the revision named in `updateRevision`.',
  'io.k8s.api.apps.v1.StatefulSetUpdateStrategy':
    'How the StatefulSet controller replaces pods after the pod template changes.',
  'io.k8s.api.apps.v1.StatefulSetUpdateStrategy.rollingUpdate':
    'Tuning for the `RollingUpdate` strategy. Only allowed when `type` is `RollingUpdate`.',
  'io.k8s.api.apps.v1.StatefulSetUpdateStrategy.type':
    'Either `RollingUpdate` (the default), which replaces pods automatically from the highest ordinal down, or `OnDelete`, which only uses the new template once a pod has been deleted by hand.',
  'io.k8s.api.autoscaling.v1.Scale':
    'The `scale` subresource of a scalable workload: a small view of its desired and observed replica counts, used by `kubectl scale` and autoscalers.',
  'io.k8s.api.autoscaling.v1.Scale.apiVersion':
    'The group/version the body is written in, always `autoscaling/v1` here. The server uses it to pick the schema for decoding and rejects versions it does not serve.',
  'io.k8s.api.autoscaling.v1.Scale.kind':
    'The REST resource type of this object, always `Scale` here. Servers fill it in on responses, and clients should send it so the body can be decoded without outside context.',
  'io.k8s.api.autoscaling.v1.Scale.metadata':
    'Metadata of the workload being scaled.',
  'io.k8s.api.autoscaling.v1.Scale.spec':
    'The desired scale.',
  'io.k8s.api.autoscaling.v1.Scale.status':
    'The observed scale. Read-only.',
  'io.k8s.api.autoscaling.v1.ScaleSpec':
    'The desired size of a scalable resource.',
  'io.k8s.api.autoscaling.v1.ScaleSpec.replicas':
    'The number of replicas that should run.',
  'io.k8s.api.autoscaling.v1.ScaleStatus':
    'The observed size of a scalable resource.',
  'io.k8s.api.autoscaling.v1.ScaleStatus.replicas':
    'The number of replicas actually observed.',
  'io.k8s.api.autoscaling.v1.ScaleStatus.selector':
    'The label selector for the workload\'s pods, serialized as a string in the same syntax as label queries. Autoscalers use it to find the pods.',
  'io.k8s.api.coordination.v1.Lease':
    'A time-limited claim on a shared role: whoever holds it acts alone until it runs out. Controllers elect their leader with one, API servers publish their identity with one, and node agents send heartbeats with one.',
  'io.k8s.api.coordination.v1.Lease.apiVersion':
    'The group/version the body is written in, always `coordination.k8s.io/v1` here. The server uses it to pick the schema for decoding and rejects versions it does not serve.',
  'io.k8s.api.coordination.v1.Lease.kind':
    'The REST resource type of this object, always `Lease` here. Servers fill it in on responses, and clients should send it so the body can be decoded without outside context.',
  'io.k8s.api.coordination.v1.Lease.metadata':
    'The object\'s name, namespace, labels, annotations and other metadata shared by all persisted objects.',
  'io.k8s.api.coordination.v1.Lease.spec':
    'Who holds the lease, since when, and for how long.',
  'io.k8s.api.coordination.v1.LeaseList':
    'A list of Lease objects.',
  'io.k8s.api.coordination.v1.LeaseList.apiVersion':
    'The group/version the body is written in, always `coordination.k8s.io/v1` here. The server uses it to pick the schema for decoding and rejects versions it does not serve.',
  'io.k8s.api.coordination.v1.LeaseList.items':
    'The Leases in the list.',
  'io.k8s.api.coordination.v1.LeaseList.kind':
    'The REST resource type of this object, always `LeaseList` here. Servers fill it in on responses, and clients should send it so the body can be decoded without outside context.',
  'io.k8s.api.coordination.v1.LeaseList.metadata':
    'The resource version the list was read at, plus paging information.',
  'io.k8s.api.coordination.v1.LeaseSpec':
    'The state of a lease: its holder and the times that decide whether the claim still stands.',
  'io.k8s.api.coordination.v1.LeaseSpec.acquireTime':
    'When the current holder took the lease.',
  'io.k8s.api.coordination.v1.LeaseSpec.holderIdentity':
    'Who holds the lease now; empty when nobody does.',
  'io.k8s.api.coordination.v1.LeaseSpec.leaseDurationSeconds':
    'How many seconds after `renewTime` others must wait before they may take the lease over. Must be greater than 0.',
  'io.k8s.api.coordination.v1.LeaseSpec.leaseTransitions':
    'How many times the lease has changed hands. Never negative.',
  'io.k8s.api.coordination.v1.LeaseSpec.preferredHolder':
    'A candidate the current holder should hand the lease to; only used together with `strategy` (coordinated leader election, an alpha feature that is off by default).',
  'io.k8s.api.coordination.v1.LeaseSpec.renewTime':
    'When the holder last confirmed its claim.',
  'io.k8s.api.coordination.v1.LeaseSpec.strategy':
    'How coordinated leader election picks the next holder (for example `OldestEmulationVersion`). Dropped unless the CoordinatedLeaderElection feature is on.',
  'io.k8s.api.core.v1.AWSElasticBlockStoreVolumeSource':
    'An AWS Elastic Block Store volume. The volume must exist before it is used, and is formatted if needed.',
  'io.k8s.api.core.v1.AWSElasticBlockStoreVolumeSource.fsType':
    'The filesystem type, for example `ext4`, `xfs` or `ntfs`. Defaults to `ext4`.',
  'io.k8s.api.core.v1.AWSElasticBlockStoreVolumeSource.partition':
    'The partition to mount, for example 1 for `/dev/sda1`. 0 (the default) mounts the whole volume.',
  'io.k8s.api.core.v1.AWSElasticBlockStoreVolumeSource.readOnly':
    'Mount the volume read-only. Defaults to false.',
  'io.k8s.api.core.v1.AWSElasticBlockStoreVolumeSource.volumeID':
    'The unique ID of the EBS volume.',
  'io.k8s.api.core.v1.Affinity':
    'Groups the pod\'s scheduling affinity rules: constraints and preferences relative to node labels and to other pods.',
  'io.k8s.api.core.v1.Affinity.nodeAffinity':
    'Rules that tie the pod to nodes based on node labels and fields.',
  'io.k8s.api.core.v1.Affinity.podAffinity':
    'Rules that place the pod in the same topology domain (node, zone, ...) as certain other pods.',
  'io.k8s.api.core.v1.Affinity.podAntiAffinity':
    'Rules that keep the pod out of topology domains where certain other pods are running.',
  'io.k8s.api.core.v1.AppArmorProfile':
    'Which AppArmor profile to apply.',
  'io.k8s.api.core.v1.AppArmorProfile.localhostProfile':
    'For `Localhost` only: the name of the loaded profile to use. Required for `Localhost` and must be empty for other types.',
  'io.k8s.api.core.v1.AppArmorProfile.type':
    'The kind of profile: `RuntimeDefault` (the runtime\'s default profile), `Unconfined` (no profile) or `Localhost` (a profile already loaded on the node).',
  'io.k8s.api.core.v1.AttachedVolume':
    'A volume attached to a node.',
  'io.k8s.api.core.v1.AttachedVolume.devicePath':
    'Where the volume shows up on the node.',
  'io.k8s.api.core.v1.AttachedVolume.name':
    'The unique name of the volume.',
  'io.k8s.api.core.v1.AzureDiskVolumeSource':
    'Deprecated: an Azure data disk attached to the node.',
  'io.k8s.api.core.v1.AzureDiskVolumeSource.cachingMode':
    'How the host caches disk I/O: `None`, `ReadOnly` or `ReadWrite`.',
  'io.k8s.api.core.v1.AzureDiskVolumeSource.diskName':
    'Name of the data disk within Azure blob storage.',
  'io.k8s.api.core.v1.AzureDiskVolumeSource.diskURI':
    'URI of the data disk within Azure blob storage.',
  'io.k8s.api.core.v1.AzureDiskVolumeSource.fsType':
    'The filesystem type, for example `ext4`, `xfs` or `ntfs`. Defaults to `ext4`.',
  'io.k8s.api.core.v1.AzureDiskVolumeSource.kind':
    'The disk type: `Shared` (several blob disks per storage account, the default), `Dedicated` (one blob disk per storage account) or `Managed` (an Azure managed disk).',
  'io.k8s.api.core.v1.AzureDiskVolumeSource.readOnly':
    'Mount the disk read-only. Defaults to false.',
  'io.k8s.api.core.v1.AzureFilePersistentVolumeSource':
    'Deprecated: an Azure File share.',
  'io.k8s.api.core.v1.AzureFilePersistentVolumeSource.readOnly':
    'Mount the share read-only. Defaults to false.',
  'io.k8s.api.core.v1.AzureFilePersistentVolumeSource.secretName':
    'The Secret holding the storage account name and key.',
  'io.k8s.api.core.v1.AzureFilePersistentVolumeSource.secretNamespace':
    'The namespace of the Secret; the claim\'s namespace when empty.',
  'io.k8s.api.core.v1.AzureFilePersistentVolumeSource.shareName':
    'The name of the file share.',
  'io.k8s.api.core.v1.AzureFileVolumeSource':
    'Deprecated: an Azure File share mounted via SMB.',
  'io.k8s.api.core.v1.AzureFileVolumeSource.readOnly':
    'Mount the share read-only. Defaults to false.',
  'io.k8s.api.core.v1.AzureFileVolumeSource.secretName':
    'The Secret holding the storage account name and key.',
  'io.k8s.api.core.v1.AzureFileVolumeSource.shareName':
    'The name of the file share.',
  'io.k8s.api.core.v1.Binding':
    'Assigns a pod to a node: POSTed to a pod\'s `binding` subresource (as a scheduler does), it sets the pod\'s `spec.nodeName`. A pod is bound once.',
  'io.k8s.api.core.v1.Binding.apiVersion':
    'The group/version the body is written in, always `v1` here. The server uses it to pick the schema for decoding and rejects versions it does not serve.',
  'io.k8s.api.core.v1.Binding.kind':
    'The REST resource type of this object, always `Binding` here. Servers fill it in on responses, and clients should send it so the body can be decoded without outside context.',
  'io.k8s.api.core.v1.Binding.metadata':
    'The object\'s name, namespace, labels, annotations and other metadata shared by all persisted objects.',
  'io.k8s.api.core.v1.Binding.target':
    'The node to bind the pod to: `name` is required, `kind` is `Node` or empty.',
  'io.k8s.api.core.v1.CSIPersistentVolumeSource':
    'Storage managed by an external CSI driver.',
  'io.k8s.api.core.v1.CSIPersistentVolumeSource.controllerExpandSecretRef':
    'A Secret passed to the driver\'s controller expand call.',
  'io.k8s.api.core.v1.CSIPersistentVolumeSource.controllerPublishSecretRef':
    'A Secret passed to the driver\'s controller publish and unpublish calls.',
  'io.k8s.api.core.v1.CSIPersistentVolumeSource.driver':
    'The CSI driver\'s name. Required.',
  'io.k8s.api.core.v1.CSIPersistentVolumeSource.fsType':
    'The filesystem type, such as `ext4`.',
  'io.k8s.api.core.v1.CSIPersistentVolumeSource.nodeExpandSecretRef':
    'A Secret passed to the driver\'s node expand call.',
  'io.k8s.api.core.v1.CSIPersistentVolumeSource.nodePublishSecretRef':
    'A Secret with sensitive data passed to the driver for its publish calls. May be empty if the driver needs none.',
  'io.k8s.api.core.v1.CSIPersistentVolumeSource.nodeStageSecretRef':
    'A Secret passed to the driver\'s node stage and unstage calls.',
  'io.k8s.api.core.v1.CSIPersistentVolumeSource.readOnly':
    'Mount the volume read-only.',
  'io.k8s.api.core.v1.CSIPersistentVolumeSource.volumeAttributes':
    'Driver-specific attributes of the volume.',
  'io.k8s.api.core.v1.CSIPersistentVolumeSource.volumeHandle':
    'The driver\'s ID of the volume. Required.',
  'io.k8s.api.core.v1.CSIVolumeSource':
    'A pod-scoped (inline ephemeral) volume provided by a CSI driver.',
  'io.k8s.api.core.v1.CSIVolumeSource.driver':
    'The name of the CSI driver handling the volume, as registered in the cluster.',
  'io.k8s.api.core.v1.CSIVolumeSource.fsType':
    'The filesystem type to mount, for example `ext4`. When unset, the driver chooses.',
  'io.k8s.api.core.v1.CSIVolumeSource.nodePublishSecretRef':
    'A Secret with sensitive data passed to the driver for its publish calls. May be empty if the driver needs none.',
  'io.k8s.api.core.v1.CSIVolumeSource.readOnly':
    'Mount the volume read-only. Defaults to false (read/write).',
  'io.k8s.api.core.v1.CSIVolumeSource.volumeAttributes':
    'Driver-specific properties passed to the driver; see the driver\'s documentation.',
  'io.k8s.api.core.v1.Capabilities':
    'Linux capabilities to add to or remove from a container.',
  'io.k8s.api.core.v1.Capabilities.add':
    'Capabilities to grant in addition to the runtime defaults, for example `NET_ADMIN`.',
  'io.k8s.api.core.v1.Capabilities.drop':
    'Capabilities to remove from the runtime defaults; `ALL` removes all of them.',
  'io.k8s.api.core.v1.CephFSPersistentVolumeSource':
    'Deprecated and no longer supported: a CephFS mount.',
  'io.k8s.api.core.v1.CephFSPersistentVolumeSource.monitors':
    'The addresses of the Ceph monitors.',
  'io.k8s.api.core.v1.CephFSPersistentVolumeSource.path':
    'The path within the filesystem to mount. Defaults to `/`.',
  'io.k8s.api.core.v1.CephFSPersistentVolumeSource.readOnly':
    'Mount the filesystem read-only. Defaults to false.',
  'io.k8s.api.core.v1.CephFSPersistentVolumeSource.secretFile':
    'Location of the key file for `user`; `/etc/ceph/user.secret` when empty.',
  'io.k8s.api.core.v1.CephFSPersistentVolumeSource.secretRef':
    'A Secret holding the user\'s authentication key, used instead of `secretFile`.',
  'io.k8s.api.core.v1.CephFSPersistentVolumeSource.user':
    'RADOS user to authenticate as; `admin` when empty.',
  'io.k8s.api.core.v1.CephFSVolumeSource':
    'Deprecated and no longer supported: a CephFS mount that lives as long as the pod.',
  'io.k8s.api.core.v1.CephFSVolumeSource.monitors':
    'The addresses of the Ceph monitors.',
  'io.k8s.api.core.v1.CephFSVolumeSource.path':
    'The path within the filesystem to mount. Defaults to `/`.',
  'io.k8s.api.core.v1.CephFSVolumeSource.readOnly':
    'Mount the filesystem read-only. Defaults to false.',
  'io.k8s.api.core.v1.CephFSVolumeSource.secretFile':
    'Location of the key file for `user`; `/etc/ceph/user.secret` when empty.',
  'io.k8s.api.core.v1.CephFSVolumeSource.secretRef':
    'A Secret holding the user\'s authentication key, used instead of `secretFile`.',
  'io.k8s.api.core.v1.CephFSVolumeSource.user':
    'RADOS user to authenticate as; `admin` when empty.',
  'io.k8s.api.core.v1.CinderPersistentVolumeSource':
    'Deprecated: an OpenStack Cinder volume.',
  'io.k8s.api.core.v1.CinderPersistentVolumeSource.fsType':
    'The filesystem type, for example `ext4`, `xfs` or `ntfs`. Defaults to `ext4`.',
  'io.k8s.api.core.v1.CinderPersistentVolumeSource.readOnly':
    'Mount the volume read-only. Defaults to false.',
  'io.k8s.api.core.v1.CinderPersistentVolumeSource.secretRef':
    'A Secret with parameters for connecting to OpenStack.',
  'io.k8s.api.core.v1.CinderPersistentVolumeSource.volumeID':
    'The ID of the Cinder volume.',
  'io.k8s.api.core.v1.CinderVolumeSource':
    'Deprecated: an OpenStack Cinder volume. The volume must exist and be in the same region as the node.',
  'io.k8s.api.core.v1.CinderVolumeSource.fsType':
    'The filesystem type, for example `ext4`, `xfs` or `ntfs`. Defaults to `ext4`.',
  'io.k8s.api.core.v1.CinderVolumeSource.readOnly':
    'Mount the volume read-only. Defaults to false.',
  'io.k8s.api.core.v1.CinderVolumeSource.secretRef':
    'A Secret with parameters for connecting to OpenStack.',
  'io.k8s.api.core.v1.CinderVolumeSource.volumeID':
    'The ID of the Cinder volume.',
  'io.k8s.api.core.v1.ClientIPConfig':
    'Settings of ClientIP session affinity.',
  'io.k8s.api.core.v1.ClientIPConfig.timeoutSeconds':
    'How long a client sticks to its pod, in seconds: more than 0 and at most 86400. Defaults to 10800 (3 hours).',
  'io.k8s.api.core.v1.ClusterTrustBundleProjection':
    'Writes the certificates of selected ClusterTrustBundle objects into a file of a projected volume. Select either by `name` or by `signerName` (optionally narrowed by `labelSelector`).',
  'io.k8s.api.core.v1.ClusterTrustBundleProjection.labelSelector':
    'Narrows the bundles selected by `signerName`. Only used together with `signerName`; unset matches nothing, while an empty selector matches everything.',
  'io.k8s.api.core.v1.ClusterTrustBundleProjection.name':
    'Picks one ClusterTrustBundle by object name; leave `signerName` and `labelSelector` unset when using it.',
  'io.k8s.api.core.v1.ClusterTrustBundleProjection.optional':
    'When true, pod startup is not blocked if the named bundle does not exist or the selection matches no bundles.',
  'io.k8s.api.core.v1.ClusterTrustBundleProjection.path':
    'Where to write the bundle, as a path relative to the volume root.',
  'io.k8s.api.core.v1.ClusterTrustBundleProjection.signerName':
    'Selects every ClusterTrustBundle for this signer; their certificates are merged and de-duplicated. Cannot be combined with `name`.',
  'io.k8s.api.core.v1.ConfigMapEnvSource':
    'Selects a ConfigMap whose key/value pairs become environment variables.',
  'io.k8s.api.core.v1.ConfigMapEnvSource.name':
    'The name of the ConfigMap in the pod\'s namespace.',
  'io.k8s.api.core.v1.ConfigMapEnvSource.optional':
    'When true, the container starts even if the ConfigMap does not exist. Defaults to false.',
  'io.k8s.api.core.v1.ConfigMapKeySelector':
    'Points at a single entry inside a ConfigMap.',
  'io.k8s.api.core.v1.ConfigMapKeySelector.key':
    'The key whose value is used.',
  'io.k8s.api.core.v1.ConfigMapKeySelector.name':
    'The name of the ConfigMap in the pod\'s namespace.',
  'io.k8s.api.core.v1.ConfigMapKeySelector.optional':
    'When true, a missing ConfigMap or key is tolerated and the variable is left unset. Defaults to false.',
  'io.k8s.api.core.v1.ConfigMapNodeConfigSource':
    'Deprecated: a ConfigMap used as a kubelet configuration source.',
  'io.k8s.api.core.v1.ConfigMapNodeConfigSource.kubeletConfigKey':
    'The key of the ConfigMap holding the kubelet configuration.',
  'io.k8s.api.core.v1.ConfigMapNodeConfigSource.name':
    'The ConfigMap\'s name.',
  'io.k8s.api.core.v1.ConfigMapNodeConfigSource.namespace':
    'The ConfigMap\'s namespace.',
  'io.k8s.api.core.v1.ConfigMapNodeConfigSource.resourceVersion':
    'The ConfigMap\'s resourceVersion; set in status, not in spec.',
  'io.k8s.api.core.v1.ConfigMapNodeConfigSource.uid':
    'The ConfigMap\'s UID; set in status, not in spec.',
  'io.k8s.api.core.v1.ConfigMapProjection':
    'Projects the keys of a ConfigMap into a projected volume.',
  'io.k8s.api.core.v1.ConfigMapProjection.items':
    'Which keys to project, and the file path for each. When empty, every key becomes a file named after the key. A key listed here that does not exist is an error unless `optional` is true.',
  'io.k8s.api.core.v1.ConfigMapProjection.name':
    'The name of the ConfigMap in the pod\'s namespace.',
  'io.k8s.api.core.v1.ConfigMapProjection.optional':
    'When true, a missing ConfigMap or missing keys are tolerated. Defaults to false.',
  'io.k8s.api.core.v1.ConfigMapVolumeSource':
    'Projects the keys of a ConfigMap into a volume as files.',
  'io.k8s.api.core.v1.ConfigMapVolumeSource.defaultMode':
    'Permission bits for the created files unless an item overrides them; defaults to `0644`. Write octal (0000 to 0777) in YAML or the decimal equivalent (0 to 511) in JSON. Bits implied by other settings, such as `fsGroup`, may be added on top.',
  'io.k8s.api.core.v1.ConfigMapVolumeSource.items':
    'Which keys to project, and the file path for each. When empty, every key becomes a file named after the key. A key listed here that does not exist is an error unless `optional` is true.',
  'io.k8s.api.core.v1.ConfigMapVolumeSource.name':
    'The name of the ConfigMap in the pod\'s namespace.',
  'io.k8s.api.core.v1.ConfigMapVolumeSource.optional':
    'When true, the pod starts even if the ConfigMap or the listed keys do not exist. Defaults to false.',
  'io.k8s.api.core.v1.Container':
    'One application container in a pod: the image to run, how it is started, its environment, resources, probes and security settings.',
  'io.k8s.api.core.v1.Container.args':
    'Arguments passed to the entrypoint, replacing the image\'s CMD. `$(VAR)` references are expanded from the container\'s environment in the same way as in `command`. Cannot be changed.',
  'io.k8s.api.core.v1.Container.command':
    'The executable and arguments to run, replacing the image\'s ENTRYPOINT; it is executed directly, not through a shell. `$(VAR)` references are expanded from the container\'s environment, `$$(VAR)` yields a literal `$(VAR)`, and unknown variables are left as written. Cannot be changed.',
  'io.k8s.api.core.v1.Container.env':
    'Individual variables for the container\'s environment; an entry may refer to entries listed before it. Cannot be changed.',
  'io.k8s.api.core.v1.Container.envFrom':
    'Sources (ConfigMaps or Secrets) whose keys all become environment variables. If a key appears in several sources the last one wins, and entries in `env` take precedence over all of them. Cannot be changed.',
  'io.k8s.api.core.v1.Container.image':
    'The container image to run, as a registry reference such as `nginx:1.27`. Optional in templates so controllers or config tools can fill it in, but required once the pod runs.',
  'io.k8s.api.core.v1.Container.imagePullPolicy':
    'When the image is pulled: `Always`, `Never` or `IfNotPresent`. Defaults to `Always` when the image uses the `:latest` tag or no tag, and to `IfNotPresent` otherwise. Cannot be changed.',
  'io.k8s.api.core.v1.Container.lifecycle':
    'Hooks the kubelet runs right after the container starts and right before it is stopped. Cannot be changed.',
  'io.k8s.api.core.v1.Container.livenessProbe':
    'A periodic check of whether the container is still healthy; when it fails the container is restarted. Cannot be changed.',
  'io.k8s.api.core.v1.Container.name':
    'The container\'s name, a DNS label unique among all containers of the pod. Cannot be changed.',
  'io.k8s.api.core.v1.Container.ports':
    'Ports the container listens on, keyed by `containerPort` and `protocol`. The list is mostly informational: a port that is not listed can still be reached. Cannot be changed.',
  'io.k8s.api.core.v1.Container.readinessProbe':
    'A periodic check of whether the container can serve traffic; while it fails the pod is removed from service endpoints. Cannot be changed.',
  'io.k8s.api.core.v1.Container.resizePolicy':
    'Per-resource rules for what happens to the container when its resources are resized in place.',
  'io.k8s.api.core.v1.Container.resources':
    'The compute resources (CPU, memory and others) the container requests and is limited to, plus any dynamic resource claims it uses. Can only be changed through an in-place resize.',
  'io.k8s.api.core.v1.Container.restartPolicy':
    'Only valid on init containers, and only with the value `Always`: it turns the init container into a sidecar that starts before and keeps running alongside the regular containers, and is restarted whenever it exits. Otherwise the pod\'s restart policy applies.',
  'io.k8s.api.core.v1.Container.securityContext':
    'Security options for this container. Where a setting is also present in the pod\'s security context, this one wins.',
  'io.k8s.api.core.v1.Container.startupProbe':
    'A check that must succeed before liveness and readiness probes start; while it has not succeeded the container is treated as starting, and if it keeps failing the container is restarted. Useful for slow-starting applications. Cannot be changed.',
  'io.k8s.api.core.v1.Container.stdin':
    'Whether the runtime keeps a stdin buffer open for the container. When false, reads from stdin return EOF immediately. Defaults to false.',
  'io.k8s.api.core.v1.Container.stdinOnce':
    'When true (together with `stdin`), stdin is closed after the first attached client disconnects, and later reads return EOF until the container restarts. Defaults to false.',
  'io.k8s.api.core.v1.Container.terminationMessagePath':
    'The file inside the container whose contents become the termination message when it exits; defaults to `/dev/termination-log`. At most 4096 bytes are read, and all containers together are limited to 12 KiB. Cannot be changed.',
  'io.k8s.api.core.v1.Container.terminationMessagePolicy':
    'Where the termination message comes from: `File` (the default) uses only the message file, while `FallbackToLogsOnError` uses the tail of the container log (up to 2048 bytes or 80 lines) when the file is empty and the container failed. Cannot be changed.',
  'io.k8s.api.core.v1.Container.tty':
    'Allocate a pseudo-terminal for the container, as for interactive shells. Only valid together with `stdin`. Defaults to false.',
  'io.k8s.api.core.v1.Container.volumeDevices':
    'Raw block volumes to expose to the container as device files.',
  'io.k8s.api.core.v1.Container.volumeMounts':
    'Which of the pod\'s volumes appear inside this container, and at which paths. Cannot be changed.',
  'io.k8s.api.core.v1.Container.workingDir':
    'The directory the process starts in. When unset, the image\'s or runtime\'s default is used. Cannot be changed.',
  'io.k8s.api.core.v1.ContainerImage':
    'A container image present on a node.',
  'io.k8s.api.core.v1.ContainerImage.names':
    'The names the image is known by, such as `nginx:1.27` and its digest form.',
  'io.k8s.api.core.v1.ContainerImage.sizeBytes':
    'The size of the image, in bytes.',
  'io.k8s.api.core.v1.ContainerPort':
    'A network port a container listens on.',
  'io.k8s.api.core.v1.ContainerPort.containerPort':
    'The port number the container listens on within the pod\'s IP address, from 1 to 65535. Required.',
  'io.k8s.api.core.v1.ContainerPort.hostIP':
    'The node IP address to bind `hostPort` to.',
  'io.k8s.api.core.v1.ContainerPort.hostPort':
    'The port to expose on the node\'s IP addresses. With host networking it must equal `containerPort`. Rarely needed; it limits where the pod can be scheduled.',
  'io.k8s.api.core.v1.ContainerPort.name':
    'A name for the port, unique within the pod and at most 15 characters (an IANA service name). Services can target the port by this name.',
  'io.k8s.api.core.v1.ContainerPort.protocol':
    'The port\'s protocol: `TCP` (the default), `UDP` or `SCTP`.',
  'io.k8s.api.core.v1.ContainerResizePolicy':
    'How a container reacts when one of its resources is resized in place.',
  'io.k8s.api.core.v1.ContainerResizePolicy.resourceName':
    'The resource the policy applies to, `cpu` or `memory`.',
  'io.k8s.api.core.v1.ContainerResizePolicy.restartPolicy':
    'What happens on resize: `NotRequired` (the default) applies the change to the running container, `RestartContainer` restarts it with the new values.',
  'io.k8s.api.core.v1.ContainerState':
    'The state of a container. Exactly one of `waiting`, `running` or `terminated` is set; if none is, the container is waiting.',
  'io.k8s.api.core.v1.ContainerState.running':
    'Details when the container is running.',
  'io.k8s.api.core.v1.ContainerState.terminated':
    'Details when the container has exited.',
  'io.k8s.api.core.v1.ContainerState.waiting':
    'Details when the container has not started yet.',
  'io.k8s.api.core.v1.ContainerStateRunning':
    'A container that is running.',
  'io.k8s.api.core.v1.ContainerStateRunning.startedAt':
    'Time of the container\'s most recent start.',
  'io.k8s.api.core.v1.ContainerStateTerminated':
    'A container that has exited.',
  'io.k8s.api.core.v1.ContainerStateTerminated.containerID':
    'The runtime\'s identifier for the terminated container, in the form `<runtime>://<id>`.',
  'io.k8s.api.core.v1.ContainerStateTerminated.exitCode':
    'The exit code of the container\'s last run.',
  'io.k8s.api.core.v1.ContainerStateTerminated.finishedAt':
    'When the container\'s last run ended.',
  'io.k8s.api.core.v1.ContainerStateTerminated.message':
    'A human-readable message about the termination, such as the contents of the termination message file.',
  'io.k8s.api.core.v1.ContainerStateTerminated.reason':
    'A brief reason for the termination, for example `Completed`, `Error` or `OOMKilled`.',
  'io.k8s.api.core.v1.ContainerStateTerminated.signal':
    'The signal that ended the container, if it was killed by one.',
  'io.k8s.api.core.v1.ContainerStateTerminated.startedAt':
    'When the container\'s last run started.',
  'io.k8s.api.core.v1.ContainerStateWaiting':
    'A container that is not running yet, for example while its image is being pulled.',
  'io.k8s.api.core.v1.ContainerStateWaiting.message':
    'A human-readable explanation of why the container is waiting.',
  'io.k8s.api.core.v1.ContainerStateWaiting.reason':
    'A brief reason for waiting, for example `ContainerCreating`, `ImagePullBackOff` or `CrashLoopBackOff`.',
  'io.k8s.api.core.v1.ContainerStatus':
    'The observed state of one container in a pod.',
  'io.k8s.api.core.v1.ContainerStatus.allocatedResources':
    'The compute resources the node has allocated to the container, taken from its requests at admission or after an accepted resize.',
  'io.k8s.api.core.v1.ContainerStatus.allocatedResourcesStatus':
    'Health information about resources (devices or dynamically allocated resources) assigned to the container.',
  'io.k8s.api.core.v1.ContainerStatus.containerID':
    'The runtime\'s identifier for the container, in the form `<runtime>://<id>`.',
  'io.k8s.api.core.v1.ContainerStatus.image':
    'The image the container is running. It may differ from the spec, for example after tag resolution.',
  'io.k8s.api.core.v1.ContainerStatus.imageID':
    'The identifier of the image actually in use, typically including its digest.',
  'io.k8s.api.core.v1.ContainerStatus.lastState':
    'The container\'s previous state, usually the termination details of its last run; empty if it has not restarted.',
  'io.k8s.api.core.v1.ContainerStatus.name':
    'The container\'s name, matching an entry in the pod spec.',
  'io.k8s.api.core.v1.ContainerStatus.ready':
    'Whether the container currently passes its readiness probe (true when it has none and is running). Not the same as `started`.',
  'io.k8s.api.core.v1.ContainerStatus.resources':
    'The requests and limits actually in effect for the running container, which may lag behind the spec during an in-place resize.',
  'io.k8s.api.core.v1.ContainerStatus.restartCount':
    'How many times the container has been restarted. The kubelet tries to keep this accurate, but it may reset when the pod\'s containers are cleaned up.',
  'io.k8s.api.core.v1.ContainerStatus.started':
    'Whether the container has finished starting: its postStart hook ran and its startup probe (if any) succeeded. Resets to false when the container restarts. Null means false.',
  'io.k8s.api.core.v1.ContainerStatus.state':
    'The container\'s current state: waiting, running or terminated.',
  'io.k8s.api.core.v1.ContainerStatus.stopSignal':
    'The signal actually used to stop this container, taking defaults into account.',
  'io.k8s.api.core.v1.ContainerStatus.user':
    'The user and group identity the container\'s first process started with.',
  'io.k8s.api.core.v1.ContainerStatus.volumeMounts':
    'The state of the container\'s volume mounts, including how recursive read-only was resolved.',
  'io.k8s.api.core.v1.ContainerUser':
    'The user identity the container\'s first process started with. Only Linux details are reported today.',
  'io.k8s.api.core.v1.ContainerUser.linux':
    'The identity on Linux. Processes with enough privilege may change it afterwards.',
  'io.k8s.api.core.v1.DaemonEndpoint':
    'The port of a daemon on a node.',
  'io.k8s.api.core.v1.DaemonEndpoint.Port':
    'The port number.',
  'io.k8s.api.core.v1.DownwardAPIProjection':
    'Projects pod information into a projected volume.',
  'io.k8s.api.core.v1.DownwardAPIProjection.items':
    'The files to create, each with the pod field or resource value it contains.',
  'io.k8s.api.core.v1.DownwardAPIVolumeFile':
    'One file in a downward API volume and the pod information it holds.',
  'io.k8s.api.core.v1.DownwardAPIVolumeFile.fieldRef':
    'A pod field to write into the file. Only `metadata.name`, `metadata.namespace`, `metadata.uid`, `metadata.labels` and `metadata.annotations` (or a single label or annotation) are supported.',
  'io.k8s.api.core.v1.DownwardAPIVolumeFile.mode':
    'Permission bits for this file, overriding the volume\'s default mode. Octal 0000 to 0777 or decimal 0 to 511.',
  'io.k8s.api.core.v1.DownwardAPIVolumeFile.path':
    'The file\'s path relative to the volume root. Must not be absolute or contain `..`, and the first path element must not start with `..`.',
  'io.k8s.api.core.v1.DownwardAPIVolumeFile.resourceFieldRef':
    'A container resource limit or request to write into the file, such as `limits.cpu` or `requests.memory`.',
  'io.k8s.api.core.v1.DownwardAPIVolumeSource':
    'Exposes information about the pod as files in a volume.',
  'io.k8s.api.core.v1.DownwardAPIVolumeSource.defaultMode':
    'Permission bits for the created files, unless overridden per item. Defaults to `0644`. Accepts octal (0000 to 0777) in YAML or the decimal equivalent (0 to 511), which JSON requires.',
  'io.k8s.api.core.v1.DownwardAPIVolumeSource.items':
    'The files to create, each with the pod field or resource value it contains.',
  'io.k8s.api.core.v1.EmptyDirVolumeSource':
    'A temporary directory that lives as long as the pod.',
  'io.k8s.api.core.v1.EmptyDirVolumeSource.medium':
    'Where the directory is stored: empty (the default) uses the node\'s default storage; `Memory` uses a RAM-backed tmpfs, whose usage counts against the container\'s memory.',
  'io.k8s.api.core.v1.EmptyDirVolumeSource.sizeLimit':
    'The most local storage the volume may use; exceeding it gets the pod evicted. For `Memory` the effective limit is the smaller of this value and the pod\'s total memory limit. Unset means no explicit limit.',
  'io.k8s.api.core.v1.EnvFromSource':
    'A ConfigMap or Secret whose entries are all turned into environment variables. Set exactly one of the two references.',
  'io.k8s.api.core.v1.EnvFromSource.configMapRef':
    'Import every key of this ConfigMap.',
  'io.k8s.api.core.v1.EnvFromSource.prefix':
    'A string prepended to every key taken from the source when forming variable names.',
  'io.k8s.api.core.v1.EnvFromSource.secretRef':
    'Import every key of this Secret.',
  'io.k8s.api.core.v1.EnvVar':
    'A single environment variable for a container, given literally or computed from another source.',
  'io.k8s.api.core.v1.EnvVar.name':
    'The variable name. It must be unique in the list and cannot contain `=`.',
  'io.k8s.api.core.v1.EnvVar.value':
    'The literal value, empty by default. `$(VAR)` references to variables defined earlier in the list or by the runtime are expanded, and `$$(VAR)` yields a literal `$(VAR)`. Cannot be combined with `valueFrom`.',
  'io.k8s.api.core.v1.EnvVar.valueFrom':
    'Computes the value from another source (a pod field, a resource amount, a ConfigMap key or a Secret key) instead of a literal. Cannot be combined with a non-empty `value`.',
  'io.k8s.api.core.v1.EnvVarSource':
    'Where an environment variable\'s value comes from. Exactly one source must be set.',
  'io.k8s.api.core.v1.EnvVarSource.configMapKeyRef':
    'Reads the value from one key of a ConfigMap in the pod\'s namespace.',
  'io.k8s.api.core.v1.EnvVarSource.fieldRef':
    'A field of the pod, such as `metadata.name`, `metadata.namespace`, `metadata.labels[\'<key>\']`, `metadata.annotations[\'<key>\']`, `spec.nodeName`, `spec.serviceAccountName`, `status.hostIP`, `status.hostIPs`, `status.podIP` or `status.podIPs`.',
  'io.k8s.api.core.v1.EnvVarSource.resourceFieldRef':
    'A resource limit or request of a container, such as `limits.cpu`, `limits.memory`, `limits.ephemeral-storage` or the corresponding `requests.*`.',
  'io.k8s.api.core.v1.EnvVarSource.secretKeyRef':
    'Reads the value from one key of a Secret in the pod\'s namespace.',
  'io.k8s.api.core.v1.EphemeralContainer':
    'A temporary container added to a running pod for interactive debugging (for example with `kubectl debug`). It has no resource guarantees, is never restarted, and cannot be removed or changed once added.',
  'io.k8s.api.core.v1.EphemeralContainer.args':
    'Arguments passed to the entrypoint, replacing the image\'s CMD. `$(VAR)` references are expanded from the container\'s environment in the same way as in `command`. Cannot be changed.',
  'io.k8s.api.core.v1.EphemeralContainer.command':
    'The executable and arguments to run, replacing the image\'s ENTRYPOINT; it is executed directly, not through a shell. `$(VAR)` references are expanded from the container\'s environment, `$$(VAR)` yields a literal `$(VAR)`, and unknown variables are left as written. Cannot be changed.',
  'io.k8s.api.core.v1.EphemeralContainer.env':
    'Individual variables for the container\'s environment; an entry may refer to entries listed before it. Cannot be changed.',
  'io.k8s.api.core.v1.EphemeralContainer.envFrom':
    'Sources (ConfigMaps or Secrets) whose keys all become environment variables. If a key appears in several sources the last one wins, and entries in `env` take precedence over all of them. Cannot be changed.',
  'io.k8s.api.core.v1.EphemeralContainer.image':
    'The container image to run, as a registry reference such as `nginx:1.27`. Optional in templates so controllers or config tools can fill it in, but required once the pod runs.',
  'io.k8s.api.core.v1.EphemeralContainer.imagePullPolicy':
    'When the image is pulled: `Always`, `Never` or `IfNotPresent`. Defaults to `Always` when the image uses the `:latest` tag or no tag, and to `IfNotPresent` otherwise. Cannot be changed.',
  'io.k8s.api.core.v1.EphemeralContainer.lifecycle':
    'Must be unset: ephemeral containers cannot have start or stop hooks.',
  'io.k8s.api.core.v1.EphemeralContainer.livenessProbe':
    'Must be unset: ephemeral containers are never health-checked.',
  'io.k8s.api.core.v1.EphemeralContainer.name':
    'Name of the ephemeral container, as a DNS label; it must not clash with the name of any other container of the pod, whether regular, init or ephemeral.',
  'io.k8s.api.core.v1.EphemeralContainer.ports':
    'Must be empty: ephemeral containers cannot declare ports.',
  'io.k8s.api.core.v1.EphemeralContainer.readinessProbe':
    'Must be unset: ephemeral containers are never health-checked.',
  'io.k8s.api.core.v1.EphemeralContainer.resizePolicy':
    'Must be unset: ephemeral containers have no resources of their own to resize.',
  'io.k8s.api.core.v1.EphemeralContainer.resources':
    'Must be unset: an ephemeral container gets no resources of its own and shares whatever the pod already has.',
  'io.k8s.api.core.v1.EphemeralContainer.restartPolicy':
    'Must be unset: ephemeral containers are never restarted.',
  'io.k8s.api.core.v1.EphemeralContainer.securityContext':
    'Optional security options for the ephemeral container. Where a setting is also present in the pod\'s security context, this one wins.',
  'io.k8s.api.core.v1.EphemeralContainer.startupProbe':
    'Must be unset: ephemeral containers are never health-checked.',
  'io.k8s.api.core.v1.EphemeralContainer.stdin':
    'Whether the runtime keeps a stdin buffer open for the container. When false, reads from stdin return EOF immediately. Defaults to false.',
  'io.k8s.api.core.v1.EphemeralContainer.stdinOnce':
    'When true (together with `stdin`), stdin is closed after the first attached client disconnects, and later reads return EOF until the container restarts. Defaults to false.',
  'io.k8s.api.core.v1.EphemeralContainer.targetContainerName':
    'When set, the name of an existing container whose namespaces (such as its process namespace) the ephemeral container joins, so it can inspect that container\'s processes. Unset means the pod-level namespaces are used. Needs runtime support.',
  'io.k8s.api.core.v1.EphemeralContainer.terminationMessagePath':
    'The file inside the container whose contents become the termination message when it exits; defaults to `/dev/termination-log`. At most 4096 bytes are read, and all containers together are limited to 12 KiB. Cannot be changed.',
  'io.k8s.api.core.v1.EphemeralContainer.terminationMessagePolicy':
    'Where the termination message comes from: `File` (the default) uses only the message file, while `FallbackToLogsOnError` uses the tail of the container log (up to 2048 bytes or 80 lines) when the file is empty and the container failed. Cannot be changed.',
  'io.k8s.api.core.v1.EphemeralContainer.tty':
    'Allocate a pseudo-terminal for the container, as for interactive shells. Only valid together with `stdin`. Defaults to false.',
  'io.k8s.api.core.v1.EphemeralContainer.volumeDevices':
    'Raw block volumes to expose to the container as device files.',
  'io.k8s.api.core.v1.EphemeralContainer.volumeMounts':
    'Which of the pod\'s volumes appear inside the ephemeral container, and at which paths. `subPath` and `subPathExpr` cannot be used here. Cannot be changed.',
  'io.k8s.api.core.v1.EphemeralContainer.workingDir':
    'The directory the process starts in. When unset, the image\'s or runtime\'s default is used. Cannot be changed.',
  'io.k8s.api.core.v1.EphemeralContainerCommon':
    'The container fields shared with ephemeral containers. Ephemeral containers get no resource guarantees and are not restarted, so many of these fields are not allowed for them.',
  'io.k8s.api.core.v1.EphemeralContainerCommon.args':
    'Arguments passed to the entrypoint, replacing the image\'s CMD. `$(VAR)` references are expanded from the container\'s environment in the same way as in `command`. Cannot be changed.',
  'io.k8s.api.core.v1.EphemeralContainerCommon.command':
    'The executable and arguments to run, replacing the image\'s ENTRYPOINT; it is executed directly, not through a shell. `$(VAR)` references are expanded from the container\'s environment, `$$(VAR)` yields a literal `$(VAR)`, and unknown variables are left as written. Cannot be changed.',
  'io.k8s.api.core.v1.EphemeralContainerCommon.env':
    'Individual variables for the container\'s environment; an entry may refer to entries listed before it. Cannot be changed.',
  'io.k8s.api.core.v1.EphemeralContainerCommon.envFrom':
    'Sources (ConfigMaps or Secrets) whose keys all become environment variables. If a key appears in several sources the last one wins, and entries in `env` take precedence over all of them. Cannot be changed.',
  'io.k8s.api.core.v1.EphemeralContainerCommon.image':
    'The container image to run, as a registry reference such as `nginx:1.27`. Optional in templates so controllers or config tools can fill it in, but required once the pod runs.',
  'io.k8s.api.core.v1.EphemeralContainerCommon.imagePullPolicy':
    'When the image is pulled: `Always`, `Never` or `IfNotPresent`. Defaults to `Always` when the image uses the `:latest` tag or no tag, and to `IfNotPresent` otherwise. Cannot be changed.',
  'io.k8s.api.core.v1.EphemeralContainerCommon.lifecycle':
    'Must be unset: ephemeral containers cannot have start or stop hooks.',
  'io.k8s.api.core.v1.EphemeralContainerCommon.livenessProbe':
    'Must be unset: ephemeral containers are never health-checked.',
  'io.k8s.api.core.v1.EphemeralContainerCommon.name':
    'Name of the ephemeral container, as a DNS label; it must not clash with the name of any other container of the pod, whether regular, init or ephemeral.',
  'io.k8s.api.core.v1.EphemeralContainerCommon.ports':
    'Must be empty: ephemeral containers cannot declare ports.',
  'io.k8s.api.core.v1.EphemeralContainerCommon.readinessProbe':
    'Must be unset: ephemeral containers are never health-checked.',
  'io.k8s.api.core.v1.EphemeralContainerCommon.resizePolicy':
    'Must be unset: ephemeral containers have no resources of their own to resize.',
  'io.k8s.api.core.v1.EphemeralContainerCommon.resources':
    'Must be unset: an ephemeral container gets no resources of its own and shares whatever the pod already has.',
  'io.k8s.api.core.v1.EphemeralContainerCommon.restartPolicy':
    'Must be unset: ephemeral containers are never restarted.',
  'io.k8s.api.core.v1.EphemeralContainerCommon.securityContext':
    'Optional security options for the ephemeral container. Where a setting is also present in the pod\'s security context, this one wins.',
  'io.k8s.api.core.v1.EphemeralContainerCommon.startupProbe':
    'Must be unset: ephemeral containers are never health-checked.',
  'io.k8s.api.core.v1.EphemeralContainerCommon.stdin':
    'Whether the runtime keeps a stdin buffer open for the container. When false, reads from stdin return EOF immediately. Defaults to false.',
  'io.k8s.api.core.v1.EphemeralContainerCommon.stdinOnce':
    'When true (together with `stdin`), stdin is closed after the first attached client disconnects, and later reads return EOF until the container restarts. Defaults to false.',
  'io.k8s.api.core.v1.EphemeralContainerCommon.terminationMessagePath':
    'The file inside the container whose contents become the termination message when it exits; defaults to `/dev/termination-log`. At most 4096 bytes are read, and all containers together are limited to 12 KiB. Cannot be changed.',
  'io.k8s.api.core.v1.EphemeralContainerCommon.terminationMessagePolicy':
    'Where the termination message comes from: `File` (the default) uses only the message file, while `FallbackToLogsOnError` uses the tail of the container log (up to 2048 bytes or 80 lines) when the file is empty and the container failed. Cannot be changed.',
  'io.k8s.api.core.v1.EphemeralContainerCommon.tty':
    'Allocate a pseudo-terminal for the container, as for interactive shells. Only valid together with `stdin`. Defaults to false.',
  'io.k8s.api.core.v1.EphemeralContainerCommon.volumeDevices':
    'Raw block volumes to expose to the container as device files.',
  'io.k8s.api.core.v1.EphemeralContainerCommon.volumeMounts':
    'Which of the pod\'s volumes appear inside the ephemeral container, and at which paths. `subPath` and `subPathExpr` cannot be used here. Cannot be changed.',
  'io.k8s.api.core.v1.EphemeralContainerCommon.workingDir':
    'The directory the process starts in. When unset, the image\'s or runtime\'s default is used. Cannot be changed.',
  'io.k8s.api.core.v1.EphemeralVolumeSource':
    'A generic ephemeral volume, backed by a PersistentVolumeClaim that exists only for the pod\'s lifetime.',
  'io.k8s.api.core.v1.EphemeralVolumeSource.volumeClaimTemplate':
    'The template for the claim. The claim is named `<pod name>-<volume name>`, owned by the pod and deleted with it; creation fails if a claim with that name already exists that does not belong to the pod. Required.',
  'io.k8s.api.core.v1.Event':
    'A report of something that happened to an object, such as a pod being scheduled or a container failing. Events are kept for a limited time. The same objects are served in the events.k8s.io/v1 shape.',
  'io.k8s.api.core.v1.Event.action':
    'What the reporting component did or failed to do, such as `Binding`.',
  'io.k8s.api.core.v1.Event.apiVersion':
    'The group/version the body is written in, always `v1` here. The server uses it to pick the schema for decoding and rejects versions it does not serve.',
  'io.k8s.api.core.v1.Event.count':
    'How many times the event was seen.',
  'io.k8s.api.core.v1.Event.eventTime':
    'When the event first happened, to the microsecond. Set by clients of the newer events API.',
  'io.k8s.api.core.v1.Event.firstTimestamp':
    'When the event was first seen.',
  'io.k8s.api.core.v1.Event.involvedObject':
    'The object the event is about.',
  'io.k8s.api.core.v1.Event.kind':
    'The REST resource type of this object, always `Event` here. Servers fill it in on responses, and clients should send it so the body can be decoded without outside context.',
  'io.k8s.api.core.v1.Event.lastTimestamp':
    'When the event was last seen.',
  'io.k8s.api.core.v1.Event.message':
    'Human-readable details.',
  'io.k8s.api.core.v1.Event.metadata':
    'The object\'s name, namespace, labels, annotations and other metadata shared by all persisted objects.',
  'io.k8s.api.core.v1.Event.reason':
    'A short CamelCase word for why the event happened, such as `Started`.',
  'io.k8s.api.core.v1.Event.related':
    'A second object involved, if any.',
  'io.k8s.api.core.v1.Event.reportingComponent':
    'The controller that reported the event, such as `kubernetes.io/kubelet`.',
  'io.k8s.api.core.v1.Event.reportingInstance':
    'The instance of that controller, such as the kubelet\'s node name.',
  'io.k8s.api.core.v1.Event.series':
    'Repeats of the event, when it recurs.',
  'io.k8s.api.core.v1.Event.source':
    'The component (and host) that reported the event.',
  'io.k8s.api.core.v1.Event.type':
    '`Normal` or `Warning`.',
  'io.k8s.api.core.v1.EventList':
    'A list of Event objects.',
  'io.k8s.api.core.v1.EventList.apiVersion':
    'The group/version the body is written in, always `v1` here. The server uses it to pick the schema for decoding and rejects versions it does not serve.',
  'io.k8s.api.core.v1.EventList.items':
    'The Events in the list.',
  'io.k8s.api.core.v1.EventList.kind':
    'The REST resource type of this object, always `EventList` here. Servers fill it in on responses, and clients should send it so the body can be decoded without outside context.',
  'io.k8s.api.core.v1.EventList.metadata':
    'The resource version the list was read at, plus paging information.',
  'io.k8s.api.core.v1.EventSeries':
    'Repeats of an event.',
  'io.k8s.api.core.v1.EventSeries.count':
    'How many times the event happened so far.',
  'io.k8s.api.core.v1.EventSeries.lastObservedTime':
    'When it last happened.',
  'io.k8s.api.core.v1.EventSource':
    'The component that reported an event.',
  'io.k8s.api.core.v1.EventSource.component':
    'The component\'s name.',
  'io.k8s.api.core.v1.EventSource.host':
    'The node the component runs on.',
  'io.k8s.api.core.v1.ExecAction':
    'Runs a command inside the container.',
  'io.k8s.api.core.v1.ExecAction.command':
    'The command line to run, starting in the container\'s root directory (`/`). It is executed directly, not through a shell, so wrap it in a shell explicitly if you need pipes or expansion. Exit status 0 is success.',
  'io.k8s.api.core.v1.FCVolumeSource':
    'A Fibre Channel disk. Identify it either by `targetWWNs` plus `lun` or by `wwids`, not both.',
  'io.k8s.api.core.v1.FCVolumeSource.fsType':
    'The filesystem type, for example `ext4`, `xfs` or `ntfs`. Defaults to `ext4`.',
  'io.k8s.api.core.v1.FCVolumeSource.lun':
    'The logical unit number of the target.',
  'io.k8s.api.core.v1.FCVolumeSource.readOnly':
    'Mount the disk read-only. Defaults to false.',
  'io.k8s.api.core.v1.FCVolumeSource.targetWWNs':
    'The Fibre Channel target world-wide names.',
  'io.k8s.api.core.v1.FCVolumeSource.wwids':
    'World-wide identifiers of the volume, as an alternative to `targetWWNs` and `lun`.',
  'io.k8s.api.core.v1.FlexPersistentVolumeSource':
    'Deprecated: a volume handled by a FlexVolume driver plugin.',
  'io.k8s.api.core.v1.FlexPersistentVolumeSource.driver':
    'The name of the FlexVolume driver.',
  'io.k8s.api.core.v1.FlexPersistentVolumeSource.fsType':
    'The filesystem type, for example `ext4`. The default depends on the driver.',
  'io.k8s.api.core.v1.FlexPersistentVolumeSource.options':
    'Extra driver-specific options.',
  'io.k8s.api.core.v1.FlexPersistentVolumeSource.readOnly':
    'Mount the volume read-only. Defaults to false.',
  'io.k8s.api.core.v1.FlexPersistentVolumeSource.secretRef':
    'A Secret passed to the driver\'s scripts, for example with credentials. May be empty if the driver needs none.',
  'io.k8s.api.core.v1.FlexVolumeSource':
    'Deprecated: a volume provided by a FlexVolume driver script on the node.',
  'io.k8s.api.core.v1.FlexVolumeSource.driver':
    'The name of the FlexVolume driver.',
  'io.k8s.api.core.v1.FlexVolumeSource.fsType':
    'The filesystem type, for example `ext4`. The default depends on the driver.',
  'io.k8s.api.core.v1.FlexVolumeSource.options':
    'Extra driver-specific options.',
  'io.k8s.api.core.v1.FlexVolumeSource.readOnly':
    'Mount the volume read-only. Defaults to false.',
  'io.k8s.api.core.v1.FlexVolumeSource.secretRef':
    'A Secret passed to the driver\'s scripts, for example with credentials. May be empty if the driver needs none.',
  'io.k8s.api.core.v1.FlockerVolumeSource':
    'Deprecated and no longer supported: a Flocker dataset. Set exactly one of the two fields.',
  'io.k8s.api.core.v1.FlockerVolumeSource.datasetName':
    'The name of the dataset, as stored in Flocker metadata.',
  'io.k8s.api.core.v1.FlockerVolumeSource.datasetUUID':
    'The UUID of the dataset.',
  'io.k8s.api.core.v1.GCEPersistentDiskVolumeSource':
    'A Google Compute Engine persistent disk. The disk must exist before it is used, and is formatted if needed.',
  'io.k8s.api.core.v1.GCEPersistentDiskVolumeSource.fsType':
    'The filesystem type, for example `ext4`, `xfs` or `ntfs`. Defaults to `ext4`.',
  'io.k8s.api.core.v1.GCEPersistentDiskVolumeSource.partition':
    'The partition to mount, for example 1 for `/dev/sda1`. 0 (the default) mounts the whole disk.',
  'io.k8s.api.core.v1.GCEPersistentDiskVolumeSource.pdName':
    'The name of the persistent disk in GCE.',
  'io.k8s.api.core.v1.GCEPersistentDiskVolumeSource.readOnly':
    'Mount the disk read-only. Defaults to false.',
  'io.k8s.api.core.v1.GRPCAction':
    'Queries the gRPC health-checking service of the container.',
  'io.k8s.api.core.v1.GRPCAction.port':
    'The port the gRPC service listens on, from 1 to 65535.',
  'io.k8s.api.core.v1.GRPCAction.service':
    'The service name to place in the health-check request. When unset, the server\'s default (overall) health is queried.',
  'io.k8s.api.core.v1.GitRepoVolumeSource':
    'Deprecated: a directory populated with a git repository when the pod starts.',
  'io.k8s.api.core.v1.GitRepoVolumeSource.directory':
    'The name of the target directory. Must not contain or start with `..`. `.` clones directly into the volume root; any other name creates that subdirectory.',
  'io.k8s.api.core.v1.GitRepoVolumeSource.repository':
    'The URL of the repository to clone.',
  'io.k8s.api.core.v1.GitRepoVolumeSource.revision':
    'The commit hash to check out.',
  'io.k8s.api.core.v1.GlusterfsPersistentVolumeSource':
    'Deprecated and no longer supported: a GlusterFS mount.',
  'io.k8s.api.core.v1.GlusterfsPersistentVolumeSource.endpoints':
    'The name of the Endpoints object listing the Glusterfs cluster nodes.',
  'io.k8s.api.core.v1.GlusterfsPersistentVolumeSource.endpointsNamespace':
    'The namespace of the endpoints; the claim\'s namespace when empty.',
  'io.k8s.api.core.v1.GlusterfsPersistentVolumeSource.path':
    'Path of the Glusterfs volume to mount.',
  'io.k8s.api.core.v1.GlusterfsPersistentVolumeSource.readOnly':
    'Mount the volume read-only. Defaults to false.',
  'io.k8s.api.core.v1.GlusterfsVolumeSource':
    'Deprecated and no longer supported: a GlusterFS mount that lives as long as the pod.',
  'io.k8s.api.core.v1.GlusterfsVolumeSource.endpoints':
    'The name of the Endpoints object listing the Glusterfs cluster nodes.',
  'io.k8s.api.core.v1.GlusterfsVolumeSource.path':
    'Path of the Glusterfs volume to mount.',
  'io.k8s.api.core.v1.GlusterfsVolumeSource.readOnly':
    'Mount the volume read-only. Defaults to false.',
  'io.k8s.api.core.v1.HTTPGetAction':
    'Performs an HTTP GET request against the container.',
  'io.k8s.api.core.v1.HTTPGetAction.host':
    'The host to connect to. Defaults to the pod IP; to set a virtual-host name, add a `Host` header in `httpHeaders` instead.',
  'io.k8s.api.core.v1.HTTPGetAction.httpHeaders':
    'Extra headers to send with the request. Repeated headers are allowed.',
  'io.k8s.api.core.v1.HTTPGetAction.path':
    'The request path, for example `/healthz`.',
  'io.k8s.api.core.v1.HTTPGetAction.port':
    'The port to connect to, given as a number (1 to 65535) or as the name of a container port.',
  'io.k8s.api.core.v1.HTTPGetAction.scheme':
    '`HTTP` (the default) or `HTTPS`. Certificates are not verified for HTTPS.',
  'io.k8s.api.core.v1.HTTPHeader':
    'One HTTP header sent with a probe or hook request.',
  'io.k8s.api.core.v1.HTTPHeader.name':
    'The header name. Names are compared case-insensitively.',
  'io.k8s.api.core.v1.HTTPHeader.value':
    'Value to send for the header.',
  'io.k8s.api.core.v1.HostAlias':
    'An extra entry for the pod\'s `/etc/hosts` file.',
  'io.k8s.api.core.v1.HostAlias.hostnames':
    'The host names that resolve to `ip`.',
  'io.k8s.api.core.v1.HostAlias.ip':
    'The IP address the host names resolve to. Required.',
  'io.k8s.api.core.v1.HostIP':
    'One IP address of the node a pod runs on.',
  'io.k8s.api.core.v1.HostIP.ip':
    'The IP address, IPv4 or IPv6.',
  'io.k8s.api.core.v1.HostPathVolumeSource':
    'A path on the node\'s filesystem exposed to the pod.',
  'io.k8s.api.core.v1.HostPathVolumeSource.path':
    'The path on the node. Symbolic links are followed to their target.',
  'io.k8s.api.core.v1.HostPathVolumeSource.type':
    'A check performed before mounting: empty (the default, no check), `DirectoryOrCreate`, `Directory`, `FileOrCreate`, `File`, `Socket`, `CharDevice` or `BlockDevice`.',
  'io.k8s.api.core.v1.ISCSIPersistentVolumeSource':
    'An iSCSI disk.',
  'io.k8s.api.core.v1.ISCSIPersistentVolumeSource.chapAuthDiscovery':
    'Whether to use CHAP authentication for iSCSI discovery.',
  'io.k8s.api.core.v1.ISCSIPersistentVolumeSource.chapAuthSession':
    'Whether to use CHAP authentication for the iSCSI session.',
  'io.k8s.api.core.v1.ISCSIPersistentVolumeSource.fsType':
    'The filesystem type, for example `ext4`, `xfs` or `ntfs`. Defaults to `ext4`.',
  'io.k8s.api.core.v1.ISCSIPersistentVolumeSource.initiatorName':
    'A custom initiator name. When set, a new iSCSI interface `<target portal>:<volume name>` is created for the connection.',
  'io.k8s.api.core.v1.ISCSIPersistentVolumeSource.iqn':
    'The iSCSI Qualified Name of the target.',
  'io.k8s.api.core.v1.ISCSIPersistentVolumeSource.iscsiInterface':
    'The iSCSI interface (transport) name to use. Defaults to `default` (TCP).',
  'io.k8s.api.core.v1.ISCSIPersistentVolumeSource.lun':
    'The logical unit number of the target.',
  'io.k8s.api.core.v1.ISCSIPersistentVolumeSource.portals':
    'Additional target portals (IP or `ip:port`, port 3260 by default) for multipath access.',
  'io.k8s.api.core.v1.ISCSIPersistentVolumeSource.readOnly':
    'Mount the disk read-only. Defaults to false.',
  'io.k8s.api.core.v1.ISCSIPersistentVolumeSource.secretRef':
    'The Secret holding the CHAP credentials.',
  'io.k8s.api.core.v1.ISCSIPersistentVolumeSource.targetPortal':
    'The iSCSI target portal, as an IP address or `ip:port`. The port defaults to 3260.',
  'io.k8s.api.core.v1.ISCSIVolumeSource':
    'An iSCSI disk. Only one writer may mount it read-write at a time; multiple readers are allowed read-only.',
  'io.k8s.api.core.v1.ISCSIVolumeSource.chapAuthDiscovery':
    'Whether to use CHAP authentication for iSCSI discovery.',
  'io.k8s.api.core.v1.ISCSIVolumeSource.chapAuthSession':
    'Whether to use CHAP authentication for the iSCSI session.',
  'io.k8s.api.core.v1.ISCSIVolumeSource.fsType':
    'The filesystem type, for example `ext4`, `xfs` or `ntfs`. Defaults to `ext4`.',
  'io.k8s.api.core.v1.ISCSIVolumeSource.initiatorName':
    'A custom initiator name. When set, a new iSCSI interface `<target portal>:<volume name>` is created for the connection.',
  'io.k8s.api.core.v1.ISCSIVolumeSource.iqn':
    'The iSCSI Qualified Name of the target.',
  'io.k8s.api.core.v1.ISCSIVolumeSource.iscsiInterface':
    'The iSCSI interface (transport) name to use. Defaults to `default` (TCP).',
  'io.k8s.api.core.v1.ISCSIVolumeSource.lun':
    'The logical unit number of the target.',
  'io.k8s.api.core.v1.ISCSIVolumeSource.portals':
    'Additional target portals (IP or `ip:port`, port 3260 by default) for multipath access.',
  'io.k8s.api.core.v1.ISCSIVolumeSource.readOnly':
    'Mount the disk read-only. Defaults to false.',
  'io.k8s.api.core.v1.ISCSIVolumeSource.secretRef':
    'The Secret holding the CHAP credentials.',
  'io.k8s.api.core.v1.ISCSIVolumeSource.targetPortal':
    'The iSCSI target portal, as an IP address or `ip:port`. The port defaults to 3260.',
  'io.k8s.api.core.v1.ImageVolumeSource':
    'An OCI image or artifact mounted read-only into the pod.',
  'io.k8s.api.core.v1.ImageVolumeSource.pullPolicy':
    'When to pull: `Always`, `Never` or `IfNotPresent`. Defaults to `Always` for the `:latest` tag and to `IfNotPresent` otherwise.',
  'io.k8s.api.core.v1.ImageVolumeSource.reference':
    'The image or artifact to mount, in the same form as a container image. Pull secrets are gathered as for container images. Optional so that controllers or config tools can fill it in.',
  'io.k8s.api.core.v1.KeyToPath':
    'Maps one key of a Secret or ConfigMap to a file path in a volume.',
  'io.k8s.api.core.v1.KeyToPath.key':
    'The Secret or ConfigMap key whose value becomes the file\'s content.',
  'io.k8s.api.core.v1.KeyToPath.mode':
    'Permission bits for this file, overriding the volume\'s default mode. Octal 0000 to 0777 or decimal 0 to 511.',
  'io.k8s.api.core.v1.KeyToPath.path':
    'The file path, relative to the volume root, to write the value to. Must not be absolute, contain `..` or start with `..`.',
  'io.k8s.api.core.v1.Lifecycle':
    'Hooks the kubelet runs when a container starts and before it stops. Hooks are synchronous: the container does not move on until its hook has finished.',
  'io.k8s.api.core.v1.Lifecycle.postStart':
    'Runs immediately after the container is created, with no guarantee it runs before the entrypoint. If it fails the container is killed and handled according to its restart policy; the container is not marked running until it completes.',
  'io.k8s.api.core.v1.Lifecycle.preStop':
    'Runs just before the container is stopped because of an API request or a management event such as a failed liveness probe, preemption or contention. It does not run when the container exits or crashes on its own. It counts against the termination grace period; the container is stopped when the hook finishes or the grace period runs out.',
  'io.k8s.api.core.v1.Lifecycle.stopSignal':
    'The signal sent to stop the container, for example `SIGTERM` or `SIGUSR1`, overriding the image\'s stop signal. Only allowed when the pod sets `spec.os.name`, and the signals allowed depend on the OS. Requires the ContainerStopSignals feature.',
  'io.k8s.api.core.v1.LifecycleHandler':
    'The action a lifecycle hook performs. Exactly one field should be set.',
  'io.k8s.api.core.v1.LifecycleHandler.exec':
    'Runs a command inside the container.',
  'io.k8s.api.core.v1.LifecycleHandler.httpGet':
    'Sends an HTTP GET request to the container.',
  'io.k8s.api.core.v1.LifecycleHandler.sleep':
    'Pauses for a number of seconds, for example to let load balancers drain before shutdown.',
  'io.k8s.api.core.v1.LifecycleHandler.tcpSocket':
    'Deprecated and not supported for lifecycle hooks; accepted only for compatibility and fails at runtime if used.',
  'io.k8s.api.core.v1.LinuxContainerUser':
    'The Linux user and groups the container\'s first process started with.',
  'io.k8s.api.core.v1.LinuxContainerUser.gid':
    'The primary group ID.',
  'io.k8s.api.core.v1.LinuxContainerUser.supplementalGroups':
    'The supplementary group IDs the first process started with.',
  'io.k8s.api.core.v1.LinuxContainerUser.uid':
    'The primary user ID.',
  'io.k8s.api.core.v1.LoadBalancerIngress':
    'One point at which a load balancer accepts traffic: an address or a host name.',
  'io.k8s.api.core.v1.LoadBalancerIngress.hostname':
    'The DNS name of the ingress point, for load balancers reached by name.',
  'io.k8s.api.core.v1.LoadBalancerIngress.ip':
    'The IP address of the ingress point.',
  'io.k8s.api.core.v1.LoadBalancerIngress.ipMode':
    'How the ingress address is reached: `VIP` (traffic arrives with the address as its destination) or `Proxy` (traffic arrives at the node or pod with the destination rewritten).',
  'io.k8s.api.core.v1.LoadBalancerIngress.ports':
    'The status of each port of the service at this ingress point.',
  'io.k8s.api.core.v1.LoadBalancerStatus':
    'The state of a load balancer.',
  'io.k8s.api.core.v1.LoadBalancerStatus.ingress':
    'The points at which the load balancer accepts traffic.',
  'io.k8s.api.core.v1.LocalObjectReference':
    'A reference to another object in the same namespace by name alone.',
  'io.k8s.api.core.v1.LocalObjectReference.name':
    'The name of the referenced object. It should be set; an empty name is accepted only for backward compatibility and refers to nothing useful.',
  'io.k8s.api.core.v1.LocalVolumeSource':
    'A local disk, partition or directory of a node.',
  'io.k8s.api.core.v1.LocalVolumeSource.fsType':
    'The filesystem type, for a block device only; picked by the node when empty.',
  'io.k8s.api.core.v1.LocalVolumeSource.path':
    'The full path of the directory or device on the node.',
  'io.k8s.api.core.v1.ModifyVolumeStatus':
    'The progress of changing a volume\'s VolumeAttributesClass.',
  'io.k8s.api.core.v1.ModifyVolumeStatus.status':
    'The state of the change: `Pending` (requirements not met yet, for example the class does not exist), `InProgress`, or `Infeasible` (rejected by the driver; pick a valid class). More states may be added.',
  'io.k8s.api.core.v1.ModifyVolumeStatus.targetVolumeAttributesClassName':
    'The VolumeAttributesClass the claim is being moved to.',
  'io.k8s.api.core.v1.NFSVolumeSource':
    'An NFS export mounted into the pod.',
  'io.k8s.api.core.v1.NFSVolumeSource.path':
    'The exported path on the server.',
  'io.k8s.api.core.v1.NFSVolumeSource.readOnly':
    'Mount the export read-only. Defaults to false.',
  'io.k8s.api.core.v1.NFSVolumeSource.server':
    'Address of the NFS server, as a host name or an IP.',
  'io.k8s.api.core.v1.ComponentCondition':
    'One health observation of a control-plane component.',
  'io.k8s.api.core.v1.ComponentCondition.type':
    'What was observed; `Healthy` is the only type reported.',
  'io.k8s.api.core.v1.ComponentCondition.status':
    'Whether the observation holds: `True`, `False` or `Unknown`.',
  'io.k8s.api.core.v1.ComponentCondition.message':
    'What the component answered, for people to read.',
  'io.k8s.api.core.v1.ComponentCondition.error':
    'The error met while checking the component, if any.',
  'io.k8s.api.core.v1.ComponentStatus':
    'How one part of the control plane (the store, the controller manager, the scheduler) answered a health check when the request was served. Deprecated since 1.19: read the components\' own health endpoints instead.',
  'io.k8s.api.core.v1.ComponentStatus.apiVersion':
    'The group/version the body is written in, always `v1` here.',
  'io.k8s.api.core.v1.ComponentStatus.kind':
    'The REST resource type of this object, always `ComponentStatus` here.',
  'io.k8s.api.core.v1.ComponentStatus.metadata':
    'The component\'s name; nothing else is set, as the object is computed, not stored.',
  'io.k8s.api.core.v1.ComponentStatus.conditions':
    'The observations made of the component.',
  'io.k8s.api.core.v1.ComponentStatusList':
    'The health of every control-plane component, checked when the list was asked for.',
  'io.k8s.api.core.v1.ComponentStatusList.apiVersion':
    'The group/version the body is written in, always `v1` here.',
  'io.k8s.api.core.v1.ComponentStatusList.kind':
    'The REST resource type of this list, always `ComponentStatusList` here.',
  'io.k8s.api.core.v1.ComponentStatusList.metadata':
    'List metadata; empty, as the list is computed, not stored.',
  'io.k8s.api.core.v1.ComponentStatusList.items':
    'One entry per component.',
  'io.k8s.api.core.v1.Namespace':
    'A cluster-scoped object that partitions names and resources: most namespaced objects live in exactly one namespace, and deleting a namespace deletes everything in it.',
  'io.k8s.api.core.v1.Namespace.apiVersion':
    'The group/version the body is written in, always `v1` here. The server uses it to pick the schema for decoding and rejects versions it does not serve.',
  'io.k8s.api.core.v1.Namespace.kind':
    'The REST resource type of this object, always `Namespace` here. Servers fill it in on responses, and clients should send it so the body can be decoded without outside context.',
  'io.k8s.api.core.v1.Namespace.metadata':
    'The object\'s name, namespace, labels, annotations and other metadata shared by all persisted objects.',
  'io.k8s.api.core.v1.Namespace.spec':
    'Settings for the namespace, currently just its finalizers.',
  'io.k8s.api.core.v1.Namespace.status':
    'The observed state of the namespace, including whether it is being terminated.',
  'io.k8s.api.core.v1.NamespaceCondition':
    'One observed aspect of a Namespace\'s state, typically about content removal during termination.',
  'io.k8s.api.core.v1.NamespaceCondition.lastTransitionTime':
    'When `status` last changed.',
  'io.k8s.api.core.v1.NamespaceCondition.message':
    'Human-readable details about the last change of the condition.',
  'io.k8s.api.core.v1.NamespaceCondition.reason':
    'A short CamelCase word explaining why the condition last changed.',
  'io.k8s.api.core.v1.NamespaceCondition.status':
    'Whether the condition holds: `True`, `False` or `Unknown`.',
  'io.k8s.api.core.v1.NamespaceCondition.type':
    'The kind of condition, for example `NamespaceDeletionContentFailure` or `NamespaceContentRemaining`.',
  'io.k8s.api.core.v1.NamespaceList':
    'A list of Namespace objects.',
  'io.k8s.api.core.v1.NamespaceList.apiVersion':
    'The group/version the body is written in, always `v1` here. The server uses it to pick the schema for decoding and rejects versions it does not serve.',
  'io.k8s.api.core.v1.NamespaceList.items':
    'The Namespaces in the list.',
  'io.k8s.api.core.v1.NamespaceList.kind':
    'The REST resource type of this object, always `NamespaceList` here. Servers fill it in on responses, and clients should send it so the body can be decoded without outside context.',
  'io.k8s.api.core.v1.NamespaceList.metadata':
    'The resource version the list was read at, plus paging information.',
  'io.k8s.api.core.v1.NamespaceSpec':
    'The desired behavior of a Namespace.',
  'io.k8s.api.core.v1.NamespaceSpec.finalizers':
    'Cleanup steps that must finish before the namespace is removed from storage. The built-in `kubernetes` finalizer is cleared once all content of the namespace has been deleted.',
  'io.k8s.api.core.v1.NamespaceStatus':
    'The observed state of a Namespace.',
  'io.k8s.api.core.v1.NamespaceStatus.conditions':
    'The latest available observations of the namespace\'s state, mostly describing progress and problems during deletion.',
  'io.k8s.api.core.v1.NamespaceStatus.phase':
    'The lifecycle stage of the namespace: `Active` while in use, or `Terminating` once deletion has started and its contents are being removed.',
  'io.k8s.api.core.v1.Node':
    'A worker machine of the cluster, as its agent (the kubelet) registers and reports it. Pods run on nodes.',
  'io.k8s.api.core.v1.Node.apiVersion':
    'The group/version the body is written in, always `v1` here. The server uses it to pick the schema for decoding and rejects versions it does not serve.',
  'io.k8s.api.core.v1.Node.kind':
    'The REST resource type of this object, always `Node` here. Servers fill it in on responses, and clients should send it so the body can be decoded without outside context.',
  'io.k8s.api.core.v1.Node.metadata':
    'The object\'s name, namespace, labels, annotations and other metadata shared by all persisted objects.',
  'io.k8s.api.core.v1.Node.spec':
    'How the node should be treated: its pod address range, taints and whether new pods may be scheduled on it.',
  'io.k8s.api.core.v1.Node.status':
    'What the node reports about itself: capacity, conditions, addresses and system information. Written through the `status` subresource.',
  'io.k8s.api.core.v1.NodeAddress':
    'One address of a Node.',
  'io.k8s.api.core.v1.NodeAddress.address':
    'The address itself.',
  'io.k8s.api.core.v1.NodeAddress.type':
    'The kind of address: `Hostname`, `InternalIP`, `ExternalIP`, `InternalDNS` or `ExternalDNS`.',
  'io.k8s.api.core.v1.NodeAffinity':
    'Node selection rules based on node labels and fields, as hard requirements and weighted preferences.',
  'io.k8s.api.core.v1.NodeAffinity.preferredDuringSchedulingIgnoredDuringExecution':
    'Soft preferences: for each node the scheduler adds up the weights of the terms it matches and favors nodes with higher totals, but may still choose a node that matches none.',
  'io.k8s.api.core.v1.NodeAffinity.requiredDuringSchedulingIgnoredDuringExecution':
    'A node must satisfy this selector for the pod to be scheduled there. If the node\'s labels later stop matching, the running pod is not necessarily evicted.',
  'io.k8s.api.core.v1.NodeCondition':
    'One observed aspect of a Node\'s state.',
  'io.k8s.api.core.v1.NodeCondition.lastHeartbeatTime':
    'When the node last reported this condition.',
  'io.k8s.api.core.v1.NodeCondition.lastTransitionTime':
    'When `status` last changed.',
  'io.k8s.api.core.v1.NodeCondition.message':
    'Human-readable details about the last transition.',
  'io.k8s.api.core.v1.NodeCondition.reason':
    'A short CamelCase word explaining the last transition.',
  'io.k8s.api.core.v1.NodeCondition.status':
    'Whether the condition holds: `True`, `False` or `Unknown`.',
  'io.k8s.api.core.v1.NodeCondition.type':
    'The kind of condition, such as `Ready` or `MemoryPressure`.',
  'io.k8s.api.core.v1.NodeConfigSource':
    'Deprecated: where the kubelet read its dynamic configuration from.',
  'io.k8s.api.core.v1.NodeConfigSource.configMap':
    'A ConfigMap holding the configuration.',
  'io.k8s.api.core.v1.NodeConfigStatus':
    'Deprecated: the status of a node\'s dynamic kubelet configuration.',
  'io.k8s.api.core.v1.NodeConfigStatus.active':
    'The configuration the node is using.',
  'io.k8s.api.core.v1.NodeConfigStatus.assigned':
    'The configuration the node was told to use.',
  'io.k8s.api.core.v1.NodeConfigStatus.error':
    'Why the assigned configuration could not be used.',
  'io.k8s.api.core.v1.NodeConfigStatus.lastKnownGood':
    'The configuration the node falls back to.',
  'io.k8s.api.core.v1.NodeDaemonEndpoints':
    'Ports of the daemons running on a Node.',
  'io.k8s.api.core.v1.NodeDaemonEndpoints.kubeletEndpoint':
    'The port the kubelet listens on.',
  'io.k8s.api.core.v1.NodeFeatures':
    'Optional features a node supports.',
  'io.k8s.api.core.v1.NodeFeatures.supplementalGroupsPolicy':
    'Whether the node honours a pod\'s supplementalGroupsPolicy.',
  'io.k8s.api.core.v1.NodeList':
    'A list of Node objects.',
  'io.k8s.api.core.v1.NodeList.apiVersion':
    'The group/version the body is written in, always `v1` here. The server uses it to pick the schema for decoding and rejects versions it does not serve.',
  'io.k8s.api.core.v1.NodeList.items':
    'The Nodes in the list.',
  'io.k8s.api.core.v1.NodeList.kind':
    'The REST resource type of this object, always `NodeList` here. Servers fill it in on responses, and clients should send it so the body can be decoded without outside context.',
  'io.k8s.api.core.v1.NodeList.metadata':
    'The resource version the list was read at, plus paging information.',
  'io.k8s.api.core.v1.NodeRuntimeHandler':
    'A container runtime handler available on a node.',
  'io.k8s.api.core.v1.NodeRuntimeHandler.features':
    'What the handler supports.',
  'io.k8s.api.core.v1.NodeRuntimeHandler.name':
    'The handler\'s name; empty for the default handler.',
  'io.k8s.api.core.v1.NodeRuntimeHandlerFeatures':
    'What a runtime handler supports.',
  'io.k8s.api.core.v1.NodeRuntimeHandlerFeatures.recursiveReadOnlyMounts':
    'Whether it supports recursive read-only mounts.',
  'io.k8s.api.core.v1.NodeRuntimeHandlerFeatures.userNamespaces':
    'Whether it supports user namespaces for pods.',
  'io.k8s.api.core.v1.NodeSelector':
    'A node query made of one or more terms, of which at least one must match (logical OR).',
  'io.k8s.api.core.v1.NodeSelector.nodeSelectorTerms':
    'The alternative terms. Required; a node is selected if it matches any of them.',
  'io.k8s.api.core.v1.NodeSelectorRequirement':
    'One condition on a node label or field: a key, an operator and values.',
  'io.k8s.api.core.v1.NodeSelectorRequirement.key':
    'The label key (or field path) tested.',
  'io.k8s.api.core.v1.NodeSelectorRequirement.operator':
    'How the key is tested: `In`, `NotIn`, `Exists`, `DoesNotExist`, `Gt` or `Lt`.',
  'io.k8s.api.core.v1.NodeSelectorRequirement.values':
    'The values to compare with. Non-empty for `In` and `NotIn`, empty for `Exists` and `DoesNotExist`, and exactly one integer for `Gt` and `Lt`. Replaced as a whole by strategic merge patches.',
  'io.k8s.api.core.v1.NodeSelectorTerm':
    'One alternative in a node selector. All its requirements must hold (logical AND); a term with no requirements matches no node.',
  'io.k8s.api.core.v1.NodeSelectorTerm.matchExpressions':
    'Requirements on the node\'s labels.',
  'io.k8s.api.core.v1.NodeSelectorTerm.matchFields':
    'Requirements on the node\'s fields; only `metadata.name` is supported.',
  'io.k8s.api.core.v1.NodeSpec':
    'The desired treatment of a Node.',
  'io.k8s.api.core.v1.NodeSpec.configSource':
    'Deprecated and no longer used: where the kubelet once read its dynamic configuration.',
  'io.k8s.api.core.v1.NodeSpec.externalID':
    'Deprecated and unused. Cannot be changed.',
  'io.k8s.api.core.v1.NodeSpec.podCIDR':
    'The address range assigned to the node for its pods. Mirrors the first entry of `podCIDRs`.',
  'io.k8s.api.core.v1.NodeSpec.podCIDRs':
    'The address ranges assigned to the node for its pods, at most one per IP family. May be set once, then not changed.',
  'io.k8s.api.core.v1.NodeSpec.providerID':
    'The node\'s ID in the cloud provider\'s terms, as `<provider>://<id>`. May be set once.',
  'io.k8s.api.core.v1.NodeSpec.taints':
    'Taints that repel pods which do not tolerate them.',
  'io.k8s.api.core.v1.NodeSpec.unschedulable':
    'Keep new pods off the node (cordon). Pods already there stay.',
  'io.k8s.api.core.v1.NodeStatus':
    'What a Node reports about itself.',
  'io.k8s.api.core.v1.NodeStatus.addresses':
    'The addresses of the node (InternalIP, ExternalIP, Hostname, ...). Replace the whole list when changing it: its merge key is not unique enough to merge safely.',
  'io.k8s.api.core.v1.NodeStatus.allocatable':
    'The resources available to pods, after what the system reserves. Defaults to the capacity.',
  'io.k8s.api.core.v1.NodeStatus.capacity':
    'The node\'s total resources (cpu, memory, pods, ...).',
  'io.k8s.api.core.v1.NodeStatus.conditions':
    'The node\'s conditions, such as Ready, MemoryPressure, DiskPressure and PIDPressure, each with its last heartbeat and transition.',
  'io.k8s.api.core.v1.NodeStatus.config':
    'Deprecated: the status of the kubelet\'s dynamic configuration.',
  'io.k8s.api.core.v1.NodeStatus.daemonEndpoints':
    'The endpoints of daemons on the node, such as the kubelet.',
  'io.k8s.api.core.v1.NodeStatus.features':
    'The optional features the node supports.',
  'io.k8s.api.core.v1.NodeStatus.images':
    'The container images present on the node.',
  'io.k8s.api.core.v1.NodeStatus.nodeInfo':
    'Versions and identifiers of the node\'s system and software.',
  'io.k8s.api.core.v1.NodeStatus.phase':
    'Deprecated and no longer set: the node\'s lifecycle phase.',
  'io.k8s.api.core.v1.NodeStatus.runtimeHandlers':
    'The container runtime handlers available on the node and what each supports.',
  'io.k8s.api.core.v1.NodeStatus.volumesAttached':
    'The volumes attached to the node.',
  'io.k8s.api.core.v1.NodeStatus.volumesInUse':
    'The volumes attached to and mounted on the node.',
  'io.k8s.api.core.v1.NodeSwapStatus':
    'Swap memory of a Node.',
  'io.k8s.api.core.v1.NodeSwapStatus.capacity':
    'The total swap memory, in bytes.',
  'io.k8s.api.core.v1.NodeSystemInfo':
    'Identifiers and versions of a Node\'s system and software.',
  'io.k8s.api.core.v1.NodeSystemInfo.architecture':
    'The CPU architecture, such as `amd64`.',
  'io.k8s.api.core.v1.NodeSystemInfo.bootID':
    'The ID of the node\'s current boot.',
  'io.k8s.api.core.v1.NodeSystemInfo.containerRuntimeVersion':
    'The container runtime and its version, such as `containerd://1.7.0`.',
  'io.k8s.api.core.v1.NodeSystemInfo.kernelVersion':
    'The kernel version (`uname -r`).',
  'io.k8s.api.core.v1.NodeSystemInfo.kubeProxyVersion':
    'Deprecated and not reliable: the kube-proxy version.',
  'io.k8s.api.core.v1.NodeSystemInfo.kubeletVersion':
    'The kubelet\'s version.',
  'io.k8s.api.core.v1.NodeSystemInfo.machineID':
    'The machine ID of the node (from /etc/machine-id).',
  'io.k8s.api.core.v1.NodeSystemInfo.operatingSystem':
    'The operating system, such as `linux`.',
  'io.k8s.api.core.v1.NodeSystemInfo.osImage':
    'The operating system image (from /etc/os-release).',
  'io.k8s.api.core.v1.NodeSystemInfo.swap':
    'Swap memory on the node.',
  'io.k8s.api.core.v1.NodeSystemInfo.systemUUID':
    'The hardware UUID of the node.',
  'io.k8s.api.core.v1.ObjectFieldSelector':
    'Selects a field of the pod by path.',
  'io.k8s.api.core.v1.ObjectFieldSelector.apiVersion':
    'The API version the field path is written against. Defaults to `v1`.',
  'io.k8s.api.core.v1.ObjectFieldSelector.fieldPath':
    'The path of the field to read, in the given API version, for example `metadata.name`.',
  'io.k8s.api.core.v1.ObjectReference':
    'A reference to an object, or to a part of one.',
  'io.k8s.api.core.v1.ObjectReference.apiVersion':
    'The object\'s API version.',
  'io.k8s.api.core.v1.ObjectReference.fieldPath':
    'The part of the object meant, as a field path such as `spec.containers{name}`.',
  'io.k8s.api.core.v1.ObjectReference.kind':
    'The object\'s kind.',
  'io.k8s.api.core.v1.ObjectReference.name':
    'The object\'s name.',
  'io.k8s.api.core.v1.ObjectReference.namespace':
    'The object\'s namespace.',
  'io.k8s.api.core.v1.ObjectReference.resourceVersion':
    'The object\'s resourceVersion when the reference was made.',
  'io.k8s.api.core.v1.ObjectReference.uid':
    'The object\'s UID.',
  'io.k8s.api.core.v1.PersistentVolume':
    'A piece of storage in the cluster, provisioned by an administrator or by a storage class, that claims bind to.',
  'io.k8s.api.core.v1.PersistentVolume.apiVersion':
    'The group/version the body is written in, always `v1` here. The server uses it to pick the schema for decoding and rejects versions it does not serve.',
  'io.k8s.api.core.v1.PersistentVolume.kind':
    'The REST resource type of this object, always `PersistentVolume` here. Servers fill it in on responses, and clients should send it so the body can be decoded without outside context.',
  'io.k8s.api.core.v1.PersistentVolume.metadata':
    'The object\'s name, namespace, labels, annotations and other metadata shared by all persisted objects.',
  'io.k8s.api.core.v1.PersistentVolume.spec':
    'The storage itself and how it may be used.',
  'io.k8s.api.core.v1.PersistentVolume.status':
    'Where the volume is in its lifecycle. Written through the `status` subresource.',
  'io.k8s.api.core.v1.PersistentVolumeClaim':
    'A user\'s request for storage. The claim is bound to a matching PersistentVolume (possibly provisioned on demand) and then mounted into pods by name.',
  'io.k8s.api.core.v1.PersistentVolumeClaim.apiVersion':
    'The group/version the body is written in, always `v1` here. The server uses it to pick the schema for decoding and rejects versions it does not serve.',
  'io.k8s.api.core.v1.PersistentVolumeClaim.kind':
    'The REST resource type of this object, always `PersistentVolumeClaim` here. Servers fill it in on responses, and clients should send it so the body can be decoded without outside context.',
  'io.k8s.api.core.v1.PersistentVolumeClaim.metadata':
    'The object\'s name, namespace, labels, annotations and other metadata shared by all persisted objects.',
  'io.k8s.api.core.v1.PersistentVolumeClaim.spec':
    'The desired storage: size, access modes, storage class and data source.',
  'io.k8s.api.core.v1.PersistentVolumeClaim.status':
    'The observed state of the claim, such as its phase and actual capacity. Read-only.',
  'io.k8s.api.core.v1.PersistentVolumeClaimCondition':
    'One observed aspect of a persistent volume claim, mostly about resizing and attribute changes.',
  'io.k8s.api.core.v1.PersistentVolumeClaimCondition.lastProbeTime':
    'When the condition was last checked.',
  'io.k8s.api.core.v1.PersistentVolumeClaimCondition.lastTransitionTime':
    'When `status` last changed.',
  'io.k8s.api.core.v1.PersistentVolumeClaimCondition.message':
    'Human-readable details about the last change of the condition.',
  'io.k8s.api.core.v1.PersistentVolumeClaimCondition.reason':
    'A short CamelCase reason for the last transition.',
  'io.k8s.api.core.v1.PersistentVolumeClaimCondition.status':
    'Whether the condition holds: `True`, `False` or `Unknown`.',
  'io.k8s.api.core.v1.PersistentVolumeClaimCondition.type':
    'The kind of condition, for example `Resizing`, `FileSystemResizePending`, `ModifyingVolume` or `ModifyVolumeError`.',
  'io.k8s.api.core.v1.PersistentVolumeClaimList':
    'A list of PersistentVolumeClaim objects.',
  'io.k8s.api.core.v1.PersistentVolumeClaimList.apiVersion':
    'The group/version the body is written in, always `v1` here. The server uses it to pick the schema for decoding and rejects versions it does not serve.',
  'io.k8s.api.core.v1.PersistentVolumeClaimList.items':
    'The PersistentVolumeClaims in the list.',
  'io.k8s.api.core.v1.PersistentVolumeClaimList.kind':
    'The REST resource type of this object, always `PersistentVolumeClaimList` here. Servers fill it in on responses, and clients should send it so the body can be decoded without outside context.',
  'io.k8s.api.core.v1.PersistentVolumeClaimList.metadata':
    'The resource version the list was read at, plus paging information.',
  'io.k8s.api.core.v1.PersistentVolumeClaimSpec':
    'The desired characteristics of a persistent volume claim.',
  'io.k8s.api.core.v1.PersistentVolumeClaimSpec.accessModes':
    'How the volume may be mounted: `ReadWriteOnce`, `ReadOnlyMany`, `ReadWriteMany` or `ReadWriteOncePod`.',
  'io.k8s.api.core.v1.PersistentVolumeClaimSpec.dataSource':
    'An existing object to populate the new volume from, such as a VolumeSnapshot or another PersistentVolumeClaim. Only used when a volume is provisioned. Kept in sync with `dataSourceRef` when the latter has no namespace.',
  'io.k8s.api.core.v1.PersistentVolumeClaimSpec.dataSourceRef':
    'The object to populate the new volume from; like `dataSource` but also allows custom populator kinds and, with the CrossNamespaceVolumeDataSource feature, objects in another namespace. When both are set they must agree if the namespace is empty.',
  'io.k8s.api.core.v1.PersistentVolumeClaimSpec.resources':
    'The minimum storage the claim needs (`requests.storage`). Users may raise it later to expand the volume if the storage class allows expansion.',
  'io.k8s.api.core.v1.PersistentVolumeClaimSpec.selector':
    'A label query restricting which existing volumes may be bound to the claim.',
  'io.k8s.api.core.v1.PersistentVolumeClaimSpec.storageClassName':
    'The StorageClass the claim uses. Unset means the cluster default class; an empty string requests a volume with no class.',
  'io.k8s.api.core.v1.PersistentVolumeClaimSpec.volumeAttributesClassName':
    'The VolumeAttributesClass whose mutable parameters (such as IOPS) should be applied to the volume. It may be changed after creation to modify the volume. Requires the VolumeAttributesClass feature.',
  'io.k8s.api.core.v1.PersistentVolumeClaimSpec.volumeMode':
    'Whether the volume is used as a mounted `Filesystem` (the default) or as a raw `Block` device.',
  'io.k8s.api.core.v1.PersistentVolumeClaimSpec.volumeName':
    'Binds the claim to this specific PersistentVolume by name.',
  'io.k8s.api.core.v1.PersistentVolumeClaimStatus':
    'The observed state of a persistent volume claim.',
  'io.k8s.api.core.v1.PersistentVolumeClaimStatus.accessModes':
    'The access modes the bound volume actually provides.',
  'io.k8s.api.core.v1.PersistentVolumeClaimStatus.allocatedResourceStatuses':
    'The progress of resize operations per resource, for example `ControllerResizeInProgress`, `NodeResizePending` or `NodeResizeInfeasible`.',
  'io.k8s.api.core.v1.PersistentVolumeClaimStatus.allocatedResources':
    'The storage amount the system has allocated to the claim. During an expansion it may be larger than `capacity`; recovering from a failed expansion may lower it.',
  'io.k8s.api.core.v1.PersistentVolumeClaimStatus.capacity':
    'The actual resources of the bound volume, for example its storage size.',
  'io.k8s.api.core.v1.PersistentVolumeClaimStatus.conditions':
    'The latest observations of the claim, such as `Resizing` or `FileSystemResizePending` during expansion.',
  'io.k8s.api.core.v1.PersistentVolumeClaimStatus.currentVolumeAttributesClassName':
    'The VolumeAttributesClass currently applied to the volume; empty when none is applied.',
  'io.k8s.api.core.v1.PersistentVolumeClaimStatus.modifyVolumeStatus':
    'The status of an in-progress change of the volume\'s attributes class. Unset when no modification is going on.',
  'io.k8s.api.core.v1.PersistentVolumeClaimStatus.phase':
    'Where the claim is in its lifecycle: `Pending`, `Bound` or `Lost`.',
  'io.k8s.api.core.v1.PersistentVolumeClaimTemplate':
    'A template from which a PersistentVolumeClaim is created for a generic ephemeral volume.',
  'io.k8s.api.core.v1.PersistentVolumeClaimTemplate.metadata':
    'Labels and annotations copied into the created claim. Other metadata fields are not allowed.',
  'io.k8s.api.core.v1.PersistentVolumeClaimTemplate.spec':
    'The claim spec, copied unchanged into the created claim. It is validated as a normal claim spec.',
  'io.k8s.api.core.v1.PersistentVolumeClaimVolumeSource':
    'Mounts the storage bound to a PersistentVolumeClaim in the pod\'s namespace.',
  'io.k8s.api.core.v1.PersistentVolumeClaimVolumeSource.claimName':
    'The name of the PersistentVolumeClaim.',
  'io.k8s.api.core.v1.PersistentVolumeClaimVolumeSource.readOnly':
    'Force the mount to be read-only. Defaults to false.',
  'io.k8s.api.core.v1.PersistentVolumeList':
    'A list of PersistentVolume objects.',
  'io.k8s.api.core.v1.PersistentVolumeList.apiVersion':
    'The group/version the body is written in, always `v1` here. The server uses it to pick the schema for decoding and rejects versions it does not serve.',
  'io.k8s.api.core.v1.PersistentVolumeList.items':
    'The PersistentVolumes in the list.',
  'io.k8s.api.core.v1.PersistentVolumeList.kind':
    'The REST resource type of this object, always `PersistentVolumeList` here. Servers fill it in on responses, and clients should send it so the body can be decoded without outside context.',
  'io.k8s.api.core.v1.PersistentVolumeList.metadata':
    'The resource version the list was read at, plus paging information.',
  'io.k8s.api.core.v1.PersistentVolumeSpec':
    'The description of a PersistentVolume: its size, access modes, the storage behind it (exactly one source), and what happens when its claim is gone. The source cannot change once created.',
  'io.k8s.api.core.v1.PersistentVolumeSpec.accessModes':
    'How the volume may be mounted: `ReadWriteOnce`, `ReadOnlyMany`, `ReadWriteMany` or `ReadWriteOncePod` (which excludes the others).',
  'io.k8s.api.core.v1.PersistentVolumeSpec.awsElasticBlockStore':
    'Deprecated: an AWS EBS volume attached to the node. Served by the `ebs.csi.aws.com` CSI driver through CSI migration.',
  'io.k8s.api.core.v1.PersistentVolumeSpec.azureDisk':
    'Deprecated: an Azure data disk attached to the node. Served by the `disk.csi.azure.com` CSI driver through CSI migration.',
  'io.k8s.api.core.v1.PersistentVolumeSpec.azureFile':
    'Deprecated: an Azure File share. Served by the `file.csi.azure.com` CSI driver through CSI migration.',
  'io.k8s.api.core.v1.PersistentVolumeSpec.capacity':
    'The size of the volume; only `storage` may be given.',
  'io.k8s.api.core.v1.PersistentVolumeSpec.cephfs':
    'Deprecated and no longer supported: a CephFS mount.',
  'io.k8s.api.core.v1.PersistentVolumeSpec.cinder':
    'Deprecated: an OpenStack Cinder volume attached to the node. Served by the `cinder.csi.openstack.org` CSI driver through CSI migration.',
  'io.k8s.api.core.v1.PersistentVolumeSpec.claimRef':
    'The claim the volume is bound (or reserved) to.',
  'io.k8s.api.core.v1.PersistentVolumeSpec.csi':
    'Storage provided by a CSI driver, named by the driver and a volume handle.',
  'io.k8s.api.core.v1.PersistentVolumeSpec.fc':
    'A Fibre Channel disk attached to the node and exposed to the pod.',
  'io.k8s.api.core.v1.PersistentVolumeSpec.flexVolume':
    'Deprecated: a volume handled by a FlexVolume driver plugin on the node. Use a CSI driver instead.',
  'io.k8s.api.core.v1.PersistentVolumeSpec.flocker':
    'Deprecated and no longer supported: a Flocker dataset.',
  'io.k8s.api.core.v1.PersistentVolumeSpec.gcePersistentDisk':
    'Deprecated: a Google Compute Engine persistent disk attached to the node. Served by the `pd.csi.storage.gke.io` CSI driver through CSI migration.',
  'io.k8s.api.core.v1.PersistentVolumeSpec.glusterfs':
    'Deprecated and no longer supported: a GlusterFS mount.',
  'io.k8s.api.core.v1.PersistentVolumeSpec.hostPath':
    'A directory on one node\'s filesystem. Only for single-node testing: the volume exists on one node only.',
  'io.k8s.api.core.v1.PersistentVolumeSpec.iscsi':
    'An iSCSI disk attached to the node and exposed to the pod.',
  'io.k8s.api.core.v1.PersistentVolumeSpec.local':
    'A local disk or directory on one node; requires `nodeAffinity` naming that node.',
  'io.k8s.api.core.v1.PersistentVolumeSpec.mountOptions':
    'Mount options passed to the mount, not validated by the server.',
  'io.k8s.api.core.v1.PersistentVolumeSpec.nfs':
    'An NFS export mounted from a remote server.',
  'io.k8s.api.core.v1.PersistentVolumeSpec.nodeAffinity':
    'The nodes the volume can be reached from; pods using it are scheduled there.',
  'io.k8s.api.core.v1.PersistentVolumeSpec.persistentVolumeReclaimPolicy':
    'What happens when the claim is deleted: `Retain` (kept for manual reclamation, the default for volumes created by hand), `Delete` (deleted, the default for provisioned volumes) or `Recycle` (deprecated).',
  'io.k8s.api.core.v1.PersistentVolumeSpec.photonPersistentDisk':
    'Deprecated and no longer supported: a Photon Controller persistent disk.',
  'io.k8s.api.core.v1.PersistentVolumeSpec.portworxVolume':
    'Deprecated: a Portworx volume. When CSI migration is on, the `pxd.portworx.com` CSI driver serves it.',
  'io.k8s.api.core.v1.PersistentVolumeSpec.quobyte':
    'Deprecated and no longer supported: a Quobyte mount.',
  'io.k8s.api.core.v1.PersistentVolumeSpec.rbd':
    'Deprecated and no longer supported: a Ceph RADOS block device.',
  'io.k8s.api.core.v1.PersistentVolumeSpec.scaleIO':
    'Deprecated and no longer supported: a ScaleIO volume.',
  'io.k8s.api.core.v1.PersistentVolumeSpec.storageClassName':
    'The class the volume belongs to; only claims asking for this class bind to it. Empty means no class.',
  'io.k8s.api.core.v1.PersistentVolumeSpec.storageos':
    'Deprecated and no longer supported: a StorageOS volume.',
  'io.k8s.api.core.v1.PersistentVolumeSpec.volumeAttributesClassName':
    'The VolumeAttributesClass of the volume. Only honoured where the VolumeAttributesClass feature is enabled (off by default).',
  'io.k8s.api.core.v1.PersistentVolumeSpec.volumeMode':
    '`Filesystem` (the default) or `Block`.',
  'io.k8s.api.core.v1.PersistentVolumeSpec.vsphereVolume':
    'Deprecated: a vSphere virtual disk. Served by the `csi.vsphere.vmware.com` CSI driver through CSI migration.',
  'io.k8s.api.core.v1.PersistentVolumeStatus':
    'Where a PersistentVolume is in its lifecycle.',
  'io.k8s.api.core.v1.PersistentVolumeStatus.lastPhaseTransitionTime':
    'When the phase last changed; set by the server on every phase change.',
  'io.k8s.api.core.v1.PersistentVolumeStatus.message':
    'Human-readable details of the phase.',
  'io.k8s.api.core.v1.PersistentVolumeStatus.phase':
    '`Pending`, `Available` (free), `Bound` (to a claim), `Released` (its claim is gone, not yet reclaimed) or `Failed`.',
  'io.k8s.api.core.v1.PersistentVolumeStatus.reason':
    'A short CamelCase word for a failure.',
  'io.k8s.api.core.v1.PhotonPersistentDiskVolumeSource':
    'Deprecated and no longer supported: a Photon Controller persistent disk.',
  'io.k8s.api.core.v1.PhotonPersistentDiskVolumeSource.fsType':
    'The filesystem type, for example `ext4`, `xfs` or `ntfs`. Defaults to `ext4`.',
  'io.k8s.api.core.v1.PhotonPersistentDiskVolumeSource.pdID':
    'ID of the Photon Controller persistent disk.',
  'io.k8s.api.core.v1.Pod':
    'The smallest deployable unit: one or more containers scheduled together onto a node, sharing network and storage. Pods are created by users or controllers and run until they finish or are deleted.',
  'io.k8s.api.core.v1.Pod.apiVersion':
    'The group/version the body is written in, always `v1` here. The server uses it to pick the schema for decoding and rejects versions it does not serve.',
  'io.k8s.api.core.v1.Pod.kind':
    'The REST resource type of this object, always `Pod` here. Servers fill it in on responses, and clients should send it so the body can be decoded without outside context.',
  'io.k8s.api.core.v1.Pod.metadata':
    'The object\'s name, namespace, labels, annotations and other metadata shared by all persisted objects.',
  'io.k8s.api.core.v1.Pod.spec':
    'The desired behavior of the pod: its containers, volumes and scheduling constraints.',
  'io.k8s.api.core.v1.Pod.status':
    'The most recently observed state of the pod, reported by the kubelet and control plane. May lag behind reality and is read-only for users.',
  'io.k8s.api.core.v1.PodAffinity':
    'Rules that attract the pod to topology domains where matching pods already run.',
  'io.k8s.api.core.v1.PodAffinity.preferredDuringSchedulingIgnoredDuringExecution':
    'Soft preferences: for each node the scheduler adds up the weights of the satisfied terms and favors nodes with higher totals, but may pick a node that satisfies none.',
  'io.k8s.api.core.v1.PodAffinity.requiredDuringSchedulingIgnoredDuringExecution':
    'Every term must be satisfied for the pod to be scheduled onto a node. If the terms later stop being satisfied, the pod is not necessarily evicted.',
  'io.k8s.api.core.v1.PodAffinityTerm':
    'Describes a set of pods (by label selector and namespaces) and a topology key. The term holds for a node if a matching pod runs on a node in the same topology domain, that is, with the same value for the topology key label.',
  'io.k8s.api.core.v1.PodAffinityTerm.labelSelector':
    'The label query that selects the pods this term refers to. A null selector matches no pods.',
  'io.k8s.api.core.v1.PodAffinityTerm.matchLabelKeys':
    'Label keys whose values are copied from the incoming pod into the selector as `key in (value)` requirements, for example to restrict the term to pods of the same revision. Keys the pod does not have are ignored. Requires a non-null `labelSelector` and must not overlap `mismatchLabelKeys`.',
  'io.k8s.api.core.v1.PodAffinityTerm.mismatchLabelKeys':
    'Label keys whose values are copied from the incoming pod into the selector as `key notin (value)` requirements. Requires a non-null `labelSelector` and must not overlap `matchLabelKeys`.',
  'io.k8s.api.core.v1.PodAffinityTerm.namespaceSelector':
    'A label query over namespaces whose pods are considered, combined with `namespaces`. An empty selector (`{}`) matches every namespace; null with an empty `namespaces` list means the pod\'s own namespace.',
  'io.k8s.api.core.v1.PodAffinityTerm.namespaces':
    'Namespaces whose pods are considered, combined (as a union) with those chosen by `namespaceSelector`. If both are empty or unset, the pod\'s own namespace is used.',
  'io.k8s.api.core.v1.PodAffinityTerm.topologyKey':
    'The node label key that defines a topology domain, for example `kubernetes.io/hostname` or `topology.kubernetes.io/zone`. Required and must not be empty.',
  'io.k8s.api.core.v1.PodAntiAffinity':
    'Rules that repel the pod from topology domains where matching pods already run.',
  'io.k8s.api.core.v1.PodAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution':
    'Soft preferences: for each node the scheduler adds up the weights of the terms it would violate and favors nodes with lower totals, but may still pick a node that violates them.',
  'io.k8s.api.core.v1.PodAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution':
    'No term may be violated for the pod to be scheduled onto a node. If the terms later stop being satisfied, the pod is not necessarily evicted.',
  'io.k8s.api.core.v1.PodCondition':
    'One observed aspect of a pod\'s state, such as whether it is scheduled or ready.',
  'io.k8s.api.core.v1.PodCondition.lastProbeTime':
    'When the condition was last checked.',
  'io.k8s.api.core.v1.PodCondition.lastTransitionTime':
    'When `status` last changed.',
  'io.k8s.api.core.v1.PodCondition.message':
    'Human-readable details about the last change of the condition.',
  'io.k8s.api.core.v1.PodCondition.observedGeneration':
    'The pod `metadata.generation` the condition was computed from. Alpha, behind the PodObservedGenerationTracking feature.',
  'io.k8s.api.core.v1.PodCondition.reason':
    'A short CamelCase word explaining why the condition last changed.',
  'io.k8s.api.core.v1.PodCondition.status':
    'Whether the condition holds: `True`, `False` or `Unknown`.',
  'io.k8s.api.core.v1.PodCondition.type':
    'The kind of condition, for example `PodScheduled`, `Initialized`, `ContainersReady`, `Ready` or a custom readiness-gate condition.',
  'io.k8s.api.core.v1.PodDNSConfig':
    'Extra DNS settings for a pod, merged with the configuration produced by its `dnsPolicy`.',
  'io.k8s.api.core.v1.PodDNSConfig.nameservers':
    'DNS server IP addresses added to the generated list, without duplicates.',
  'io.k8s.api.core.v1.PodDNSConfig.options':
    'Resolver options; they are merged with the generated ones, and an option given here replaces a generated option of the same name.',
  'io.k8s.api.core.v1.PodDNSConfig.searches':
    'DNS search domains added to the generated list, without duplicates.',
  'io.k8s.api.core.v1.PodDNSConfigOption':
    'One resolver option, written into the pod\'s `resolv.conf`.',
  'io.k8s.api.core.v1.PodDNSConfigOption.name':
    'The option name, for example `ndots`. Required.',
  'io.k8s.api.core.v1.PodDNSConfigOption.value':
    'The option\'s value, if it takes one.',
  'io.k8s.api.core.v1.PodIP':
    'One IP address assigned to a pod.',
  'io.k8s.api.core.v1.PodIP.ip':
    'The IP address, IPv4 or IPv6.',
  'io.k8s.api.core.v1.PodList':
    'A list of Pod objects.',
  'io.k8s.api.core.v1.PodList.apiVersion':
    'The group/version the body is written in, always `v1` here. The server uses it to pick the schema for decoding and rejects versions it does not serve.',
  'io.k8s.api.core.v1.PodList.items':
    'The Pods in the list.',
  'io.k8s.api.core.v1.PodList.kind':
    'The REST resource type of this object, always `PodList` here. Servers fill it in on responses, and clients should send it so the body can be decoded without outside context.',
  'io.k8s.api.core.v1.PodList.metadata':
    'The resource version the list was read at, plus paging information.',
  'io.k8s.api.core.v1.PodOS':
    'The operating system the pod runs on.',
  'io.k8s.api.core.v1.PodOS.name':
    'The OS name: `linux` or `windows`. Other values may be added later; unknown ones should be treated as if the field were unset.',
  'io.k8s.api.core.v1.PodReadinessGate':
    'An extra condition that must be true before a pod counts as ready.',
  'io.k8s.api.core.v1.PodReadinessGate.conditionType':
    'The type of a condition in the pod\'s status conditions that must be `True` for the pod to be ready. Usually set by an external controller.',
  'io.k8s.api.core.v1.PodResourceClaim':
    'A named reference to exactly one ResourceClaim used by the pod, either an existing claim or one generated from a ResourceClaimTemplate. Containers refer to it by this name.',
  'io.k8s.api.core.v1.PodResourceClaim.name':
    'The name containers use to refer to this claim; a DNS label unique within the pod.',
  'io.k8s.api.core.v1.PodResourceClaim.resourceClaimName':
    'The name of an existing ResourceClaim in the pod\'s namespace. Exactly one of `resourceClaimName` and `resourceClaimTemplateName` must be set.',
  'io.k8s.api.core.v1.PodResourceClaim.resourceClaimTemplateName':
    'The name of a ResourceClaimTemplate in the pod\'s namespace from which a dedicated ResourceClaim is created for this pod and deleted along with it. The generated name is recorded in `status.resourceClaimStatuses`. Exactly one of the two fields must be set.',
  'io.k8s.api.core.v1.PodResourceClaimStatus':
    'Records the ResourceClaim generated for a pod resource claim that came from a template.',
  'io.k8s.api.core.v1.PodResourceClaimStatus.name':
    'The pod-level claim name this entry is about; matches an entry in `spec.resourceClaims`.',
  'io.k8s.api.core.v1.PodResourceClaimStatus.resourceClaimName':
    'The name of the ResourceClaim created for the pod in its namespace. Unset when no claim was needed, in which case the entry may be left out entirely.',
  'io.k8s.api.core.v1.PodSchedulingGate':
    'A named gate that holds a pod back from scheduling until it is removed.',
  'io.k8s.api.core.v1.PodSchedulingGate.name':
    'The gate\'s name. Must be unique among the pod\'s scheduling gates.',
  'io.k8s.api.core.v1.PodSecurityContext':
    'Security settings for the whole pod. Some fields also serve as defaults for every container\'s security context, which can override them.',
  'io.k8s.api.core.v1.PodSecurityContext.appArmorProfile':
    'The AppArmor profile for all containers. Not allowed on Windows.',
  'io.k8s.api.core.v1.PodSecurityContext.fsGroup':
    'A group ID applied to volumes that support ownership management: the volume is made owned by this GID, the setgid bit is set and group read/write permission is added, and the group is added to every container. When unset, volume ownership is left alone. Not allowed on Windows.',
  'io.k8s.api.core.v1.PodSecurityContext.fsGroupChangePolicy':
    'When volume ownership and permissions are changed for `fsGroup`: `Always` (the default) on every mount, or `OnRootMismatch` only when the volume root does not already match. Ignored by volume types such as Secret, ConfigMap and emptyDir. Not allowed on Windows.',
  'io.k8s.api.core.v1.PodSecurityContext.runAsGroup':
    'The primary GID every container\'s entrypoint runs as, unless overridden. Defaults to the runtime\'s default. Not allowed on Windows.',
  'io.k8s.api.core.v1.PodSecurityContext.runAsNonRoot':
    'When true, the kubelet refuses to start any container that would run as UID 0.',
  'io.k8s.api.core.v1.PodSecurityContext.runAsUser':
    'The UID every container\'s entrypoint runs as, unless overridden. Defaults to the user set in the image. Not allowed on Windows.',
  'io.k8s.api.core.v1.PodSecurityContext.seLinuxChangePolicy':
    'How the SELinux label is applied to the pod\'s volumes: `Recursive` relabels every file (slow for large volumes, but lets privileged and unprivileged pods share a volume), while `MountOption` mounts supported volumes with a context mount option, which requires all pods sharing a volume to use the same label. The default depends on feature gates and the volume\'s access mode. Not allowed on Windows.',
  'io.k8s.api.core.v1.PodSecurityContext.seLinuxOptions':
    'The SELinux context applied to all containers. When unset the runtime picks a random context per container. Not allowed on Windows.',
  'io.k8s.api.core.v1.PodSecurityContext.seccompProfile':
    'The seccomp profile for all containers. Not allowed on Windows.',
  'io.k8s.api.core.v1.PodSecurityContext.supplementalGroups':
    'Extra group IDs added to the first process of every container. Whether the image\'s own group memberships are also kept depends on `supplementalGroupsPolicy`. Not allowed on Windows.',
  'io.k8s.api.core.v1.PodSecurityContext.supplementalGroupsPolicy':
    'How supplementary groups of the first container process are computed: `Merge` (the default) adds the groups defined for the user in the image, `Strict` uses only those given in the pod spec. Needs the SupplementalGroupsPolicy feature and runtime support. Not allowed on Windows.',
  'io.k8s.api.core.v1.PodSecurityContext.sysctls':
    'Namespaced kernel parameters to set for the pod. The pod may fail to start if the runtime does not support one. Not allowed on Windows.',
  'io.k8s.api.core.v1.PodSecurityContext.windowsOptions':
    'Windows-specific settings for all containers. Not allowed when the pod\'s OS is Linux.',
  'io.k8s.api.core.v1.PodSpec':
    'The desired state of a pod: its containers, volumes, scheduling constraints, security settings and DNS and networking options.',
  'io.k8s.api.core.v1.PodSpec.activeDeadlineSeconds':
    'How long, in seconds since the pod started, it may stay active before the kubelet actively terminates it. Must be a positive integer; unset means no limit.',
  'io.k8s.api.core.v1.PodSpec.affinity':
    'Node affinity, pod affinity and pod anti-affinity rules that constrain or steer where the pod is scheduled.',
  'io.k8s.api.core.v1.PodSpec.automountServiceAccountToken':
    'Whether an API token for the service account is mounted into the containers automatically. When unset, the service account\'s own setting decides.',
  'io.k8s.api.core.v1.PodSpec.containers':
    'The application containers of the pod. At least one is required and the list cannot be changed after creation (except for a few fields such as images).',
  'io.k8s.api.core.v1.PodSpec.dnsConfig':
    'Extra DNS settings (nameservers, search domains, resolver options) merged into the configuration produced by `dnsPolicy`.',
  'io.k8s.api.core.v1.PodSpec.dnsPolicy':
    'How DNS is configured for the pod: `ClusterFirst` (the default), `ClusterFirstWithHostNet`, `Default` (inherit the node\'s resolver settings) or `None` (use only `dnsConfig`). Host-network pods should use `ClusterFirstWithHostNet` to reach cluster DNS.',
  'io.k8s.api.core.v1.PodSpec.enableServiceLinks':
    'Whether environment variables describing the services in the namespace, in Docker-links style, are injected into containers. Defaults to true.',
  'io.k8s.api.core.v1.PodSpec.ephemeralContainers':
    'Short-lived containers added to a running pod for troubleshooting, through the `ephemeralcontainers` subresource only. They are never restarted and cannot be removed or changed once added.',
  'io.k8s.api.core.v1.PodSpec.hostAliases':
    'Extra entries written into the pod\'s `/etc/hosts`, mapping IP addresses to host names.',
  'io.k8s.api.core.v1.PodSpec.hostIPC':
    'Share the node\'s IPC namespace (shared memory, semaphores) with the pod. Defaults to false.',
  'io.k8s.api.core.v1.PodSpec.hostNetwork':
    'Run the pod in the node\'s network namespace, sharing its IP addresses and ports. When true, any `hostPort` a container declares must equal its `containerPort`. Defaults to false.',
  'io.k8s.api.core.v1.PodSpec.hostPID':
    'Run the pod in the node\'s process-ID namespace, so it can see host processes. Defaults to false.',
  'io.k8s.api.core.v1.PodSpec.hostUsers':
    'Whether the pod uses the node\'s user namespace. True or unset shares it; false gives the pod its own user namespace, so root in a container maps to an unprivileged user on the host. Requires the UserNamespacesSupport feature.',
  'io.k8s.api.core.v1.PodSpec.hostname':
    'The pod\'s hostname. When unset, a system-chosen value (normally the pod name) is used.',
  'io.k8s.api.core.v1.PodSpec.imagePullSecrets':
    'Secrets in the pod\'s namespace holding registry credentials used to pull the pod\'s images.',
  'io.k8s.api.core.v1.PodSpec.initContainers':
    'Containers that run to completion one after another, in order, before the regular containers start; if one fails, the pod\'s restart policy applies. An init container with `restartPolicy: Always` becomes a sidecar that keeps running alongside the app containers. Only sidecars may define probes or lifecycle hooks, and the list cannot be changed after creation.',
  'io.k8s.api.core.v1.PodSpec.nodeName':
    'Binds the pod to this node. Normally written by the scheduler through a binding; setting it directly on create bypasses the scheduler. Once set it cannot be changed.',
  'io.k8s.api.core.v1.PodSpec.nodeSelector':
    'Node labels that a node must carry, all of them, for the pod to be scheduled there.',
  'io.k8s.api.core.v1.PodSpec.os':
    'The operating system the pod\'s containers run on. When set, the scheduler and validation use it, and fields that do not apply to that OS (for example Linux-only security settings on Windows) must be left empty.',
  'io.k8s.api.core.v1.PodSpec.overhead':
    'Resources consumed by the pod\'s runtime sandbox beyond its containers\' own requests. Filled in by admission from the RuntimeClass; when set, it is added to the containers\' requests for scheduling and quota.',
  'io.k8s.api.core.v1.PodSpec.preemptionPolicy':
    'Whether the pod may preempt lower-priority pods: `PreemptLowerPriority` (the default) or `Never`. Normally filled in from the PriorityClass.',
  'io.k8s.api.core.v1.PodSpec.priority':
    'The pod\'s numeric priority, filled in by admission from `priorityClassName`. Higher values are more important. Users should set the class name, not this.',
  'io.k8s.api.core.v1.PodSpec.priorityClassName':
    'Names the PriorityClass the pod\'s priority is taken from; the built-in classes `system-node-critical` and `system-cluster-critical` rank highest. When empty the default class applies, or priority 0 if there is none.',
  'io.k8s.api.core.v1.PodSpec.readinessGates':
    'Additional pod conditions that must be true, beyond all containers being ready, for the pod to be considered ready.',
  'io.k8s.api.core.v1.PodSpec.resourceClaims':
    'Dynamic resource allocation claims that the pod uses, each given a name its containers can refer to. The list is immutable.',
  'io.k8s.api.core.v1.PodSpec.resources':
    'Pod-level CPU and memory requests and limits, a budget shared by all containers in the pod. Only `cpu` and `memory` are supported, and resource claims cannot be used here. Requires the PodLevelResources feature.',
  'io.k8s.api.core.v1.PodSpec.restartPolicy':
    'Whether containers are restarted when they exit: `Always` (the default), `OnFailure` or `Never`. Workload controllers such as StatefulSets require `Always`.',
  'io.k8s.api.core.v1.PodSpec.runtimeClassName':
    'The RuntimeClass used to run the pod, selecting a container runtime configuration on the node. When unset, the node\'s default handler is used.',
  'io.k8s.api.core.v1.PodSpec.schedulerName':
    'The scheduler responsible for this pod. Defaults to the cluster\'s default scheduler.',
  'io.k8s.api.core.v1.PodSpec.schedulingGates':
    'Named gates that keep the pod out of scheduling while any remain. They can only be set when the pod is created and then removed one by one; the pod stays `SchedulingGated` until the list is empty.',
  'io.k8s.api.core.v1.PodSpec.securityContext':
    'Security settings that apply to the whole pod, and defaults for container-level security settings that containers may override.',
  'io.k8s.api.core.v1.PodSpec.serviceAccount':
    'Deprecated alias of `serviceAccountName`; use that field instead.',
  'io.k8s.api.core.v1.PodSpec.serviceAccountName':
    'The ServiceAccount whose identity the pod runs with. Defaults to `default` in the pod\'s namespace.',
  'io.k8s.api.core.v1.PodSpec.setHostnameAsFQDN':
    'When true, the pod\'s hostname inside its containers is the fully qualified domain name instead of the short name. Defaults to false.',
  'io.k8s.api.core.v1.PodSpec.shareProcessNamespace':
    'Place all containers in one process namespace so they can see and signal each other\'s processes; the infrastructure container becomes PID 1. Cannot be combined with `hostPID`. Defaults to false.',
  'io.k8s.api.core.v1.PodSpec.subdomain':
    'When set, the pod\'s fully qualified name becomes `<hostname>.<subdomain>.<namespace>.svc.<cluster domain>`. Usually the name of a headless service.',
  'io.k8s.api.core.v1.PodSpec.terminationGracePeriodSeconds':
    'Seconds a pod is given to shut down after a delete request before its processes are killed; defaults to 30. Must be non-negative, and 0 kills immediately with no chance to shut down. A delete request may override it.',
  'io.k8s.api.core.v1.PodSpec.tolerations':
    'Taints the pod tolerates, allowing (but not requiring) it to be scheduled onto or keep running on nodes carrying them.',
  'io.k8s.api.core.v1.PodSpec.topologySpreadConstraints':
    'Rules for spreading matching pods evenly across topology domains such as zones or nodes. All constraints are combined (AND).',
  'io.k8s.api.core.v1.PodSpec.volumes':
    'Volumes that containers in the pod may mount, each identified by a unique name.',
  'io.k8s.api.core.v1.PodStatus':
    'The observed state of a pod. Populated by the kubelet and control plane; it may be stale and should not be edited by users.',
  'io.k8s.api.core.v1.PodStatus.conditions':
    'The pod\'s current service state, such as `PodScheduled`, `Initialized`, `ContainersReady` and `Ready`.',
  'io.k8s.api.core.v1.PodStatus.containerStatuses':
    'The status of each application container in the spec, one entry per container.',
  'io.k8s.api.core.v1.PodStatus.ephemeralContainerStatuses':
    'The status of each ephemeral container that has been added to the pod.',
  'io.k8s.api.core.v1.PodStatus.hostIP':
    'The primary IP address of the node the pod was assigned to. Empty until the pod is bound.',
  'io.k8s.api.core.v1.PodStatus.hostIPs':
    'The IP addresses of the node hosting the pod, at most one per address family; the first entry always equals `hostIP`.',
  'io.k8s.api.core.v1.PodStatus.initContainerStatuses':
    'The status of each init container in the spec, one entry per container.',
  'io.k8s.api.core.v1.PodStatus.message':
    'A human-readable explanation of why the pod is in its current state.',
  'io.k8s.api.core.v1.PodStatus.nominatedNodeName':
    'Set when the pod preempted other pods: the node it is expected to land on once they are gone. Scheduling to that node is not guaranteed.',
  'io.k8s.api.core.v1.PodStatus.observedGeneration':
    'The pod `metadata.generation` that this status reflects. Alpha, behind the PodObservedGenerationTracking feature.',
  'io.k8s.api.core.v1.PodStatus.phase':
    'The pod\'s overall lifecycle stage: `Pending`, `Running`, `Succeeded`, `Failed` or `Unknown`. It is not a state machine; use conditions and container states for detail.',
  'io.k8s.api.core.v1.PodStatus.podIP':
    'The primary IP address of the pod; empty until one is assigned.',
  'io.k8s.api.core.v1.PodStatus.podIPs':
    'The IP addresses of the pod, at most one per address family; the first entry always equals `podIP`.',
  'io.k8s.api.core.v1.PodStatus.qosClass':
    'The quality-of-service class computed from the containers\' requests and limits: `Guaranteed`, `Burstable` or `BestEffort`.',
  'io.k8s.api.core.v1.PodStatus.reason':
    'A brief CamelCase explanation of the pod\'s state, for example `Evicted`.',
  'io.k8s.api.core.v1.PodStatus.resize':
    'Deprecated: the state of a requested in-place resize of the pod\'s resources (`InProgress`, `Deferred` or `Infeasible`). Newer servers report this through the `PodResizePending` and `PodResizeInProgress` conditions.',
  'io.k8s.api.core.v1.PodStatus.resourceClaimStatuses':
    'For each resource claim created from a template, the name of the generated ResourceClaim.',
  'io.k8s.api.core.v1.PodStatus.startTime':
    'When the kubelet acknowledged the pod, before any images were pulled.',
  'io.k8s.api.core.v1.PodTemplateSpec':
    'A blueprint for creating pods, embedded in workload controllers such as StatefulSets. Controllers copy its metadata and spec into each pod they create.',
  'io.k8s.api.core.v1.PodTemplateSpec.metadata':
    'Metadata (labels, annotations) copied into each pod created from the template. Labels must satisfy the owning controller\'s selector.',
  'io.k8s.api.core.v1.PodTemplateSpec.spec':
    'The pod specification used for each created pod.',
  'io.k8s.api.core.v1.PortStatus':
    'The state of one service port at a load balancer.',
  'io.k8s.api.core.v1.PortStatus.error':
    'Why the port could not be set up, as a CamelCase reason or a prefixed name; empty when it works.',
  'io.k8s.api.core.v1.PortStatus.port':
    'The port number.',
  'io.k8s.api.core.v1.PortStatus.protocol':
    'The port\'s protocol: `TCP`, `UDP` or `SCTP`.',
  'io.k8s.api.core.v1.PortworxVolumeSource':
    'Deprecated: a Portworx volume.',
  'io.k8s.api.core.v1.PortworxVolumeSource.fsType':
    'The filesystem type, for example `ext4` or `xfs`. Defaults to `ext4`.',
  'io.k8s.api.core.v1.PortworxVolumeSource.readOnly':
    'Mount the volume read-only. Defaults to false.',
  'io.k8s.api.core.v1.PortworxVolumeSource.volumeID':
    'The ID identifying the Portworx volume.',
  'io.k8s.api.core.v1.PreferredSchedulingTerm':
    'A weighted node preference. An empty preference matches every node, and a null one matches none.',
  'io.k8s.api.core.v1.PreferredSchedulingTerm.preference':
    'The node selector term that earns the weight.',
  'io.k8s.api.core.v1.PreferredSchedulingTerm.weight':
    'How much matching this term adds to a node\'s score, from 1 to 100.',
  'io.k8s.api.core.v1.Probe':
    'A periodic diagnostic the kubelet runs against a container. Exactly one of `exec`, `httpGet`, `tcpSocket` or `grpc` must be set.',
  'io.k8s.api.core.v1.Probe.exec':
    'Runs a command inside the container; exit status 0 means success.',
  'io.k8s.api.core.v1.Probe.failureThreshold':
    'Consecutive failures needed to count as failing. Defaults to 3; minimum 1.',
  'io.k8s.api.core.v1.Probe.grpc':
    'Calls the standard gRPC health-checking service; a `SERVING` response means success.',
  'io.k8s.api.core.v1.Probe.httpGet':
    'Sends an HTTP GET request; a status code from 200 to 399 means success.',
  'io.k8s.api.core.v1.Probe.initialDelaySeconds':
    'Seconds to wait after the container starts before the first probe. Defaults to 0.',
  'io.k8s.api.core.v1.Probe.periodSeconds':
    'Interval between probe runs, in seconds. Defaults to 10; minimum 1.',
  'io.k8s.api.core.v1.Probe.successThreshold':
    'Consecutive successes needed, after a failure, to count as passing again. Defaults to 1 and must be 1 for liveness and startup probes.',
  'io.k8s.api.core.v1.Probe.tcpSocket':
    'Opens a TCP connection; success means the connection could be established.',
  'io.k8s.api.core.v1.Probe.terminationGracePeriodSeconds':
    'A grace period, in seconds, used when the container is killed because this probe failed, replacing the pod\'s `terminationGracePeriodSeconds`. Only for liveness and startup probes; when unset the pod\'s value applies.',
  'io.k8s.api.core.v1.Probe.timeoutSeconds':
    'Seconds after which a single probe attempt counts as failed. Defaults to 1; minimum 1.',
  'io.k8s.api.core.v1.ProbeHandler':
    'The action a probe performs. Exactly one field must be set.',
  'io.k8s.api.core.v1.ProbeHandler.exec':
    'Runs a command inside the container; exit status 0 means success.',
  'io.k8s.api.core.v1.ProbeHandler.grpc':
    'Calls the standard gRPC health-checking service; a `SERVING` response means success.',
  'io.k8s.api.core.v1.ProbeHandler.httpGet':
    'Sends an HTTP GET request; a status code from 200 to 399 means success.',
  'io.k8s.api.core.v1.ProbeHandler.tcpSocket':
    'Opens a TCP connection; success means the connection could be established.',
  'io.k8s.api.core.v1.ProjectedVolumeSource':
    'Combines several sources into a single volume directory.',
  'io.k8s.api.core.v1.ProjectedVolumeSource.defaultMode':
    'Permission bits for the created files, unless overridden per item. Defaults to `0644`. Accepts octal (0000 to 0777) in YAML or the decimal equivalent (0 to 511), which JSON requires.',
  'io.k8s.api.core.v1.ProjectedVolumeSource.sources':
    'The sources to combine; each entry contributes one projection.',
  'io.k8s.api.core.v1.QuobyteVolumeSource':
    'Deprecated and no longer supported: a Quobyte mount that lives as long as the pod.',
  'io.k8s.api.core.v1.QuobyteVolumeSource.group':
    'Volume access is performed with this group; no group is used when empty.',
  'io.k8s.api.core.v1.QuobyteVolumeSource.readOnly':
    'Mount the volume read-only. Defaults to false.',
  'io.k8s.api.core.v1.QuobyteVolumeSource.registry':
    'One or more Quobyte registries as `host:port`, separated by commas.',
  'io.k8s.api.core.v1.QuobyteVolumeSource.tenant':
    'The tenant owning the volume in the Quobyte backend; set by the plugin for dynamically provisioned volumes.',
  'io.k8s.api.core.v1.QuobyteVolumeSource.user':
    'Volume access is performed as this user; the service account user is used when empty.',
  'io.k8s.api.core.v1.QuobyteVolumeSource.volume':
    'The name of an existing Quobyte volume.',
  'io.k8s.api.core.v1.RBDPersistentVolumeSource':
    'Deprecated and no longer supported: a Ceph RADOS block device.',
  'io.k8s.api.core.v1.RBDPersistentVolumeSource.fsType':
    'The filesystem type, for example `ext4`, `xfs` or `ntfs`. Defaults to `ext4`.',
  'io.k8s.api.core.v1.RBDPersistentVolumeSource.image':
    'The name of the RADOS image.',
  'io.k8s.api.core.v1.RBDPersistentVolumeSource.keyring':
    'Location of the keyring file for `user`; `/etc/ceph/keyring` when empty.',
  'io.k8s.api.core.v1.RBDPersistentVolumeSource.monitors':
    'The addresses of the Ceph monitors.',
  'io.k8s.api.core.v1.RBDPersistentVolumeSource.pool':
    'RADOS pool holding the image; `rbd` when empty.',
  'io.k8s.api.core.v1.RBDPersistentVolumeSource.readOnly':
    'Mount the device read-only. Defaults to false.',
  'io.k8s.api.core.v1.RBDPersistentVolumeSource.secretRef':
    'A Secret holding the user\'s authentication key, used instead of `keyring`.',
  'io.k8s.api.core.v1.RBDPersistentVolumeSource.user':
    'RADOS user to authenticate as; `admin` when empty.',
  'io.k8s.api.core.v1.RBDVolumeSource':
    'Deprecated and no longer supported: a Ceph RADOS block device.',
  'io.k8s.api.core.v1.RBDVolumeSource.fsType':
    'The filesystem type, for example `ext4`, `xfs` or `ntfs`. Defaults to `ext4`.',
  'io.k8s.api.core.v1.RBDVolumeSource.image':
    'The name of the RADOS image.',
  'io.k8s.api.core.v1.RBDVolumeSource.keyring':
    'Location of the keyring file for `user`; `/etc/ceph/keyring` when empty.',
  'io.k8s.api.core.v1.RBDVolumeSource.monitors':
    'The addresses of the Ceph monitors.',
  'io.k8s.api.core.v1.RBDVolumeSource.pool':
    'RADOS pool holding the image; `rbd` when empty.',
  'io.k8s.api.core.v1.RBDVolumeSource.readOnly':
    'Mount the device read-only. Defaults to false.',
  'io.k8s.api.core.v1.RBDVolumeSource.secretRef':
    'A Secret holding the user\'s authentication key, used instead of `keyring`.',
  'io.k8s.api.core.v1.RBDVolumeSource.user':
    'RADOS user to authenticate as; `admin` when empty.',
  'io.k8s.api.core.v1.ResourceClaim':
    'Gives a container access to one of the pod\'s resource claims.',
  'io.k8s.api.core.v1.ResourceClaim.name':
    'The name of an entry in the pod\'s `spec.resourceClaims`, whose resources become available in this container.',
  'io.k8s.api.core.v1.ResourceClaim.request':
    'Limits access to what a single named request of the claim produced. Leave empty to expose all of the claim\'s allocations to the container.',
  'io.k8s.api.core.v1.ResourceFieldSelector':
    'Selects a resource amount (a limit or request) of a container, optionally scaled by a divisor.',
  'io.k8s.api.core.v1.ResourceFieldSelector.containerName':
    'The container whose resources are read. Required for volumes; optional for environment variables, where it defaults to the current container.',
  'io.k8s.api.core.v1.ResourceFieldSelector.divisor':
    'The unit the value is expressed in; the amount is divided by it and rounded up. Defaults to `1`. For example `1m` gives CPU in millicores and `1Mi` gives memory in mebibytes.',
  'io.k8s.api.core.v1.ResourceFieldSelector.resource':
    'The resource to read, for example `limits.cpu` or `requests.memory`. Required.',
  'io.k8s.api.core.v1.ResourceHealth':
    'The latest health report for one device.',
  'io.k8s.api.core.v1.ResourceHealth.health':
    'The device\'s health: `Healthy`, `Unhealthy` (possibly temporary) or `Unknown` (for example when the reporting plugin is gone).',
  'io.k8s.api.core.v1.ResourceHealth.resourceID':
    'A unique identifier for the device: the device-plugin device ID, or `<driver>/<pool>/<device>` for dynamic resource allocation.',
  'io.k8s.api.core.v1.ResourceRequirements':
    'Compute resources a container (or pod) requests and the limits it may not exceed.',
  'io.k8s.api.core.v1.ResourceRequirements.claims':
    'The dynamic resource claims this container uses, each naming an entry in the pod\'s `spec.resourceClaims`. Only valid for regular containers, and cannot be changed.',
  'io.k8s.api.core.v1.ResourceRequirements.limits':
    'The maximum amount of each resource allowed, keyed by resource name such as `cpu` or `memory`.',
  'io.k8s.api.core.v1.ResourceRequirements.requests':
    'The amount of each resource the workload is guaranteed and is scheduled against. When omitted for a resource it defaults to the limit, if one is given. A request may not exceed its limit.',
  'io.k8s.api.core.v1.ResourceStatus':
    'Health information about one resource assigned to a pod or container.',
  'io.k8s.api.core.v1.ResourceStatus.name':
    'Identifies the resource: a resource name from the pod spec for device plugins, or `claim:<claim name>/<request>` for dynamically allocated resources. Unique within the pod.',
  'io.k8s.api.core.v1.ResourceStatus.resources':
    'The health of each individual device behind the resource, keyed by resource ID.',
  'io.k8s.api.core.v1.SELinuxOptions':
    'An SELinux security context label.',
  'io.k8s.api.core.v1.SELinuxOptions.level':
    'The SELinux level (MLS/MCS) part of the label, for example `s0:c123,c456`.',
  'io.k8s.api.core.v1.SELinuxOptions.role':
    'The SELinux role part of the label.',
  'io.k8s.api.core.v1.SELinuxOptions.type':
    'The SELinux type part of the label.',
  'io.k8s.api.core.v1.SELinuxOptions.user':
    'The SELinux user part of the label.',
  'io.k8s.api.core.v1.ScaleIOPersistentVolumeSource':
    'Deprecated and no longer supported: a ScaleIO volume.',
  'io.k8s.api.core.v1.ScaleIOPersistentVolumeSource.fsType':
    'The filesystem type, for example `ext4`, `xfs` or `ntfs`. Defaults to `xfs`.',
  'io.k8s.api.core.v1.ScaleIOPersistentVolumeSource.gateway':
    'Address of the gateway through which the ScaleIO API is reached.',
  'io.k8s.api.core.v1.ScaleIOPersistentVolumeSource.protectionDomain':
    'ScaleIO protection domain that holds the configured storage.',
  'io.k8s.api.core.v1.ScaleIOPersistentVolumeSource.readOnly':
    'Mount the volume read-only. Defaults to false.',
  'io.k8s.api.core.v1.ScaleIOPersistentVolumeSource.secretRef':
    'The Secret holding ScaleIO user credentials. Required.',
  'io.k8s.api.core.v1.ScaleIOPersistentVolumeSource.sslEnabled':
    'Whether to use SSL when talking to the gateway. Defaults to false.',
  'io.k8s.api.core.v1.ScaleIOPersistentVolumeSource.storageMode':
    'Whether the volume is `ThickProvisioned` (the default) or `ThinProvisioned`.',
  'io.k8s.api.core.v1.ScaleIOPersistentVolumeSource.storagePool':
    'Which storage pool, inside the protection domain, the volume comes from.',
  'io.k8s.api.core.v1.ScaleIOPersistentVolumeSource.system':
    'Which ScaleIO storage system to use, by its configured name.',
  'io.k8s.api.core.v1.ScaleIOPersistentVolumeSource.volumeName':
    'An existing ScaleIO volume to use, by name.',
  'io.k8s.api.core.v1.ScaleIOVolumeSource':
    'Deprecated and no longer supported: a ScaleIO persistent volume.',
  'io.k8s.api.core.v1.ScaleIOVolumeSource.fsType':
    'The filesystem type, for example `ext4`, `xfs` or `ntfs`. Defaults to `xfs`.',
  'io.k8s.api.core.v1.ScaleIOVolumeSource.gateway':
    'Address of the gateway through which the ScaleIO API is reached.',
  'io.k8s.api.core.v1.ScaleIOVolumeSource.protectionDomain':
    'ScaleIO protection domain that holds the configured storage.',
  'io.k8s.api.core.v1.ScaleIOVolumeSource.readOnly':
    'Mount the volume read-only. Defaults to false.',
  'io.k8s.api.core.v1.ScaleIOVolumeSource.secretRef':
    'The Secret holding ScaleIO user credentials. Required.',
  'io.k8s.api.core.v1.ScaleIOVolumeSource.sslEnabled':
    'Whether to use SSL when talking to the gateway. Defaults to false.',
  'io.k8s.api.core.v1.ScaleIOVolumeSource.storageMode':
    'Whether the volume is `ThickProvisioned` (the default) or `ThinProvisioned`.',
  'io.k8s.api.core.v1.ScaleIOVolumeSource.storagePool':
    'Which storage pool, inside the protection domain, the volume comes from.',
  'io.k8s.api.core.v1.ScaleIOVolumeSource.system':
    'Which ScaleIO storage system to use, by its configured name.',
  'io.k8s.api.core.v1.ScaleIOVolumeSource.volumeName':
    'An existing ScaleIO volume to use, by name.',
  'io.k8s.api.core.v1.SeccompProfile':
    'Which seccomp profile to apply. Exactly one kind of source is used.',
  'io.k8s.api.core.v1.SeccompProfile.localhostProfile':
    'For `Localhost` only: the profile file to load, as a path relative to the kubelet\'s seccomp profile directory. Required for `Localhost` and must be empty for other types.',
  'io.k8s.api.core.v1.SeccompProfile.type':
    'The kind of profile: `RuntimeDefault` (the runtime\'s default profile), `Unconfined` (no filtering) or `Localhost` (a profile file on the node).',
  'io.k8s.api.core.v1.SecretEnvSource':
    'Selects a Secret whose key/value pairs become environment variables.',
  'io.k8s.api.core.v1.SecretEnvSource.name':
    'The name of the Secret in the pod\'s namespace.',
  'io.k8s.api.core.v1.SecretEnvSource.optional':
    'When true, the container starts even if the Secret does not exist. Defaults to false.',
  'io.k8s.api.core.v1.SecretKeySelector':
    'Points at a single entry inside a Secret.',
  'io.k8s.api.core.v1.SecretKeySelector.key':
    'The key whose value is used. Must be a valid Secret key.',
  'io.k8s.api.core.v1.SecretKeySelector.name':
    'The name of the Secret in the pod\'s namespace.',
  'io.k8s.api.core.v1.SecretKeySelector.optional':
    'When true, a missing Secret or key is tolerated and the variable is left unset. Defaults to false.',
  'io.k8s.api.core.v1.SecretProjection':
    'Projects the keys of a Secret into a projected volume.',
  'io.k8s.api.core.v1.SecretProjection.items':
    'Which keys to project, and the file path for each. When empty, every key becomes a file named after the key. A key listed here that does not exist is an error unless `optional` is true.',
  'io.k8s.api.core.v1.SecretProjection.name':
    'The name of the Secret in the pod\'s namespace.',
  'io.k8s.api.core.v1.SecretProjection.optional':
    'When true, a missing Secret or missing keys are tolerated. Defaults to false.',
  'io.k8s.api.core.v1.SecretReference':
    'A reference to a Secret, by name and namespace.',
  'io.k8s.api.core.v1.SecretReference.name':
    'The Secret\'s name.',
  'io.k8s.api.core.v1.SecretReference.namespace':
    'The Secret\'s namespace.',
  'io.k8s.api.core.v1.SecretVolumeSource':
    'Projects the keys of a Secret into a volume as files.',
  'io.k8s.api.core.v1.SecretVolumeSource.defaultMode':
    'Permission bits for the created files unless an item overrides them; defaults to `0644`. Write octal (0000 to 0777) in YAML or the decimal equivalent (0 to 511) in JSON. Bits implied by other settings, such as `fsGroup`, may be added on top.',
  'io.k8s.api.core.v1.SecretVolumeSource.items':
    'Which keys to project, and the file path for each. When empty, every key becomes a file named after the key. A key listed here that does not exist is an error unless `optional` is true.',
  'io.k8s.api.core.v1.SecretVolumeSource.optional':
    'When true, the pod starts even if the Secret or the listed keys do not exist. Defaults to false.',
  'io.k8s.api.core.v1.SecretVolumeSource.secretName':
    'Which Secret, in the pod\'s namespace, to project.',
  'io.k8s.api.core.v1.SecurityContext':
    'Security settings for one container. Where a field is also set at pod level, the container value takes precedence.',
  'io.k8s.api.core.v1.SecurityContext.allowPrivilegeEscalation':
    'Whether a process may gain more privileges than its parent (controls the `no_new_privs` flag). It is effectively always true when the container is privileged or has `CAP_SYS_ADMIN`. Not allowed on Windows.',
  'io.k8s.api.core.v1.SecurityContext.appArmorProfile':
    'The AppArmor profile for the container, overriding the pod\'s. Not allowed on Windows.',
  'io.k8s.api.core.v1.SecurityContext.capabilities':
    'Linux capabilities to add to or drop from the runtime\'s default set. Not allowed when the pod\'s OS is Windows.',
  'io.k8s.api.core.v1.SecurityContext.privileged':
    'Gives the container\'s processes nearly full access to the host, much like host root. Defaults to false. Not allowed on Windows.',
  'io.k8s.api.core.v1.SecurityContext.procMount':
    'How `/proc` is mounted: `Default` masks and makes read-only some paths as the runtime normally does; `Unmasked` leaves them exposed and needs the pod to use its own user namespace. Not allowed on Windows.',
  'io.k8s.api.core.v1.SecurityContext.readOnlyRootFilesystem':
    'Mount the container\'s root filesystem read-only. Defaults to false. Not allowed on Windows.',
  'io.k8s.api.core.v1.SecurityContext.runAsGroup':
    'The primary GID the container\'s entrypoint runs as. Defaults to the runtime\'s default. Not allowed on Windows.',
  'io.k8s.api.core.v1.SecurityContext.runAsNonRoot':
    'When true, the kubelet refuses to start the container if it would run as UID 0. Applies at pod level as well.',
  'io.k8s.api.core.v1.SecurityContext.runAsUser':
    'The UID the container\'s entrypoint runs as. Defaults to the user set in the image. Not allowed on Windows.',
  'io.k8s.api.core.v1.SecurityContext.seLinuxOptions':
    'The SELinux context for the container. When unset the runtime picks a random context per container. Not allowed on Windows.',
  'io.k8s.api.core.v1.SecurityContext.seccompProfile':
    'The seccomp profile for the container, overriding the pod\'s. Not allowed on Windows.',
  'io.k8s.api.core.v1.SecurityContext.windowsOptions':
    'Windows-specific settings. Not allowed when the pod\'s OS is Linux.',
  'io.k8s.api.core.v1.Service':
    'A named, stable network endpoint for a set of pods chosen by a label selector, or for an outside name. The server gives it a virtual cluster IP (unless it is headless) and, for NodePort and LoadBalancer types, a port on every node.',
  'io.k8s.api.core.v1.Service.apiVersion':
    'The group/version the body is written in, always `v1` here. The server uses it to pick the schema for decoding and rejects versions it does not serve.',
  'io.k8s.api.core.v1.Service.kind':
    'The REST resource type of this object, always `Service` here. Servers fill it in on responses, and clients should send it so the body can be decoded without outside context.',
  'io.k8s.api.core.v1.Service.metadata':
    'The object\'s name, namespace, labels, annotations and other metadata shared by all persisted objects.',
  'io.k8s.api.core.v1.Service.spec':
    'What the service exposes: its ports, the pods it selects, its type and its addresses.',
  'io.k8s.api.core.v1.Service.status':
    'What has been observed of the service, such as the load balancer provisioned for it. Written through the `status` subresource.',
  'io.k8s.api.core.v1.ServiceAccountTokenProjection':
    'Writes a token for the pod\'s service account into a projected volume. The kubelet requests, stores and refreshes it before it expires.',
  'io.k8s.api.core.v1.ServiceAccountTokenProjection.audience':
    'Who the token is for; whoever receives it should verify it names them and refuse it otherwise. Defaults to the API server\'s identifier.',
  'io.k8s.api.core.v1.ServiceAccountTokenProjection.expirationSeconds':
    'The requested lifetime of the token, in seconds. Defaults to 3600 and must be at least 600. The kubelet rotates the token once 80% of its lifetime (or 24 hours) has passed.',
  'io.k8s.api.core.v1.ServiceAccountTokenProjection.path':
    'The file path, relative to the volume root, to write the token to.',
  'io.k8s.api.core.v1.ServiceList':
    'A list of Service objects.',
  'io.k8s.api.core.v1.ServiceList.apiVersion':
    'The group/version the body is written in, always `v1` here. The server uses it to pick the schema for decoding and rejects versions it does not serve.',
  'io.k8s.api.core.v1.ServiceList.items':
    'The Services in the list.',
  'io.k8s.api.core.v1.ServiceList.kind':
    'The REST resource type of this object, always `ServiceList` here. Servers fill it in on responses, and clients should send it so the body can be decoded without outside context.',
  'io.k8s.api.core.v1.ServiceList.metadata':
    'The resource version the list was read at, plus paging information.',
  'io.k8s.api.core.v1.ServicePort':
    'One port a Service exposes.',
  'io.k8s.api.core.v1.ServicePort.appProtocol':
    'The application protocol spoken on the port, as a hint to implementations, for example `http` or a prefixed name such as `example.com/custom`.',
  'io.k8s.api.core.v1.ServicePort.name':
    'A DNS label naming the port, unique within the service. Required when the service has more than one port.',
  'io.k8s.api.core.v1.ServicePort.nodePort':
    'The port on every node for NodePort and LoadBalancer services. Allocated from the node port range when not given; a given one must be free and inside the range.',
  'io.k8s.api.core.v1.ServicePort.port':
    'The port the service listens on.',
  'io.k8s.api.core.v1.ServicePort.protocol':
    'The IP protocol: `TCP` (the default), `UDP` or `SCTP`.',
  'io.k8s.api.core.v1.ServicePort.targetPort':
    'The port of the pods to send the traffic to, as a number or as the name of a container port. Defaults to `port`.',
  'io.k8s.api.core.v1.ServiceSpec':
    'The desired shape of a Service.',
  'io.k8s.api.core.v1.ServiceSpec.allocateLoadBalancerNodePorts':
    'Whether a LoadBalancer service gets node ports. Defaults to true; set false for load balancers that reach pods directly.',
  'io.k8s.api.core.v1.ServiceSpec.clusterIP':
    'The virtual IP of the service, normally allocated by the server from the service range. A given address must be free and inside the range. `None` makes the service headless (no virtual IP; clients get the pod addresses). Cannot change once set, except when the type changes to or from ExternalName.',
  'io.k8s.api.core.v1.ServiceSpec.clusterIPs':
    'The virtual IPs of the service, one per IP family; the first one equals `clusterIP`. Allocated by the server unless given, and like `clusterIP` fixed once set (a second family may be added or removed).',
  'io.k8s.api.core.v1.ServiceSpec.externalIPs':
    'Addresses outside the cluster at which the nodes also accept the service\'s traffic. The cluster does not manage them.',
  'io.k8s.api.core.v1.ServiceSpec.externalName':
    'The DNS name the service aliases (a CNAME), for type ExternalName. Must be a valid lowercase RFC 1123 hostname.',
  'io.k8s.api.core.v1.ServiceSpec.externalTrafficPolicy':
    'How traffic from outside reaches the pods: `Cluster` (any node forwards to any ready pod) or `Local` (only to pods on the node that received it, keeping the client\'s address). Only for services reachable from outside.',
  'io.k8s.api.core.v1.ServiceSpec.healthCheckNodePort':
    'The node port a load balancer probes to learn which nodes have local pods, for LoadBalancer services with `externalTrafficPolicy: Local`. Allocated when not given.',
  'io.k8s.api.core.v1.ServiceSpec.internalTrafficPolicy':
    'How traffic from inside the cluster reaches the pods: `Cluster` (any ready pod, the default) or `Local` (only pods on the client\'s node).',
  'io.k8s.api.core.v1.ServiceSpec.ipFamilies':
    'The IP families (`IPv4`, `IPv6`) of the service\'s cluster IPs, in order. Defaulted from the cluster\'s ranges and the `ipFamilyPolicy`.',
  'io.k8s.api.core.v1.ServiceSpec.ipFamilyPolicy':
    '`SingleStack` (one family), `PreferDualStack` (two where the cluster has both) or `RequireDualStack` (two, or the service is refused). Defaults to SingleStack.',
  'io.k8s.api.core.v1.ServiceSpec.loadBalancerClass':
    'The load balancer implementation meant to handle a LoadBalancer service, as a prefixed name such as `example.com/internal`. Unset means the provider\'s default. Cannot change once set.',
  'io.k8s.api.core.v1.ServiceSpec.loadBalancerIP':
    'Deprecated: the address a load balancer should use, where the provider supports choosing one. Its meaning varies by provider.',
  'io.k8s.api.core.v1.ServiceSpec.loadBalancerSourceRanges':
    'Client address ranges (CIDRs) a provider\'s load balancer should accept; others are refused where the provider supports it. Only for LoadBalancer services.',
  'io.k8s.api.core.v1.ServiceSpec.ports':
    'The ports the service exposes, each mapped to a port of the selected pods. Required unless the service is headless or of type ExternalName. With more than one port, every port needs a name.',
  'io.k8s.api.core.v1.ServiceSpec.publishNotReadyAddresses':
    'Publish the addresses of pods that are not ready, for example so the members of a StatefulSet can find each other before they are ready.',
  'io.k8s.api.core.v1.ServiceSpec.selector':
    'Labels picking the pods that receive the traffic. Without a selector the endpoints are managed outside the cluster. Ignored for ExternalName services.',
  'io.k8s.api.core.v1.ServiceSpec.sessionAffinity':
    '`ClientIP` sends a client\'s connections to the same pod; `None` (the default) does not.',
  'io.k8s.api.core.v1.ServiceSpec.sessionAffinityConfig':
    'Settings of the chosen session affinity.',
  'io.k8s.api.core.v1.ServiceSpec.trafficDistribution':
    'A preference for how traffic is spread over the endpoints; `PreferClose` favours endpoints topologically close to the client.',
  'io.k8s.api.core.v1.ServiceSpec.type':
    'How the service is reached: `ClusterIP` (a virtual IP inside the cluster, the default), `NodePort` (also a port on every node), `LoadBalancer` (also an external load balancer, where one is available) or `ExternalName` (a DNS alias for `externalName`).',
  'io.k8s.api.core.v1.ServiceStatus':
    'The observed state of a Service.',
  'io.k8s.api.core.v1.ServiceStatus.conditions':
    'Observations about the service, such as whether its load balancer is ready.',
  'io.k8s.api.core.v1.ServiceStatus.loadBalancer':
    'The load balancer in front of the service, if any.',
  'io.k8s.api.core.v1.SessionAffinityConfig':
    'Settings of a service\'s session affinity.',
  'io.k8s.api.core.v1.SessionAffinityConfig.clientIP':
    'Settings of ClientIP affinity.',
  'io.k8s.api.core.v1.SleepAction':
    'Pauses for a fixed duration.',
  'io.k8s.api.core.v1.SleepAction.seconds':
    'How many seconds to sleep. Must not be negative; zero is only accepted where the PodLifecycleSleepActionAllowZero feature is on.',
  'io.k8s.api.core.v1.StorageOSPersistentVolumeSource':
    'Deprecated and no longer supported: a StorageOS volume.',
  'io.k8s.api.core.v1.StorageOSPersistentVolumeSource.fsType':
    'The filesystem type, for example `ext4`, `xfs` or `ntfs`. Defaults to `ext4`.',
  'io.k8s.api.core.v1.StorageOSPersistentVolumeSource.readOnly':
    'Mount the volume read-only. Defaults to false.',
  'io.k8s.api.core.v1.StorageOSPersistentVolumeSource.secretRef':
    'The Secret holding StorageOS API credentials. Defaults are used when unset.',
  'io.k8s.api.core.v1.StorageOSPersistentVolumeSource.volumeName':
    'The StorageOS volume\'s name; names are unique per StorageOS namespace.',
  'io.k8s.api.core.v1.StorageOSPersistentVolumeSource.volumeNamespace':
    'The StorageOS namespace of the volume; set it to `default` when not using StorageOS namespaces.',
  'io.k8s.api.core.v1.StorageOSVolumeSource':
    'Deprecated and no longer supported: a StorageOS persistent volume.',
  'io.k8s.api.core.v1.StorageOSVolumeSource.fsType':
    'The filesystem type, for example `ext4`, `xfs` or `ntfs`. Defaults to `ext4`.',
  'io.k8s.api.core.v1.StorageOSVolumeSource.readOnly':
    'Mount the volume read-only. Defaults to false.',
  'io.k8s.api.core.v1.StorageOSVolumeSource.secretRef':
    'The Secret holding StorageOS API credentials. Defaults are used when unset.',
  'io.k8s.api.core.v1.StorageOSVolumeSource.volumeName':
    'The StorageOS volume\'s name; names are unique per StorageOS namespace.',
  'io.k8s.api.core.v1.StorageOSVolumeSource.volumeNamespace':
    'The StorageOS namespace of the volume. Defaults to the pod\'s namespace; set it to `default` when not using StorageOS namespaces.',
  'io.k8s.api.core.v1.Sysctl':
    'One kernel parameter to set for the pod.',
  'io.k8s.api.core.v1.Sysctl.name':
    'The parameter name, for example `net.ipv4.ip_local_port_range`.',
  'io.k8s.api.core.v1.Sysctl.value':
    'The value to set.',
  'io.k8s.api.core.v1.TCPSocketAction':
    'Opens a TCP connection to the container.',
  'io.k8s.api.core.v1.TCPSocketAction.host':
    'Host name or IP to connect to; the pod IP when empty.',
  'io.k8s.api.core.v1.TCPSocketAction.port':
    'The port to connect to, given as a number (1 to 65535) or as the name of a container port.',
  'io.k8s.api.core.v1.Taint':
    'A mark on a node that repels pods which do not tolerate it.',
  'io.k8s.api.core.v1.Taint.effect':
    'What happens to pods that do not tolerate it: `NoSchedule` (not scheduled there), `PreferNoSchedule` (avoided) or `NoExecute` (also evicted if running there).',
  'io.k8s.api.core.v1.Taint.key':
    'The taint\'s key, a qualified name.',
  'io.k8s.api.core.v1.Taint.timeAdded':
    'When a NoExecute taint was added.',
  'io.k8s.api.core.v1.Taint.value':
    'The taint\'s value, a label value.',
  'io.k8s.api.core.v1.Toleration':
    'Lets a pod be placed on, or keep running on, nodes with a matching taint. A toleration matches a taint when key and effect match and the operator condition holds.',
  'io.k8s.api.core.v1.Toleration.effect':
    'The taint effect to match: `NoSchedule`, `PreferNoSchedule` or `NoExecute`. Empty matches every effect.',
  'io.k8s.api.core.v1.Toleration.key':
    'The taint key the toleration applies to. Empty matches every key, and then `operator` must be `Exists`.',
  'io.k8s.api.core.v1.Toleration.operator':
    'How the value is compared: `Equal` (the default) requires `value` to equal the taint\'s value, while `Exists` matches any value, acting as a wildcard.',
  'io.k8s.api.core.v1.Toleration.tolerationSeconds':
    'Only for `NoExecute`: how many seconds the pod may keep running after a matching taint is added before it is evicted. Unset means it is tolerated forever; zero or negative means immediate eviction.',
  'io.k8s.api.core.v1.Toleration.value':
    'The taint value to match. Must be empty when `operator` is `Exists`.',
  'io.k8s.api.core.v1.TopologySelectorLabelRequirement':
    'A topology label and the values it may take.',
  'io.k8s.api.core.v1.TopologySelectorLabelRequirement.key':
    'The label key.',
  'io.k8s.api.core.v1.TopologySelectorLabelRequirement.values':
    'The values the label may have; at least one, without repeats.',
  'io.k8s.api.core.v1.TopologySelectorTerm':
    'A topology condition: all its expressions must hold.',
  'io.k8s.api.core.v1.TopologySelectorTerm.matchLabelExpressions':
    'Label requirements on the topology.',
  'io.k8s.api.core.v1.TopologySpreadConstraint':
    'A rule for spreading matching pods evenly across topology domains, such as zones or nodes.',
  'io.k8s.api.core.v1.TopologySpreadConstraint.labelSelector':
    'Selects the pods that are counted in each domain.',
  'io.k8s.api.core.v1.TopologySpreadConstraint.matchLabelKeys':
    'Label keys whose values are taken from the incoming pod and added to `labelSelector`, so only pods with the same values (for example the same revision hash) are counted. Keys the pod lacks are ignored, and a key may not also appear in `labelSelector`. Requires `labelSelector` to be set.',
  'io.k8s.api.core.v1.TopologySpreadConstraint.maxSkew':
    'How uneven the spread may get: the count of matching pods in a domain may exceed the smallest count among eligible domains by at most this much. Must be greater than 0. With `DoNotSchedule` it is a hard limit; with `ScheduleAnyway` the scheduler only prefers domains that reduce the skew.',
  'io.k8s.api.core.v1.TopologySpreadConstraint.minDomains':
    'The minimum number of eligible domains; when fewer exist, the smallest pod count is taken as 0, which pushes pods into new domains. Only valid with `DoNotSchedule` and must be greater than 0; unset behaves like 1.',
  'io.k8s.api.core.v1.TopologySpreadConstraint.nodeAffinityPolicy':
    'Whether the pod\'s node affinity and node selector limit which nodes count when computing skew: `Honor` (the default) counts only matching nodes, `Ignore` counts all nodes.',
  'io.k8s.api.core.v1.TopologySpreadConstraint.nodeTaintsPolicy':
    'Whether node taints limit which nodes count when computing skew: `Honor` counts only nodes whose taints the pod tolerates, `Ignore` (the default) counts all nodes.',
  'io.k8s.api.core.v1.TopologySpreadConstraint.topologyKey':
    'The node label key whose values define the domains; nodes with the same value form one domain. Nodes without the label are ignored. Required.',
  'io.k8s.api.core.v1.TopologySpreadConstraint.whenUnsatisfiable':
    'What to do when the constraint cannot be met: `DoNotSchedule` (the default) leaves the pod pending, `ScheduleAnyway` schedules it while still favoring lower skew.',
  'io.k8s.api.core.v1.TypedLocalObjectReference':
    'A reference to an object of a given kind in the same namespace.',
  'io.k8s.api.core.v1.TypedLocalObjectReference.apiGroup':
    'The API group of the referenced kind. Leave empty for the core group.',
  'io.k8s.api.core.v1.TypedLocalObjectReference.kind':
    'The kind of the referenced object.',
  'io.k8s.api.core.v1.TypedLocalObjectReference.name':
    'The name of the referenced object.',
  'io.k8s.api.core.v1.TypedObjectReference':
    'A reference to an object of a given kind, optionally in another namespace.',
  'io.k8s.api.core.v1.TypedObjectReference.apiGroup':
    'The API group of the referenced kind. Leave empty for the core group.',
  'io.k8s.api.core.v1.TypedObjectReference.kind':
    'The kind of the referenced object.',
  'io.k8s.api.core.v1.TypedObjectReference.name':
    'The name of the referenced object.',
  'io.k8s.api.core.v1.TypedObjectReference.namespace':
    'The namespace of the referenced object; defaults to the referrer\'s namespace. A different namespace needs a ReferenceGrant there and the CrossNamespaceVolumeDataSource feature.',
  'io.k8s.api.core.v1.Volume':
    'Declares one volume of the pod under a name that container mounts use. Exactly one volume source must be given.',
  'io.k8s.api.core.v1.Volume.awsElasticBlockStore':
    'Deprecated: an AWS EBS volume attached to the node. Served by the `ebs.csi.aws.com` CSI driver through CSI migration.',
  'io.k8s.api.core.v1.Volume.azureDisk':
    'Deprecated: an Azure data disk attached to the node. Served by the `disk.csi.azure.com` CSI driver through CSI migration.',
  'io.k8s.api.core.v1.Volume.azureFile':
    'Deprecated: an Azure File share. Served by the `file.csi.azure.com` CSI driver through CSI migration.',
  'io.k8s.api.core.v1.Volume.cephfs':
    'Deprecated and no longer supported: a CephFS mount.',
  'io.k8s.api.core.v1.Volume.cinder':
    'Deprecated: an OpenStack Cinder volume attached to the node. Served by the `cinder.csi.openstack.org` CSI driver through CSI migration.',
  'io.k8s.api.core.v1.Volume.configMap':
    'The keys of a ConfigMap in the pod\'s namespace, written as files.',
  'io.k8s.api.core.v1.Volume.csi':
    'An ephemeral volume provided by a CSI driver that supports inline (pod-scoped) volumes.',
  'io.k8s.api.core.v1.Volume.downwardAPI':
    'Files containing information about the pod itself, such as its labels, annotations or resource limits.',
  'io.k8s.api.core.v1.Volume.emptyDir':
    'A scratch directory that starts empty when the pod is placed on a node and is deleted, with its contents, when the pod is removed.',
  'io.k8s.api.core.v1.Volume.ephemeral':
    'A generic ephemeral volume: a PersistentVolumeClaim created from a template for this pod alone and deleted with it, so any storage driver can provide pod-lifetime storage.',
  'io.k8s.api.core.v1.Volume.fc':
    'A Fibre Channel disk attached to the node and exposed to the pod.',
  'io.k8s.api.core.v1.Volume.flexVolume':
    'Deprecated: a volume handled by a FlexVolume driver plugin on the node. Use a CSI driver instead.',
  'io.k8s.api.core.v1.Volume.flocker':
    'Deprecated and no longer supported: a Flocker dataset.',
  'io.k8s.api.core.v1.Volume.gcePersistentDisk':
    'Deprecated: a Google Compute Engine persistent disk attached to the node. Served by the `pd.csi.storage.gke.io` CSI driver through CSI migration.',
  'io.k8s.api.core.v1.Volume.gitRepo':
    'Deprecated: a directory populated with a clone of a git repository. Prefer cloning in an init container into an emptyDir volume shared with the app container.',
  'io.k8s.api.core.v1.Volume.glusterfs':
    'Deprecated and no longer supported: a GlusterFS mount.',
  'io.k8s.api.core.v1.Volume.hostPath':
    'A file or directory on the node, mapped into the pod. Meant for system agents and privileged workloads; it ties the pod to the node\'s filesystem and is a common security risk.',
  'io.k8s.api.core.v1.Volume.image':
    'An OCI image or artifact mounted read-only, pulled like a container image. Requires the ImageVolume feature.',
  'io.k8s.api.core.v1.Volume.iscsi':
    'An iSCSI disk attached to the node and exposed to the pod.',
  'io.k8s.api.core.v1.Volume.name':
    'The volume\'s name, a DNS label unique within the pod. Volume mounts refer to it by this name.',
  'io.k8s.api.core.v1.Volume.nfs':
    'An NFS export mounted from a remote server.',
  'io.k8s.api.core.v1.Volume.persistentVolumeClaim':
    'A PersistentVolumeClaim in the pod\'s namespace, giving the pod the storage bound to it.',
  'io.k8s.api.core.v1.Volume.photonPersistentDisk':
    'Deprecated and no longer supported: a Photon Controller persistent disk.',
  'io.k8s.api.core.v1.Volume.portworxVolume':
    'Deprecated: a Portworx volume. When CSI migration is on, the `pxd.portworx.com` CSI driver serves it.',
  'io.k8s.api.core.v1.Volume.projected':
    'A single directory that combines several sources: Secrets, ConfigMaps, downward API data, service account tokens and trust bundles.',
  'io.k8s.api.core.v1.Volume.quobyte':
    'Deprecated and no longer supported: a Quobyte mount.',
  'io.k8s.api.core.v1.Volume.rbd':
    'Deprecated and no longer supported: a Ceph RADOS block device.',
  'io.k8s.api.core.v1.Volume.scaleIO':
    'Deprecated and no longer supported: a ScaleIO volume.',
  'io.k8s.api.core.v1.Volume.secret':
    'The keys of a Secret in the pod\'s namespace, written as files.',
  'io.k8s.api.core.v1.Volume.storageos':
    'Deprecated and no longer supported: a StorageOS volume.',
  'io.k8s.api.core.v1.Volume.vsphereVolume':
    'Deprecated: a vSphere virtual disk. Served by the `csi.vsphere.vmware.com` CSI driver through CSI migration.',
  'io.k8s.api.core.v1.VolumeDevice':
    'Exposes a raw block volume to a container as a device.',
  'io.k8s.api.core.v1.VolumeDevice.devicePath':
    'The path inside the container where the device appears.',
  'io.k8s.api.core.v1.VolumeDevice.name':
    'The name of the persistent volume claim (pod volume) to expose.',
  'io.k8s.api.core.v1.VolumeMount':
    'Mounts one of the pod\'s volumes into a container.',
  'io.k8s.api.core.v1.VolumeMount.mountPath':
    'The path inside the container where the volume appears. Must not contain `:`.',
  'io.k8s.api.core.v1.VolumeMount.mountPropagation':
    'How mounts propagate between host and container: `None` (the default), `HostToContainer`, or `Bidirectional`, which requires a privileged container.',
  'io.k8s.api.core.v1.VolumeMount.name':
    'The name of the pod volume to mount.',
  'io.k8s.api.core.v1.VolumeMount.readOnly':
    'Mount the volume read-only. Defaults to false.',
  'io.k8s.api.core.v1.VolumeMount.recursiveReadOnly':
    'Whether a read-only mount is also read-only for all mounts beneath it: `Disabled` (the default), `IfPossible` or `Enabled`. Only valid when `readOnly` is true, and `mountPropagation` must then be unset or `None`.',
  'io.k8s.api.core.v1.VolumeMount.subPath':
    'A path within the volume to mount instead of its root. Defaults to the root.',
  'io.k8s.api.core.v1.VolumeMount.subPathExpr':
    'Like `subPath`, but `$(VAR)` references are expanded from the container\'s environment. Cannot be combined with `subPath`. Defaults to the volume root.',
  'io.k8s.api.core.v1.VolumeMountStatus':
    'The observed state of one of a container\'s volume mounts.',
  'io.k8s.api.core.v1.VolumeMountStatus.mountPath':
    'The path the volume is mounted at, matching the original mount.',
  'io.k8s.api.core.v1.VolumeMountStatus.name':
    'The name of the volume mount this entry describes.',
  'io.k8s.api.core.v1.VolumeMountStatus.readOnly':
    'Whether the mount is read-only, as in the original mount.',
  'io.k8s.api.core.v1.VolumeMountStatus.recursiveReadOnly':
    'How recursive read-only actually turned out: `Enabled`, `Disabled`, or unset for writable mounts. An `IfPossible` request is reported as one of the first two.',
  'io.k8s.api.core.v1.VolumeNodeAffinity':
    'The nodes a volume can be reached from.',
  'io.k8s.api.core.v1.VolumeNodeAffinity.required':
    'The nodes that must match, as a node selector.',
  'io.k8s.api.core.v1.VolumeProjection':
    'One source within a projected volume. Exactly one field must be set.',
  'io.k8s.api.core.v1.VolumeProjection.clusterTrustBundle':
    'Certificates from one or more ClusterTrustBundle objects, written to a single file. Requires the ClusterTrustBundleProjection feature.',
  'io.k8s.api.core.v1.VolumeProjection.configMap':
    'Files from the keys of a ConfigMap.',
  'io.k8s.api.core.v1.VolumeProjection.downwardAPI':
    'Files with information about the pod.',
  'io.k8s.api.core.v1.VolumeProjection.secret':
    'Files from the keys of a Secret.',
  'io.k8s.api.core.v1.VolumeProjection.serviceAccountToken':
    'A token for the pod\'s service account, refreshed automatically by the kubelet.',
  'io.k8s.api.core.v1.VolumeResourceRequirements':
    'The storage resources a persistent volume claim asks for.',
  'io.k8s.api.core.v1.VolumeResourceRequirements.limits':
    'Upper bound for each resource.',
  'io.k8s.api.core.v1.VolumeResourceRequirements.requests':
    'The minimum amount of each resource required, chiefly `storage`. When omitted it defaults to `limits`, if given.',
  'io.k8s.api.core.v1.VolumeSource':
    'Where a volume\'s data comes from. Exactly one of the fields may be set.',
  'io.k8s.api.core.v1.VolumeSource.awsElasticBlockStore':
    'Deprecated: an AWS EBS volume attached to the node. Served by the `ebs.csi.aws.com` CSI driver through CSI migration.',
  'io.k8s.api.core.v1.VolumeSource.azureDisk':
    'Deprecated: an Azure data disk attached to the node. Served by the `disk.csi.azure.com` CSI driver through CSI migration.',
  'io.k8s.api.core.v1.VolumeSource.azureFile':
    'Deprecated: an Azure File share. Served by the `file.csi.azure.com` CSI driver through CSI migration.',
  'io.k8s.api.core.v1.VolumeSource.cephfs':
    'Deprecated and no longer supported: a CephFS mount.',
  'io.k8s.api.core.v1.VolumeSource.cinder':
    'Deprecated: an OpenStack Cinder volume attached to the node. Served by the `cinder.csi.openstack.org` CSI driver through CSI migration.',
  'io.k8s.api.core.v1.VolumeSource.configMap':
    'The keys of a ConfigMap in the pod\'s namespace, written as files.',
  'io.k8s.api.core.v1.VolumeSource.csi':
    'An ephemeral volume provided by a CSI driver that supports inline (pod-scoped) volumes.',
  'io.k8s.api.core.v1.VolumeSource.downwardAPI':
    'Files containing information about the pod itself, such as its labels, annotations or resource limits.',
  'io.k8s.api.core.v1.VolumeSource.emptyDir':
    'A scratch directory that starts empty when the pod is placed on a node and is deleted, with its contents, when the pod is removed.',
  'io.k8s.api.core.v1.VolumeSource.ephemeral':
    'A generic ephemeral volume: a PersistentVolumeClaim created from a template for this pod alone and deleted with it, so any storage driver can provide pod-lifetime storage.',
  'io.k8s.api.core.v1.VolumeSource.fc':
    'A Fibre Channel disk attached to the node and exposed to the pod.',
  'io.k8s.api.core.v1.VolumeSource.flexVolume':
    'Deprecated: a volume handled by a FlexVolume driver plugin on the node. Use a CSI driver instead.',
  'io.k8s.api.core.v1.VolumeSource.flocker':
    'Deprecated and no longer supported: a Flocker dataset.',
  'io.k8s.api.core.v1.VolumeSource.gcePersistentDisk':
    'Deprecated: a Google Compute Engine persistent disk attached to the node. Served by the `pd.csi.storage.gke.io` CSI driver through CSI migration.',
  'io.k8s.api.core.v1.VolumeSource.gitRepo':
    'Deprecated: a directory populated with a clone of a git repository. Prefer cloning in an init container into an emptyDir volume shared with the app container.',
  'io.k8s.api.core.v1.VolumeSource.glusterfs':
    'Deprecated and no longer supported: a GlusterFS mount.',
  'io.k8s.api.core.v1.VolumeSource.hostPath':
    'A file or directory on the node, mapped into the pod. Meant for system agents and privileged workloads; it ties the pod to the node\'s filesystem and is a common security risk.',
  'io.k8s.api.core.v1.VolumeSource.image':
    'An OCI image or artifact mounted read-only, pulled like a container image. Requires the ImageVolume feature.',
  'io.k8s.api.core.v1.VolumeSource.iscsi':
    'An iSCSI disk attached to the node and exposed to the pod.',
  'io.k8s.api.core.v1.VolumeSource.nfs':
    'An NFS export mounted from a remote server.',
  'io.k8s.api.core.v1.VolumeSource.persistentVolumeClaim':
    'A PersistentVolumeClaim in the pod\'s namespace, giving the pod the storage bound to it.',
  'io.k8s.api.core.v1.VolumeSource.photonPersistentDisk':
    'Deprecated and no longer supported: a Photon Controller persistent disk.',
  'io.k8s.api.core.v1.VolumeSource.portworxVolume':
    'Deprecated: a Portworx volume. When CSI migration is on, the `pxd.portworx.com` CSI driver serves it.',
  'io.k8s.api.core.v1.VolumeSource.projected':
    'A single directory that combines several sources: Secrets, ConfigMaps, downward API data, service account tokens and trust bundles.',
  'io.k8s.api.core.v1.VolumeSource.quobyte':
    'Deprecated and no longer supported: a Quobyte mount.',
  'io.k8s.api.core.v1.VolumeSource.rbd':
    'Deprecated and no longer supported: a Ceph RADOS block device.',
  'io.k8s.api.core.v1.VolumeSource.scaleIO':
    'Deprecated and no longer supported: a ScaleIO volume.',
  'io.k8s.api.core.v1.VolumeSource.secret':
    'The keys of a Secret in the pod\'s namespace, written as files.',
  'io.k8s.api.core.v1.VolumeSource.storageos':
    'Deprecated and no longer supported: a StorageOS volume.',
  'io.k8s.api.core.v1.VolumeSource.vsphereVolume':
    'Deprecated: a vSphere virtual disk. Served by the `csi.vsphere.vmware.com` CSI driver through CSI migration.',
  'io.k8s.api.core.v1.VsphereVirtualDiskVolumeSource':
    'Deprecated: a vSphere virtual disk.',
  'io.k8s.api.core.v1.VsphereVirtualDiskVolumeSource.fsType':
    'The filesystem type, for example `ext4`, `xfs` or `ntfs`. Defaults to `ext4`.',
  'io.k8s.api.core.v1.VsphereVirtualDiskVolumeSource.storagePolicyID':
    'ID of the vSphere SPBM storage policy to apply; pairs with `storagePolicyName`.',
  'io.k8s.api.core.v1.VsphereVirtualDiskVolumeSource.storagePolicyName':
    'Name of the vSphere SPBM storage policy to apply.',
  'io.k8s.api.core.v1.VsphereVirtualDiskVolumeSource.volumePath':
    'Datastore path of the VMDK file that backs the volume.',
  'io.k8s.api.core.v1.WeightedPodAffinityTerm':
    'A pod affinity term with a weight, used for soft preferences.',
  'io.k8s.api.core.v1.WeightedPodAffinityTerm.podAffinityTerm':
    'The pod affinity term the weight applies to.',
  'io.k8s.api.core.v1.WeightedPodAffinityTerm.weight':
    'How much satisfying (or, for anti-affinity, violating) the term counts in a node\'s score, from 1 to 100.',
  'io.k8s.api.core.v1.WindowsSecurityContextOptions':
    'Settings that only apply to Windows containers.',
  'io.k8s.api.core.v1.WindowsSecurityContextOptions.gmsaCredentialSpec':
    'The GMSA credential spec itself, inlined as text; normally injected by a webhook based on `gmsaCredentialSpecName`.',
  'io.k8s.api.core.v1.WindowsSecurityContextOptions.gmsaCredentialSpecName':
    'The name of the GMSACredentialSpec resource to use for a group managed service account.',
  'io.k8s.api.core.v1.WindowsSecurityContextOptions.hostProcess':
    'Run the container as a Windows HostProcess container with access to the node. Every container in the pod must use the same value, and the pod must use host networking. Defaults to false.',
  'io.k8s.api.core.v1.WindowsSecurityContextOptions.runAsUserName':
    'The Windows user the container\'s entrypoint runs as. Defaults to the user set in the image.',
  'io.k8s.api.events.v1.Event':
    'A report of something that happened in the cluster, such as a pod being scheduled. The same objects as core/v1 Events, in the newer shape: writes of this version must set eventTime, reportingController, reportingInstance, action and reason.',
  'io.k8s.api.events.v1.Event.action':
    'What the controller did or failed to do, such as `Binding`. Required.',
  'io.k8s.api.events.v1.Event.apiVersion':
    'The group/version the body is written in, always `events.k8s.io/v1` here. The server uses it to pick the schema for decoding and rejects versions it does not serve.',
  'io.k8s.api.events.v1.Event.deprecatedCount':
    'Deprecated: the core/v1 `count`.',
  'io.k8s.api.events.v1.Event.deprecatedFirstTimestamp':
    'Deprecated: the core/v1 `firstTimestamp`.',
  'io.k8s.api.events.v1.Event.deprecatedLastTimestamp':
    'Deprecated: the core/v1 `lastTimestamp`.',
  'io.k8s.api.events.v1.Event.deprecatedSource':
    'Deprecated: the core/v1 `source` of events written in that version.',
  'io.k8s.api.events.v1.Event.eventTime':
    'When the event first happened, to the microsecond. Required.',
  'io.k8s.api.events.v1.Event.kind':
    'The REST resource type of this object, always `Event` here. Servers fill it in on responses, and clients should send it so the body can be decoded without outside context.',
  'io.k8s.api.events.v1.Event.metadata':
    'The object\'s name, namespace, labels, annotations and other metadata shared by all persisted objects.',
  'io.k8s.api.events.v1.Event.note':
    'Human-readable details, at most 1 KiB.',
  'io.k8s.api.events.v1.Event.reason':
    'Why it did so, as a short CamelCase word. Required.',
  'io.k8s.api.events.v1.Event.regarding':
    'The object the event is about.',
  'io.k8s.api.events.v1.Event.related':
    'A second object involved, if any.',
  'io.k8s.api.events.v1.Event.reportingController':
    'The controller that reported the event, such as `kubernetes.io/kubelet`. Required.',
  'io.k8s.api.events.v1.Event.reportingInstance':
    'The instance of that controller, such as a node or pod name. Required.',
  'io.k8s.api.events.v1.Event.series':
    'Repeats of the event; set when it recurs.',
  'io.k8s.api.events.v1.Event.type':
    '`Normal` or `Warning`.',
  'io.k8s.api.events.v1.EventList':
    'A list of Event objects.',
  'io.k8s.api.events.v1.EventList.apiVersion':
    'The group/version the body is written in, always `events.k8s.io/v1` here. The server uses it to pick the schema for decoding and rejects versions it does not serve.',
  'io.k8s.api.events.v1.EventList.items':
    'The Events in the list.',
  'io.k8s.api.events.v1.EventList.kind':
    'The REST resource type of this object, always `EventList` here. Servers fill it in on responses, and clients should send it so the body can be decoded without outside context.',
  'io.k8s.api.events.v1.EventList.metadata':
    'The resource version the list was read at, plus paging information.',
  'io.k8s.api.events.v1.EventSeries':
    'Repeats of an event: their number and the time of the last one.',
  'io.k8s.api.events.v1.EventSeries.count':
    'How many times the event happened so far.',
  'io.k8s.api.events.v1.EventSeries.lastObservedTime':
    'When it last happened.',
  'io.k8s.api.networking.v1.IPAddress':
    'One allocated IP address, named by the address in canonical form (such as `10.96.0.10` or `2001:db8::1`). The server creates one for each Service cluster IP it allocates and deletes it when the address is released; creating one by hand reserves the address.',
  'io.k8s.api.networking.v1.IPAddress.apiVersion':
    'The group/version the body is written in, always `networking.k8s.io/v1` here. The server uses it to pick the schema for decoding and rejects versions it does not serve.',
  'io.k8s.api.networking.v1.IPAddress.kind':
    'The REST resource type of this object, always `IPAddress` here. Servers fill it in on responses, and clients should send it so the body can be decoded without outside context.',
  'io.k8s.api.networking.v1.IPAddress.metadata':
    'The object\'s name, namespace, labels, annotations and other metadata shared by all persisted objects.',
  'io.k8s.api.networking.v1.IPAddress.spec':
    'What the address is allocated to.',
  'io.k8s.api.networking.v1.IPAddressList':
    'A list of IPAddress objects.',
  'io.k8s.api.networking.v1.IPAddressList.apiVersion':
    'The group/version the body is written in, always `networking.k8s.io/v1` here. The server uses it to pick the schema for decoding and rejects versions it does not serve.',
  'io.k8s.api.networking.v1.IPAddressList.items':
    'The IPAddresses in the list.',
  'io.k8s.api.networking.v1.IPAddressList.kind':
    'The REST resource type of this object, always `IPAddressList` here. Servers fill it in on responses, and clients should send it so the body can be decoded without outside context.',
  'io.k8s.api.networking.v1.IPAddressList.metadata':
    'The resource version the list was read at, plus paging information.',
  'io.k8s.api.networking.v1.IPAddressSpec':
    'What an IPAddress is allocated to.',
  'io.k8s.api.networking.v1.IPAddressSpec.parentRef':
    'The object the address belongs to. Required; cannot change.',
  'io.k8s.api.networking.v1.ParentReference':
    'A reference to the object an IP address belongs to.',
  'io.k8s.api.networking.v1.ParentReference.group':
    'The object\'s API group; empty for the core group.',
  'io.k8s.api.networking.v1.ParentReference.name':
    'The object\'s name.',
  'io.k8s.api.networking.v1.ParentReference.namespace':
    'The object\'s namespace, for namespaced resources.',
  'io.k8s.api.networking.v1.ParentReference.resource':
    'The object\'s resource, such as `services`.',
  'io.k8s.api.policy.v1.PodDisruptionBudget':
    'Limits how many pods of a group may be taken down at once by voluntary disruptions, such as evictions during a node drain. It does not protect against involuntary failures.',
  'io.k8s.api.policy.v1.PodDisruptionBudget.apiVersion':
    'The group/version the body is written in, always `policy/v1` here. The server uses it to pick the schema for decoding and rejects versions it does not serve.',
  'io.k8s.api.policy.v1.PodDisruptionBudget.kind':
    'The REST resource type of this object, always `PodDisruptionBudget` here. Servers fill it in on responses, and clients should send it so the body can be decoded without outside context.',
  'io.k8s.api.policy.v1.PodDisruptionBudget.metadata':
    'The object\'s name, namespace, labels, annotations and other metadata shared by all persisted objects.',
  'io.k8s.api.policy.v1.PodDisruptionBudget.spec':
    'The desired bounds on disruption for the selected pods.',
  'io.k8s.api.policy.v1.PodDisruptionBudget.status':
    'The most recently observed state of the budget, maintained by the disruption controller.',
  'io.k8s.api.policy.v1.PodDisruptionBudgetList':
    'A list of PodDisruptionBudget objects.',
  'io.k8s.api.policy.v1.PodDisruptionBudgetList.apiVersion':
    'The group/version the body is written in, always `policy/v1` here. The server uses it to pick the schema for decoding and rejects versions it does not serve.',
  'io.k8s.api.policy.v1.PodDisruptionBudgetList.items':
    'The PodDisruptionBudgets in the list.',
  'io.k8s.api.policy.v1.PodDisruptionBudgetList.kind':
    'The REST resource type of this object, always `PodDisruptionBudgetList` here. Servers fill it in on responses, and clients should send it so the body can be decoded without outside context.',
  'io.k8s.api.policy.v1.PodDisruptionBudgetList.metadata':
    'The resource version the list was read at, plus paging information.',
  'io.k8s.api.policy.v1.PodDisruptionBudgetSpec':
    'The desired disruption limits of a PodDisruptionBudget. Set at most one of `minAvailable` and `maxUnavailable`.',
  'io.k8s.api.policy.v1.PodDisruptionBudgetSpec.maxUnavailable':
    'An eviction is allowed only if no more than this many selected pods will be unavailable afterwards, given as a count or a percentage. `0` blocks all voluntary evictions. Cannot be combined with `minAvailable`.',
  'io.k8s.api.policy.v1.PodDisruptionBudgetSpec.minAvailable':
    'An eviction is allowed only if at least this many selected pods will still be available afterwards, given as a count or a percentage. `100%` blocks all voluntary evictions. Cannot be combined with `maxUnavailable`.',
  'io.k8s.api.policy.v1.PodDisruptionBudgetSpec.selector':
    'Which pods the budget covers. A null selector covers no pods, while an empty selector covers every pod in the namespace.',
  'io.k8s.api.policy.v1.PodDisruptionBudgetSpec.unhealthyPodEvictionPolicy':
    'When pods that are running but not yet Ready may be evicted. `IfHealthyBudget` (the default) allows it only while at least `desiredHealthy` pods are healthy; `AlwaysAllow` always allows it, so a broken application does not block node drains.',
  'io.k8s.api.policy.v1.PodDisruptionBudgetStatus':
    'The observed state of a PodDisruptionBudget. It may trail the real state of the system.',
  'io.k8s.api.policy.v1.PodDisruptionBudgetStatus.conditions':
    'Conditions about the budget. `DisruptionAllowed` is true when evictions may proceed; its reason is `SufficientPods`, `InsufficientPods` or `SyncFailed`.',
  'io.k8s.api.policy.v1.PodDisruptionBudgetStatus.currentHealthy':
    'The number of selected pods that are currently healthy.',
  'io.k8s.api.policy.v1.PodDisruptionBudgetStatus.desiredHealthy':
    'The minimum number of healthy pods the budget requires.',
  'io.k8s.api.policy.v1.PodDisruptionBudgetStatus.disruptedPods':
    'Pods the eviction API has approved for removal but that the controller has not yet seen deleted, mapped to the time the eviction was approved. Entries are dropped when the pod goes away or after a short timeout.',
  'io.k8s.api.policy.v1.PodDisruptionBudgetStatus.disruptionsAllowed':
    'Number of additional voluntary disruptions the budget permits right now.',
  'io.k8s.api.policy.v1.PodDisruptionBudgetStatus.expectedPods':
    'The total number of pods the budget counts.',
  'io.k8s.api.policy.v1.PodDisruptionBudgetStatus.observedGeneration':
    'The most recent `metadata.generation` the disruption controller has processed.',
  'io.k8s.api.scheduling.v1.PriorityClass':
    'A cluster-scoped mapping from a class name to an integer priority. Pods name a class in `priorityClassName`; higher priorities are scheduled first and may preempt lower ones.',
  'io.k8s.api.scheduling.v1.PriorityClass.apiVersion':
    'The group/version the body is written in, always `scheduling.k8s.io/v1` here. The server uses it to pick the schema for decoding and rejects versions it does not serve.',
  'io.k8s.api.scheduling.v1.PriorityClass.description':
    'Free-form text telling users when this class should be used.',
  'io.k8s.api.scheduling.v1.PriorityClass.globalDefault':
    'When true, pods without a `priorityClassName` get this class\'s value. Only one class should have it set; if several do, the lowest value is used, and if none do, such pods get priority 0.',
  'io.k8s.api.scheduling.v1.PriorityClass.kind':
    'The REST resource type of this object, always `PriorityClass` here. Servers fill it in on responses, and clients should send it so the body can be decoded without outside context.',
  'io.k8s.api.scheduling.v1.PriorityClass.metadata':
    'The object\'s name, namespace, labels, annotations and other metadata shared by all persisted objects.',
  'io.k8s.api.scheduling.v1.PriorityClass.preemptionPolicy':
    'Whether pods in this class may preempt lower-priority pods: `PreemptLowerPriority` (the default) or `Never`.',
  'io.k8s.api.scheduling.v1.PriorityClass.value':
    'The priority pods in this class receive; larger means more important. User-defined classes may use values up to 1,000,000,000; larger values are reserved for system-critical classes.',
  'io.k8s.api.scheduling.v1.PriorityClassList':
    'A list of PriorityClass objects.',
  'io.k8s.api.scheduling.v1.PriorityClassList.apiVersion':
    'The group/version the body is written in, always `scheduling.k8s.io/v1` here. The server uses it to pick the schema for decoding and rejects versions it does not serve.',
  'io.k8s.api.scheduling.v1.PriorityClassList.items':
    'The PriorityClasses in the list.',
  'io.k8s.api.scheduling.v1.PriorityClassList.kind':
    'The REST resource type of this object, always `PriorityClassList` here. Servers fill it in on responses, and clients should send it so the body can be decoded without outside context.',
  'io.k8s.api.scheduling.v1.PriorityClassList.metadata':
    'The resource version the list was read at, plus paging information.',
  'io.k8s.api.storage.v1.StorageClass':
    'A kind of storage claims can ask for, naming the provisioner that creates its volumes. A class marked with the `storageclass.kubernetes.io/is-default-class: "true"` annotation is given to claims that name none. kapi starts with `standard`, provisioned by its simulated provisioner.',
  'io.k8s.api.storage.v1.StorageClass.allowVolumeExpansion':
    'Whether claims of the class may grow.',
  'io.k8s.api.storage.v1.StorageClass.allowedTopologies':
    'Where volumes may be provisioned; anywhere when empty.',
  'io.k8s.api.storage.v1.StorageClass.apiVersion':
    'The group/version the body is written in, always `storage.k8s.io/v1` here. The server uses it to pick the schema for decoding and rejects versions it does not serve.',
  'io.k8s.api.storage.v1.StorageClass.kind':
    'The REST resource type of this object, always `StorageClass` here. Servers fill it in on responses, and clients should send it so the body can be decoded without outside context.',
  'io.k8s.api.storage.v1.StorageClass.metadata':
    'The object\'s name, namespace, labels, annotations and other metadata shared by all persisted objects.',
  'io.k8s.api.storage.v1.StorageClass.mountOptions':
    'Mount options of the volumes it provisions, passed on unvalidated.',
  'io.k8s.api.storage.v1.StorageClass.parameters':
    'Provisioner-specific parameters, at most 512 keys and 256 KiB in all. Cannot change.',
  'io.k8s.api.storage.v1.StorageClass.provisioner':
    'The provisioner that creates the volumes, such as `kapi.io/simulated`. Cannot change.',
  'io.k8s.api.storage.v1.StorageClass.reclaimPolicy':
    'The reclaim policy of the volumes it provisions: `Delete` (the default) or `Retain`. Cannot change.',
  'io.k8s.api.storage.v1.StorageClass.volumeBindingMode':
    'When claims are bound and provisioned: `Immediate` (the default) or `WaitForFirstConsumer` (once a pod using the claim is scheduled). Cannot change.',
  'io.k8s.api.storage.v1.StorageClassList':
    'A list of StorageClass objects.',
  'io.k8s.api.storage.v1.StorageClassList.apiVersion':
    'The group/version the body is written in, always `storage.k8s.io/v1` here. The server uses it to pick the schema for decoding and rejects versions it does not serve.',
  'io.k8s.api.storage.v1.StorageClassList.items':
    'The StorageClasses in the list.',
  'io.k8s.api.storage.v1.StorageClassList.kind':
    'The REST resource type of this object, always `StorageClassList` here. Servers fill it in on responses, and clients should send it so the body can be decoded without outside context.',
  'io.k8s.api.storage.v1.StorageClassList.metadata':
    'The resource version the list was read at, plus paging information.',
  'io.k8s.apimachinery.pkg.api.resource.Quantity':
    'A fixed-point amount written as a string (or number): an optional sign, a decimal number and an optional suffix. Suffixes may be binary (`Ki`, `Mi`, `Gi`, `Ti`, `Pi`, `Ei`), decimal SI (`m`, `k`, `M`, `G`, `T`, `P`, `E`) or an exponent (`e3`, `E6`). Examples: `500m` CPU, `128Mi` memory.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.APIGroup':
    'Discovery information about one API group: its name, the versions it serves and which version is preferred.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.APIGroup.apiVersion':
    'The group/version the body is written in, such as `v1` or `apps/v1`. The server uses it to choose the schema for decoding and may reject versions it does not serve.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.APIGroup.kind':
    'The REST resource type the body represents, in CamelCase (for example `Pod`). Servers fill it in on responses; clients should send it so the body can be decoded without outside context.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.APIGroup.name':
    'The group\'s name, for example `apps`. Empty for the legacy core group.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.APIGroup.preferredVersion':
    'The version clients should use when they have no reason to pick another.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.APIGroup.serverAddressByClientCIDRs':
    'Optional hints telling clients which server address to use depending on the network they connect from. Clients use the entry whose CIDR contains their address, preferring the longest match.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.APIGroup.versions':
    'Every version of the group that the server serves.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.APIGroupList':
    'The response of `/apis`: every API group the server offers, with their versions.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.APIGroupList.apiVersion':
    'The group/version the body is written in, such as `v1` or `apps/v1`. The server uses it to choose the schema for decoding and may reject versions it does not serve.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.APIGroupList.groups':
    'The API groups served.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.APIGroupList.kind':
    'The REST resource type the body represents, in CamelCase (for example `Pod`). Servers fill it in on responses; clients should send it so the body can be decoded without outside context.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.APIResource':
    'Discovery information about one resource within a group/version: its names, scope, kind and supported verbs.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.APIResource.categories':
    'Group aliases the resource belongs to, for example `all`, used by commands like `kubectl get all`.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.APIResource.group':
    'The group this resource should be addressed in, when it differs from the enclosing list\'s group; empty otherwise. Mostly used for subresources served from another group, such as `autoscaling` for `scale`.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.APIResource.kind':
    'The kind of the objects this resource serves, for example `StatefulSet`.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.APIResource.name':
    'The plural resource name used in URLs, for example `statefulsets`, or `statefulsets/scale` for a subresource.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.APIResource.namespaced':
    'Whether objects of this resource live in a namespace.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.APIResource.shortNames':
    'Abbreviations clients may accept for the resource, for example `sts`.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.APIResource.singularName':
    'The singular form of the name, for example `statefulset`, so tools such as kubectl can accept either form and report on single items naturally.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.APIResource.storageVersionHash':
    'An opaque hash of the version objects are stored in, which changes when the storage version does. Clients can watch it to detect storage migrations; it carries no other meaning.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.APIResource.verbs':
    'The operations the resource supports, such as `get`, `list`, `watch`, `create`, `update`, `patch`, `delete` and `deletecollection`.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.APIResource.version':
    'The version this resource should be addressed in, when it differs from the enclosing list\'s version; empty otherwise.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.APIResourceList':
    'The response of a group/version discovery endpoint such as `/apis/apps/v1`: the resources served there.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.APIResourceList.apiVersion':
    'The group/version the body is written in, such as `v1` or `apps/v1`. The server uses it to choose the schema for decoding and may reject versions it does not serve.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.APIResourceList.groupVersion':
    'The group/version being described, for example `apps/v1` or `v1`.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.APIResourceList.kind':
    'The REST resource type the body represents, in CamelCase (for example `Pod`). Servers fill it in on responses; clients should send it so the body can be decoded without outside context.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.APIResourceList.resources':
    'The resources served at this group/version.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.APIVersions':
    'The response of `/api`: the versions of the legacy core API group.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.APIVersions.apiVersion':
    'The group/version the body is written in, such as `v1` or `apps/v1`. The server uses it to choose the schema for decoding and may reject versions it does not serve.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.APIVersions.kind':
    'The REST resource type the body represents, in CamelCase (for example `Pod`). Servers fill it in on responses; clients should send it so the body can be decoded without outside context.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.APIVersions.serverAddressByClientCIDRs':
    'Optional hints telling clients which server address to use depending on the network they connect from. Clients use the entry whose CIDR contains their address, preferring the longest match.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.APIVersions.versions':
    'The versions served, for example `v1`.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.Condition':
    'A standard status condition: one observed aspect of an object\'s state, with a reason and message explaining the latest transition.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.Condition.lastTransitionTime':
    'When `status` last changed. If the exact moment is unknown, the time the underlying state changed is an acceptable substitute.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.Condition.message':
    'Human-readable details about the last change of the condition. May be empty; at most 32768 characters.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.Condition.observedGeneration':
    'The `metadata.generation` the condition was computed from. A value lower than the current generation means the condition may be stale.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.Condition.reason':
    'A short CamelCase identifier for the cause of the last transition, intended for programs. Required and non-empty; at most 1024 characters.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.Condition.status':
    'Whether the condition currently holds: `True`, `False` or `Unknown`.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.Condition.type':
    'The aspect this condition describes, in CamelCase (for example `Available`) or as `domain/Type`. At most 316 characters.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions':
    'Options that may accompany a delete request: grace period, preconditions, how dependents are handled and dry-run mode.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions.apiVersion':
    'The group/version the body is written in, such as `v1` or `apps/v1`. The server uses it to choose the schema for decoding and may reject versions it does not serve.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions.dryRun':
    'When set to `All`, the request is fully validated and processed but nothing is persisted. `All` is the only accepted value.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions.gracePeriodSeconds':
    'Seconds the object is given before it is removed. Must be non-negative; 0 deletes immediately, and leaving it unset uses the kind\'s default.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions.ignoreStoreReadErrorWithClusterBreakingPotential':
    'When true, forces removal of an object whose stored data cannot be read or decoded, skipping finalizers and preconditions. Dangerous: it can leave dependent state inconsistent, and it needs its own authorization. Defaults to false.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions.kind':
    'The REST resource type the body represents, in CamelCase (for example `Pod`). Servers fill it in on responses; clients should send it so the body can be decoded without outside context.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions.orphanDependents':
    'Deprecated; use `propagationPolicy`. True orphans dependents, false lets the garbage collector delete them. Must not be combined with `propagationPolicy`.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions.preconditions':
    'Conditions the stored object must satisfy for the delete to proceed; otherwise a 409 Conflict is returned.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions.propagationPolicy':
    'What happens to dependents: `Orphan` leaves them in place, `Background` deletes them after the owner is gone, and `Foreground` deletes them before the owner is removed. When unset the kind\'s default or existing finalizers decide.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1':
    'A set of field paths encoded as a JSON trie. Keys are `f:<name>` for fields, `k:<json>` for list items identified by their keys, `v:<json>` for set values and `i:<index>` for positions; `.` marks the node itself.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.GroupVersionForDiscovery':
    'One served version of an API group, as reported by discovery.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.GroupVersionForDiscovery.groupVersion':
    'The combined `group/version`, for example `apps/v1`.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.GroupVersionForDiscovery.version':
    'The version alone, for example `v1`. Spelled out so clients need not split `groupVersion`.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector':
    'A query over labels. All `matchLabels` entries and `matchExpressions` must hold (logical AND). An empty selector matches every object; an absent selector matches none.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector.matchExpressions':
    'Set-based requirements on label values; all of them must be satisfied.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector.matchLabels':
    'Exact key/value pairs that must be present. Each entry is shorthand for a `matchExpressions` requirement with operator `In` and a single value.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelectorRequirement':
    'One set-based condition in a label selector: a key, an operator and (for some operators) a list of values.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelectorRequirement.key':
    'The label key the requirement tests.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelectorRequirement.operator':
    'How the key is tested: `In`, `NotIn`, `Exists` or `DoesNotExist`.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelectorRequirement.values':
    'The values to compare against. Must be non-empty for `In` and `NotIn` and empty for `Exists` and `DoesNotExist`. Replaced as a whole by strategic merge patches.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta':
    'Metadata attached to list responses: the version the list was read at and, for paginated reads, how to fetch the next page.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta.continue':
    'Present when the server returned only part of the result. Send it back as the `continue` parameter, with otherwise identical query parameters, to fetch the next page. Tokens expire; an expired one yields a 410 Gone error and the list must be restarted.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta.remainingItemCount':
    'How many items are left after this page when pagination is in use. It may be an estimate and is left unset when the count is not known, such as for filtered lists.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta.resourceVersion':
    'The resource version the list reflects. Pass it to a watch to receive every change made after this snapshot. Opaque to clients.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta.selfLink':
    'Deprecated and no longer populated by the server.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry':
    'One record in `metadata.managedFields`: the set of fields a particular manager owns, the operation that gave it ownership and the API version the field set is expressed in.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry.apiVersion':
    'The API version in which the field set is written. Ownership is tracked per version because field names can differ between versions.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry.fieldsType':
    'The encoding of the field set. Only `FieldsV1` is defined.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry.fieldsV1':
    'The owned fields, encoded as described by `fieldsType`.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry.manager':
    'The name of the client or controller that manages these fields.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry.operation':
    'How the fields came to be owned: `Apply` (server-side apply) or `Update` (create, update or patch).',
  'io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry.subresource':
    'The subresource the write went through (for example `status` or `scale`), or empty when the main resource was written. Entries for different subresources are tracked separately.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry.time':
    'When this entry last changed, for example when a field was added or a value was modified. It is not bumped when another manager merely takes a field over. Informational only.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime':
    'A point in time serialized as an RFC 3339 string in UTC with microsecond precision.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta':
    'Common metadata carried by every persisted object: identity (name, namespace, UID), versioning, labels and annotations, ownership, finalizers and field-management records.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta.annotations':
    'Arbitrary string key/value pairs for tools and controllers to stash non-identifying data. Unlike labels they cannot be used in selectors and may hold larger, unstructured values.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta.creationTimestamp':
    'When the server created the object, as an RFC 3339 UTC timestamp. Set by the server and read-only.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta.deletionGracePeriodSeconds':
    'The grace period, in seconds, granted to the object before it is removed. Only present together with `deletionTimestamp`, and it can only be shortened. Read-only.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta.deletionTimestamp':
    'Once someone asks for a graceful delete, the server records here the moment after which the object will be removed once its finalizers are gone. Read-only; once set it can only move earlier, never be cleared.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta.finalizers':
    'Names of components that must finish cleanup before the object is actually removed. Deletion only sets `deletionTimestamp`; the object disappears once this list is empty. Entries should be unique; their order carries no meaning.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta.generateName':
    'A prefix the server uses to invent a unique name when `name` is empty; a random suffix is appended. Only consulted on create; in the rare case that generated names keep colliding, the create fails with an AlreadyExists error.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta.generation':
    'A counter the server increments when the object\'s desired state (typically `spec`) changes. Controllers report the generation they have acted on as `observedGeneration`. Read-only.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta.labels':
    'Arbitrary string key/value pairs used to organize and select objects; selectors in services, controllers and queries match against them. Keys may carry an optional DNS-subdomain prefix followed by `/`.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta.managedFields':
    'Bookkeeping for server-side apply that records which manager owns which fields, per API version. Maintained by the server; users normally neither read nor write it.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta.name':
    'The object\'s name, unique among objects of the same kind in its namespace (or in the cluster, for cluster-scoped kinds). Required on create unless `generateName` is used, and immutable afterwards. Most kinds require a DNS subdomain or DNS label.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta.namespace':
    'The namespace the object belongs to; must be a DNS label. Empty for cluster-scoped kinds. For namespaced kinds it is taken from the request path when omitted, and it cannot be changed after creation.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta.ownerReferences':
    'The objects this object depends on. When every owner is gone the garbage collector deletes this object. At most one entry may have `controller` set to true.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta.resourceVersion':
    'An opaque token that changes whenever the object is written. Clients must not parse it; send it back unchanged for optimistic-concurrency updates or to resume a watch from this point. Set by the server.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta.selfLink':
    'Deprecated and no longer populated. Older servers put the object\'s own URL here; clients should build URLs themselves.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta.uid':
    'A server-assigned identifier that is unique across time and space for this object instance. Read-only; a deleted and re-created object with the same name gets a new UID.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference':
    'Points at an object that owns this one, in the same namespace (or cluster-scoped). Used by the garbage collector and to identify the managing controller.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference.apiVersion':
    'The group/version of the owner, for example `apps/v1`.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference.blockOwnerDeletion':
    'When true and the owner is being deleted in the foreground, the owner is not removed until this dependent is gone. Setting it requires delete permission on the owner. Defaults to false.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference.controller':
    'True when this owner is the controller responsible for managing the object. Only one owner reference may set this.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference.kind':
    'The kind of the owner, for example `StatefulSet`.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference.name':
    'The owner\'s name.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference.uid':
    'The owner\'s UID; the reference only counts if it matches the live owner.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.Preconditions':
    'Conditions checked against the stored object before an operation is carried out.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.Preconditions.resourceVersion':
    'The resource version the object must currently be at.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.Preconditions.uid':
    'The UID the object must have.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.ServerAddressByClientCIDR':
    'A hint pairing a client network with the server address clients on that network should use.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.ServerAddressByClientCIDR.clientCIDR':
    'The client network, in CIDR notation, this hint applies to.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.ServerAddressByClientCIDR.serverAddress':
    'The address (host or `host:port`) clients in that network should use to reach the server.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.PartialObjectMetadata':
    'Any object reduced to its metadata: what a client that only needs names, labels, owners and versions asks for instead of the whole object.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.PartialObjectMetadata.apiVersion':
    'The version of the metadata view (meta.k8s.io/v1 or v1beta1), not of the object it describes.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.PartialObjectMetadata.kind':
    'Always PartialObjectMetadata.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.PartialObjectMetadata.metadata':
    'The object\'s metadata, exactly as the full object carries it.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.PartialObjectMetadataList':
    'A list answer reduced to the metadata of each item.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.PartialObjectMetadataList.apiVersion':
    'The version of the metadata view (meta.k8s.io/v1).',
  'io.k8s.apimachinery.pkg.apis.meta.v1.PartialObjectMetadataList.items':
    'The metadata of each object the list returned, in the list\'s order.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.PartialObjectMetadataList.kind':
    'Always PartialObjectMetadataList.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.PartialObjectMetadataList.metadata':
    'The list\'s own metadata: its resource version and paging state.',
  'io.k8s.apimachinery.pkg.apis.meta.v1beta1.PartialObjectMetadataList':
    'The older form of the metadata-only list, kept for clients that still ask for meta.k8s.io/v1beta1.',
  'io.k8s.apimachinery.pkg.apis.meta.v1beta1.PartialObjectMetadataList.apiVersion':
    'Always meta.k8s.io/v1beta1.',
  'io.k8s.apimachinery.pkg.apis.meta.v1beta1.PartialObjectMetadataList.items':
    'The metadata of each object the list returned, in the list\'s order.',
  'io.k8s.apimachinery.pkg.apis.meta.v1beta1.PartialObjectMetadataList.kind':
    'Always PartialObjectMetadataList.',
  'io.k8s.apimachinery.pkg.apis.meta.v1beta1.PartialObjectMetadataList.metadata':
    'The list\'s own metadata: its resource version and paging state (no remaining item count in this version).',
  'io.k8s.apimachinery.pkg.apis.meta.v1.Status':
    'The response body for operations that do not return an object, most notably errors. It tells whether the call succeeded, why, and any machine-readable details.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.Status.apiVersion':
    'The group/version the body is written in, such as `v1` or `apps/v1`. The server uses it to choose the schema for decoding and may reject versions it does not serve.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.Status.code':
    'The HTTP status code of the response; 0 when not set.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.Status.details':
    'Extra data about the failure, whose shape depends on `reason`. May be absent.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.Status.kind':
    'The REST resource type the body represents, in CamelCase (for example `Pod`). Servers fill it in on responses; clients should send it so the body can be decoded without outside context.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.Status.message':
    'A human-readable explanation of the outcome.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.Status.metadata':
    'List metadata; usually empty for status responses.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.Status.reason':
    'A machine-readable CamelCase explanation of a failure (for example `NotFound`, `AlreadyExists`, `Conflict`). Empty means no further information is available; it does not override the HTTP status code.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.Status.status':
    'Outcome of the operation: `Success` or `Failure`.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.StatusCause':
    'One specific reason a request failed, optionally pointing at the offending field.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.StatusCause.field':
    'The path of the field that caused the problem, in JSON path style (for example `spec.containers[0].image`). Empty when no single field is to blame.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.StatusCause.message':
    'Explains this cause in prose for people to read.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.StatusCause.reason':
    'A machine-readable identifier for this cause (for example `FieldValueInvalid`). Empty means unknown.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.StatusDetails':
    'Structured information accompanying a Status, identifying the affected object and listing the individual causes of a failure.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.StatusDetails.causes':
    'The individual problems that caused the failure, such as each invalid field in a validation error.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.StatusDetails.group':
    'The API group of the affected resource.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.StatusDetails.kind':
    'The kind of the affected resource. Clients may not rely on it matching any particular kind.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.StatusDetails.name':
    'The name of the object the status concerns, when there is a single one.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.StatusDetails.retryAfterSeconds':
    'When set, the number of seconds a client should wait before retrying the operation.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.StatusDetails.uid':
    'The UID of the affected object, when known.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.Time':
    'A point in time serialized as an RFC 3339 string in UTC with second precision (for example `2024-01-02T15:04:05Z`). May be null when unset.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.TypeMeta':
    'The pair of fields (`apiVersion` and `kind`) that names an object\'s schema. Every top-level API object carries them so its serialized form is self-describing.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.TypeMeta.apiVersion':
    'The group/version the body is written in, such as `v1` or `apps/v1`. The server uses it to choose the schema for decoding and may reject versions it does not serve.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.TypeMeta.kind':
    'The REST resource type the body represents, in CamelCase (for example `Pod`). Servers fill it in on responses; clients should send it so the body can be decoded without outside context.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.WatchEvent':
    'One event in a watch stream: what happened and the object concerned.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.WatchEvent.object':
    'For `ADDED` and `MODIFIED`, the object\'s new state; for `DELETED`, its state just before deletion; for `BOOKMARK`, an object carrying only the current resource version; for `ERROR`, usually a Status describing the problem.',
  'io.k8s.apimachinery.pkg.apis.meta.v1.WatchEvent.type':
    'What happened: `ADDED`, `MODIFIED`, `DELETED`, `BOOKMARK` or `ERROR`.',
  'io.k8s.apimachinery.pkg.runtime.RawExtension':
    'An embedded object kept as raw JSON. It is stored and returned exactly as provided, without schema validation.',
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString':
    'A value that may be written either as a 32-bit integer or as a string, for example a port number or port name, or a count versus a percentage such as `25%`.',
};
