// Protobuf message definitions for kube's wire format (proto2, as kube's
// generated.proto files are), written for kapi from the field numbers and Go
// types of k8s.io/api and k8s.io/apimachinery v0.33.
//
// Every message carries the JSON semantics of the Go field it mirrors, as
// custom field options, because kube's Go marshallers always write non-pointer
// fields (so "present on the wire" does not mean "set") and kube's JSON encoder
// decides what appears by Go type + `omitempty`:
//
//   (no option), scalar     Go value with `omitempty`: emitted in JSON only when non-zero.
//   [(emit) = true], scalar Go value without `omitempty`: always emitted (zero when absent).
//   [(ptr) = true], scalar  Go pointer: emitted iff present on the wire (even when zero).
//   (no option), message    Go pointer struct: emitted iff present on the wire.
//   [(emit) = true], message Go non-pointer struct: always emitted (an absent one decodes
//                           as the empty message; a zero Time is omitted, kube writes null).
//   [(inline) = true]       Go embedded struct (`json:",inline"`): its fields are merged
//                           into the parent's JSON object.
//   repeated / map          emitted only when non-empty, except [(emit) = true] (List.items),
//                           which is always emitted ([] when empty).
//
// The well-known kube scalar wrappers are converted specially by the codec (see
// convert.ts): meta.v1.Time (RFC3339, seconds), meta.v1.MicroTime (RFC3339 with
// microseconds), resource.Quantity (string), intstr.IntOrString (number|string),
// meta.v1.FieldsV1 (JSON object held as raw bytes).
//
// Adding a field is adding one line: `optional <type> <jsonName> = <number> [opts];`
// with the number from kube's generated.proto and the options from the Go type.
// (All 625 fields below were checked against the Go structs of k8s.io/api v0.33.0
// by reflection: name, number, type, pointer/omitempty/inline; testdata/go-fixtures.json
// holds objects encoded by kube's own Go serializer for the decode tests.)
//
// Not covered yet (fields absent here are reported by the decoder as unknown fields):
//   - core/v1 Pod, PodStatus (and ContainerStatus etc.), Service, ConfigMap, Secret, ...
//   - everything in apps/v1 other than StatefulSet (Deployment, DaemonSet, ReplicaSet, ...)
// PodSpec, Container, EphemeralContainer and all v1.33 VolumeSource kinds are complete.

export const RUNTIME_PROTO = `
syntax = "proto2";
package k8s.io.apimachinery.pkg.runtime;

message TypeMeta {
  optional string apiVersion = 1;
  optional string kind = 2;
}

message Unknown {
  optional TypeMeta typeMeta = 1;
  optional bytes raw = 2;
  optional string contentEncoding = 3;
  optional string contentType = 4;
}

message RawExtension {
  optional bytes raw = 1;
}
`;

export const INTSTR_PROTO = `
syntax = "proto2";
package k8s.io.apimachinery.pkg.util.intstr;

// type: 0 = Int (intVal), 1 = String (strVal).
message IntOrString {
  optional int64 type = 1;
  optional int32 intVal = 2;
  optional string strVal = 3;
}
`;

export const RESOURCE_PROTO = `
syntax = "proto2";
package k8s.io.apimachinery.pkg.api.resource;

message Quantity {
  optional string string = 1;
}
`;

export const META_V1_PROTO = `
syntax = "proto2";
package k8s.io.apimachinery.pkg.apis.meta.v1;

message Time {
  optional int64 seconds = 1;
  optional int32 nanos = 2;
}

message MicroTime {
  optional int64 seconds = 1;
  optional int32 nanos = 2;
}

message FieldsV1 {
  optional bytes Raw = 1;
}

message ObjectMeta {
  optional string name = 1;
  optional string generateName = 2;
  optional string namespace = 3;
  optional string selfLink = 4;
  optional string uid = 5;
  optional string resourceVersion = 6;
  optional int64 generation = 7;
  optional Time creationTimestamp = 8 [(emit) = true];
  optional Time deletionTimestamp = 9;
  optional int64 deletionGracePeriodSeconds = 10 [(ptr) = true];
  map<string, string> labels = 11;
  map<string, string> annotations = 12;
  repeated OwnerReference ownerReferences = 13;
  repeated string finalizers = 14;
  repeated ManagedFieldsEntry managedFields = 17;
}

message OwnerReference {
  optional string kind = 1 [(emit) = true];
  optional string name = 3 [(emit) = true];
  optional string uid = 4 [(emit) = true];
  optional string apiVersion = 5 [(emit) = true];
  optional bool controller = 6 [(ptr) = true];
  optional bool blockOwnerDeletion = 7 [(ptr) = true];
}

message ManagedFieldsEntry {
  optional string manager = 1;
  optional string operation = 2;
  optional string apiVersion = 3;
  optional Time time = 4;
  optional string fieldsType = 6;
  optional FieldsV1 fieldsV1 = 7;
  optional string subresource = 8;
}

message ListMeta {
  optional string selfLink = 1;
  optional string resourceVersion = 2;
  optional string continue = 3;
  optional int64 remainingItemCount = 4 [(ptr) = true];
}

message LabelSelector {
  map<string, string> matchLabels = 1;
  repeated LabelSelectorRequirement matchExpressions = 2;
}

message LabelSelectorRequirement {
  optional string key = 1 [(emit) = true];
  optional string operator = 2 [(emit) = true];
  repeated string values = 3;
}

message Condition {
  optional string type = 1 [(emit) = true];
  optional string status = 2 [(emit) = true];
  optional int64 observedGeneration = 3;
  optional Time lastTransitionTime = 4 [(emit) = true];
  optional string reason = 5 [(emit) = true];
  optional string message = 6 [(emit) = true];
}

message Status {
  optional ListMeta metadata = 1 [(emit) = true];
  optional string status = 2;
  optional string message = 3;
  optional string reason = 4;
  optional StatusDetails details = 5;
  optional int32 code = 6;
}

message StatusDetails {
  optional string name = 1;
  optional string group = 2;
  optional string kind = 3;
  repeated StatusCause causes = 4;
  optional int32 retryAfterSeconds = 5;
  optional string uid = 6;
}

message StatusCause {
  optional string reason = 1;
  optional string message = 2;
  optional string field = 3;
}

message DeleteOptions {
  optional int64 gracePeriodSeconds = 1 [(ptr) = true];
  optional Preconditions preconditions = 2;
  optional bool orphanDependents = 3 [(ptr) = true];
  optional string propagationPolicy = 4 [(ptr) = true];
  repeated string dryRun = 5;
  optional bool ignoreStoreReadErrorWithClusterBreakingPotential = 6 [(ptr) = true];
}

message Preconditions {
  optional string uid = 1 [(ptr) = true];
  optional string resourceVersion = 2 [(ptr) = true];
}

// One event of a protobuf watch stream; object.raw holds the object encoded
// with the full framing (magic + Unknown).
message WatchEvent {
  optional string type = 1 [(emit) = true];
  optional .k8s.io.apimachinery.pkg.runtime.RawExtension object = 2 [(emit) = true];
}
`;

export const CORE_V1_PROTO = `
syntax = "proto2";
package k8s.io.api.core.v1;

// ---- Namespace ----

message Namespace {
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1 [(emit) = true];
  optional NamespaceSpec spec = 2 [(emit) = true];
  optional NamespaceStatus status = 3 [(emit) = true];
}

message NamespaceSpec {
  repeated string finalizers = 1;
}

message NamespaceStatus {
  optional string phase = 1;
  repeated NamespaceCondition conditions = 2;
}

message NamespaceCondition {
  optional string type = 1 [(emit) = true];
  optional string status = 2 [(emit) = true];
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.Time lastTransitionTime = 4 [(emit) = true];
  optional string reason = 5;
  optional string message = 6;
}

message NamespaceList {
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1 [(emit) = true];
  repeated Namespace items = 2 [(emit) = true];
}

// ---- PersistentVolumeClaim ----

message PersistentVolumeClaim {
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1 [(emit) = true];
  optional PersistentVolumeClaimSpec spec = 2 [(emit) = true];
  optional PersistentVolumeClaimStatus status = 3 [(emit) = true];
}

message PersistentVolumeClaimSpec {
  repeated string accessModes = 1;
  optional VolumeResourceRequirements resources = 2 [(emit) = true];
  optional string volumeName = 3;
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector selector = 4;
  optional string storageClassName = 5 [(ptr) = true];
  optional string volumeMode = 6 [(ptr) = true];
  optional TypedLocalObjectReference dataSource = 7;
  optional TypedObjectReference dataSourceRef = 8;
  optional string volumeAttributesClassName = 9 [(ptr) = true];
}

message PersistentVolumeClaimStatus {
  optional string phase = 1;
  repeated string accessModes = 2;
  map<string, .k8s.io.apimachinery.pkg.api.resource.Quantity> capacity = 3;
  repeated PersistentVolumeClaimCondition conditions = 4;
  map<string, .k8s.io.apimachinery.pkg.api.resource.Quantity> allocatedResources = 5;
  map<string, string> allocatedResourceStatuses = 7;
  optional string currentVolumeAttributesClassName = 8 [(ptr) = true];
  optional ModifyVolumeStatus modifyVolumeStatus = 9;
}

message PersistentVolumeClaimCondition {
  optional string type = 1 [(emit) = true];
  optional string status = 2 [(emit) = true];
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.Time lastProbeTime = 3 [(emit) = true];
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.Time lastTransitionTime = 4 [(emit) = true];
  optional string reason = 5;
  optional string message = 6;
}

message ModifyVolumeStatus {
  optional string targetVolumeAttributesClassName = 1;
  optional string status = 2 [(emit) = true];
}

message PersistentVolumeClaimList {
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1 [(emit) = true];
  repeated PersistentVolumeClaim items = 2 [(emit) = true];
}

message PersistentVolumeClaimTemplate {
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1 [(emit) = true];
  optional PersistentVolumeClaimSpec spec = 2 [(emit) = true];
}

message VolumeResourceRequirements {
  map<string, .k8s.io.apimachinery.pkg.api.resource.Quantity> limits = 1;
  map<string, .k8s.io.apimachinery.pkg.api.resource.Quantity> requests = 2;
}

message TypedLocalObjectReference {
  optional string apiGroup = 1 [(ptr) = true];
  optional string kind = 2 [(emit) = true];
  optional string name = 3 [(emit) = true];
}

message TypedObjectReference {
  optional string apiGroup = 1 [(ptr) = true];
  optional string kind = 2 [(emit) = true];
  optional string name = 3 [(emit) = true];
  optional string namespace = 4 [(ptr) = true];
}

// ---- PodTemplateSpec / PodSpec ----

message PodTemplateSpec {
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1 [(emit) = true];
  optional PodSpec spec = 2 [(emit) = true];
}

message PodSpec {
  repeated Volume volumes = 1;
  repeated Container containers = 2;
  optional string restartPolicy = 3;
  optional int64 terminationGracePeriodSeconds = 4 [(ptr) = true];
  optional int64 activeDeadlineSeconds = 5 [(ptr) = true];
  optional string dnsPolicy = 6;
  map<string, string> nodeSelector = 7;
  optional string serviceAccountName = 8;
  optional string serviceAccount = 9;
  optional string nodeName = 10;
  optional bool hostNetwork = 11;
  optional bool hostPID = 12;
  optional bool hostIPC = 13;
  optional PodSecurityContext securityContext = 14;
  repeated LocalObjectReference imagePullSecrets = 15;
  optional string hostname = 16;
  optional string subdomain = 17;
  optional Affinity affinity = 18;
  optional string schedulerName = 19;
  repeated Container initContainers = 20;
  optional bool automountServiceAccountToken = 21 [(ptr) = true];
  repeated Toleration tolerations = 22;
  repeated HostAlias hostAliases = 23;
  optional string priorityClassName = 24;
  optional int32 priority = 25 [(ptr) = true];
  optional PodDNSConfig dnsConfig = 26;
  optional bool shareProcessNamespace = 27 [(ptr) = true];
  repeated PodReadinessGate readinessGates = 28;
  optional string runtimeClassName = 29 [(ptr) = true];
  optional bool enableServiceLinks = 30 [(ptr) = true];
  optional string preemptionPolicy = 31 [(ptr) = true];
  map<string, .k8s.io.apimachinery.pkg.api.resource.Quantity> overhead = 32;
  repeated TopologySpreadConstraint topologySpreadConstraints = 33;
  repeated EphemeralContainer ephemeralContainers = 34;
  optional bool setHostnameAsFQDN = 35 [(ptr) = true];
  optional PodOS os = 36;
  optional bool hostUsers = 37 [(ptr) = true];
  repeated PodSchedulingGate schedulingGates = 38;
  repeated PodResourceClaim resourceClaims = 39;
  optional ResourceRequirements resources = 40;
}

message PodSecurityContext {
  optional SELinuxOptions seLinuxOptions = 1;
  optional int64 runAsUser = 2 [(ptr) = true];
  optional bool runAsNonRoot = 3 [(ptr) = true];
  repeated int64 supplementalGroups = 4;
  optional int64 fsGroup = 5 [(ptr) = true];
  optional int64 runAsGroup = 6 [(ptr) = true];
  repeated Sysctl sysctls = 7;
  optional WindowsSecurityContextOptions windowsOptions = 8;
  optional string fsGroupChangePolicy = 9 [(ptr) = true];
  optional SeccompProfile seccompProfile = 10;
  optional AppArmorProfile appArmorProfile = 11;
  optional string supplementalGroupsPolicy = 12 [(ptr) = true];
  optional string seLinuxChangePolicy = 13 [(ptr) = true];
}

message SecurityContext {
  optional Capabilities capabilities = 1;
  optional bool privileged = 2 [(ptr) = true];
  optional SELinuxOptions seLinuxOptions = 3;
  optional int64 runAsUser = 4 [(ptr) = true];
  optional bool runAsNonRoot = 5 [(ptr) = true];
  optional bool readOnlyRootFilesystem = 6 [(ptr) = true];
  optional bool allowPrivilegeEscalation = 7 [(ptr) = true];
  optional int64 runAsGroup = 8 [(ptr) = true];
  optional string procMount = 9 [(ptr) = true];
  optional WindowsSecurityContextOptions windowsOptions = 10;
  optional SeccompProfile seccompProfile = 11;
  optional AppArmorProfile appArmorProfile = 12;
}

message Capabilities {
  repeated string add = 1;
  repeated string drop = 2;
}

message SELinuxOptions {
  optional string user = 1;
  optional string role = 2;
  optional string type = 3;
  optional string level = 4;
}

message WindowsSecurityContextOptions {
  optional string gmsaCredentialSpecName = 1 [(ptr) = true];
  optional string gmsaCredentialSpec = 2 [(ptr) = true];
  optional string runAsUserName = 3 [(ptr) = true];
  optional bool hostProcess = 4 [(ptr) = true];
}

message SeccompProfile {
  optional string type = 1 [(emit) = true];
  optional string localhostProfile = 2 [(ptr) = true];
}

message AppArmorProfile {
  optional string type = 1 [(emit) = true];
  optional string localhostProfile = 2 [(ptr) = true];
}

message Sysctl {
  optional string name = 1 [(emit) = true];
  optional string value = 2 [(emit) = true];
}

message LocalObjectReference {
  optional string name = 1;
}

message Toleration {
  optional string key = 1;
  optional string operator = 2;
  optional string value = 3;
  optional string effect = 4;
  optional int64 tolerationSeconds = 5 [(ptr) = true];
}

message HostAlias {
  optional string ip = 1 [(emit) = true];
  repeated string hostnames = 2;
}

message PodDNSConfig {
  repeated string nameservers = 1;
  repeated string searches = 2;
  repeated PodDNSConfigOption options = 3;
}

message PodDNSConfigOption {
  optional string name = 1;
  optional string value = 2 [(ptr) = true];
}

message PodReadinessGate {
  optional string conditionType = 1 [(emit) = true];
}

message PodOS {
  optional string name = 1 [(emit) = true];
}

message PodSchedulingGate {
  optional string name = 1 [(emit) = true];
}

message PodResourceClaim {
  optional string name = 1 [(emit) = true];
  optional string resourceClaimName = 3 [(ptr) = true];
  optional string resourceClaimTemplateName = 4 [(ptr) = true];
}

message TopologySpreadConstraint {
  optional int32 maxSkew = 1 [(emit) = true];
  optional string topologyKey = 2 [(emit) = true];
  optional string whenUnsatisfiable = 3 [(emit) = true];
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector labelSelector = 4;
  optional int32 minDomains = 5 [(ptr) = true];
  optional string nodeAffinityPolicy = 6 [(ptr) = true];
  optional string nodeTaintsPolicy = 7 [(ptr) = true];
  repeated string matchLabelKeys = 8;
}

// ---- Affinity ----

message Affinity {
  optional NodeAffinity nodeAffinity = 1;
  optional PodAffinity podAffinity = 2;
  optional PodAntiAffinity podAntiAffinity = 3;
}

message NodeAffinity {
  optional NodeSelector requiredDuringSchedulingIgnoredDuringExecution = 1;
  repeated PreferredSchedulingTerm preferredDuringSchedulingIgnoredDuringExecution = 2;
}

message NodeSelector {
  repeated NodeSelectorTerm nodeSelectorTerms = 1;
}

message NodeSelectorTerm {
  repeated NodeSelectorRequirement matchExpressions = 1;
  repeated NodeSelectorRequirement matchFields = 2;
}

message NodeSelectorRequirement {
  optional string key = 1 [(emit) = true];
  optional string operator = 2 [(emit) = true];
  repeated string values = 3;
}

message PreferredSchedulingTerm {
  optional int32 weight = 1 [(emit) = true];
  optional NodeSelectorTerm preference = 2 [(emit) = true];
}

message PodAffinity {
  repeated PodAffinityTerm requiredDuringSchedulingIgnoredDuringExecution = 1;
  repeated WeightedPodAffinityTerm preferredDuringSchedulingIgnoredDuringExecution = 2;
}

message PodAntiAffinity {
  repeated PodAffinityTerm requiredDuringSchedulingIgnoredDuringExecution = 1;
  repeated WeightedPodAffinityTerm preferredDuringSchedulingIgnoredDuringExecution = 2;
}

message PodAffinityTerm {
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector labelSelector = 1;
  repeated string namespaces = 2;
  optional string topologyKey = 3 [(emit) = true];
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector namespaceSelector = 4;
  repeated string matchLabelKeys = 5;
  repeated string mismatchLabelKeys = 6;
}

message WeightedPodAffinityTerm {
  optional int32 weight = 1 [(emit) = true];
  optional PodAffinityTerm podAffinityTerm = 2 [(emit) = true];
}

// ---- Containers ----

message Container {
  optional string name = 1 [(emit) = true];
  optional string image = 2;
  repeated string command = 3;
  repeated string args = 4;
  optional string workingDir = 5;
  repeated ContainerPort ports = 6;
  repeated EnvVar env = 7;
  optional ResourceRequirements resources = 8 [(emit) = true];
  repeated VolumeMount volumeMounts = 9;
  optional Probe livenessProbe = 10;
  optional Probe readinessProbe = 11;
  optional Lifecycle lifecycle = 12;
  optional string terminationMessagePath = 13;
  optional string imagePullPolicy = 14;
  optional SecurityContext securityContext = 15;
  optional bool stdin = 16;
  optional bool stdinOnce = 17;
  optional bool tty = 18;
  repeated EnvFromSource envFrom = 19;
  optional string terminationMessagePolicy = 20;
  repeated VolumeDevice volumeDevices = 21;
  optional Probe startupProbe = 22;
  repeated ContainerResizePolicy resizePolicy = 23;
  optional string restartPolicy = 24 [(ptr) = true];
}

// Same fields and numbers as Container (kube keeps them in sync).
message EphemeralContainerCommon {
  optional string name = 1 [(emit) = true];
  optional string image = 2;
  repeated string command = 3;
  repeated string args = 4;
  optional string workingDir = 5;
  repeated ContainerPort ports = 6;
  repeated EnvVar env = 7;
  optional ResourceRequirements resources = 8 [(emit) = true];
  repeated VolumeMount volumeMounts = 9;
  optional Probe livenessProbe = 10;
  optional Probe readinessProbe = 11;
  optional Lifecycle lifecycle = 12;
  optional string terminationMessagePath = 13;
  optional string imagePullPolicy = 14;
  optional SecurityContext securityContext = 15;
  optional bool stdin = 16;
  optional bool stdinOnce = 17;
  optional bool tty = 18;
  repeated EnvFromSource envFrom = 19;
  optional string terminationMessagePolicy = 20;
  repeated VolumeDevice volumeDevices = 21;
  optional Probe startupProbe = 22;
  repeated ContainerResizePolicy resizePolicy = 23;
  optional string restartPolicy = 24 [(ptr) = true];
}

message EphemeralContainer {
  optional EphemeralContainerCommon ephemeralContainerCommon = 1 [(inline) = true];
  optional string targetContainerName = 2;
}

message ContainerPort {
  optional string name = 1;
  optional int32 hostPort = 2;
  optional int32 containerPort = 3 [(emit) = true];
  optional string protocol = 4;
  optional string hostIP = 5;
}

message ContainerResizePolicy {
  optional string resourceName = 1 [(emit) = true];
  optional string restartPolicy = 2 [(emit) = true];
}

message EnvVar {
  optional string name = 1 [(emit) = true];
  optional string value = 2;
  optional EnvVarSource valueFrom = 3;
}

message EnvVarSource {
  optional ObjectFieldSelector fieldRef = 1;
  optional ResourceFieldSelector resourceFieldRef = 2;
  optional ConfigMapKeySelector configMapKeyRef = 3;
  optional SecretKeySelector secretKeyRef = 4;
}

message ObjectFieldSelector {
  optional string apiVersion = 1;
  optional string fieldPath = 2 [(emit) = true];
}

message ResourceFieldSelector {
  optional string containerName = 1;
  optional string resource = 2 [(emit) = true];
  optional .k8s.io.apimachinery.pkg.api.resource.Quantity divisor = 3 [(emit) = true];
}

message ConfigMapKeySelector {
  optional LocalObjectReference localObjectReference = 1 [(inline) = true];
  optional string key = 2 [(emit) = true];
  optional bool optional = 3 [(ptr) = true];
}

message SecretKeySelector {
  optional LocalObjectReference localObjectReference = 1 [(inline) = true];
  optional string key = 2 [(emit) = true];
  optional bool optional = 3 [(ptr) = true];
}

message EnvFromSource {
  optional string prefix = 1;
  optional ConfigMapEnvSource configMapRef = 2;
  optional SecretEnvSource secretRef = 3;
}

message ConfigMapEnvSource {
  optional LocalObjectReference localObjectReference = 1 [(inline) = true];
  optional bool optional = 2 [(ptr) = true];
}

message SecretEnvSource {
  optional LocalObjectReference localObjectReference = 1 [(inline) = true];
  optional bool optional = 2 [(ptr) = true];
}

message ResourceRequirements {
  map<string, .k8s.io.apimachinery.pkg.api.resource.Quantity> limits = 1;
  map<string, .k8s.io.apimachinery.pkg.api.resource.Quantity> requests = 2;
  repeated ResourceClaim claims = 3;
}

message ResourceClaim {
  optional string name = 1 [(emit) = true];
  optional string request = 2;
}

message VolumeMount {
  optional string name = 1 [(emit) = true];
  optional bool readOnly = 2;
  optional string mountPath = 3 [(emit) = true];
  optional string subPath = 4;
  optional string mountPropagation = 5 [(ptr) = true];
  optional string subPathExpr = 6;
  optional string recursiveReadOnly = 7 [(ptr) = true];
}

message VolumeDevice {
  optional string name = 1 [(emit) = true];
  optional string devicePath = 2 [(emit) = true];
}

message Probe {
  optional ProbeHandler handler = 1 [(inline) = true];
  optional int32 initialDelaySeconds = 2;
  optional int32 timeoutSeconds = 3;
  optional int32 periodSeconds = 4;
  optional int32 successThreshold = 5;
  optional int32 failureThreshold = 6;
  optional int64 terminationGracePeriodSeconds = 7 [(ptr) = true];
}

message ProbeHandler {
  optional ExecAction exec = 1;
  optional HTTPGetAction httpGet = 2;
  optional TCPSocketAction tcpSocket = 3;
  optional GRPCAction grpc = 4;
}

message Lifecycle {
  optional LifecycleHandler postStart = 1;
  optional LifecycleHandler preStop = 2;
  optional string stopSignal = 3 [(ptr) = true];
}

message LifecycleHandler {
  optional ExecAction exec = 1;
  optional HTTPGetAction httpGet = 2;
  optional TCPSocketAction tcpSocket = 3;
  optional SleepAction sleep = 4;
}

message ExecAction {
  repeated string command = 1;
}

message HTTPGetAction {
  optional string path = 1;
  optional .k8s.io.apimachinery.pkg.util.intstr.IntOrString port = 2 [(emit) = true];
  optional string host = 3;
  optional string scheme = 4;
  repeated HTTPHeader httpHeaders = 5;
}

message HTTPHeader {
  optional string name = 1 [(emit) = true];
  optional string value = 2 [(emit) = true];
}

message TCPSocketAction {
  optional .k8s.io.apimachinery.pkg.util.intstr.IntOrString port = 1 [(emit) = true];
  optional string host = 2;
}

message GRPCAction {
  optional int32 port = 1 [(emit) = true];
  optional string service = 2 [(ptr) = true];
}

message SleepAction {
  optional int64 seconds = 1 [(emit) = true];
}

// ---- Volumes ----

message Volume {
  optional string name = 1 [(emit) = true];
  optional VolumeSource volumeSource = 2 [(inline) = true];
}

message VolumeSource {
  optional HostPathVolumeSource hostPath = 1;
  optional EmptyDirVolumeSource emptyDir = 2;
  optional GCEPersistentDiskVolumeSource gcePersistentDisk = 3;
  optional AWSElasticBlockStoreVolumeSource awsElasticBlockStore = 4;
  optional GitRepoVolumeSource gitRepo = 5;
  optional SecretVolumeSource secret = 6;
  optional NFSVolumeSource nfs = 7;
  optional ISCSIVolumeSource iscsi = 8;
  optional GlusterfsVolumeSource glusterfs = 9;
  optional PersistentVolumeClaimVolumeSource persistentVolumeClaim = 10;
  optional RBDVolumeSource rbd = 11;
  optional FlexVolumeSource flexVolume = 12;
  optional CinderVolumeSource cinder = 13;
  optional CephFSVolumeSource cephfs = 14;
  optional FlockerVolumeSource flocker = 15;
  optional DownwardAPIVolumeSource downwardAPI = 16;
  optional FCVolumeSource fc = 17;
  optional AzureFileVolumeSource azureFile = 18;
  optional ConfigMapVolumeSource configMap = 19;
  optional VsphereVirtualDiskVolumeSource vsphereVolume = 20;
  optional QuobyteVolumeSource quobyte = 21;
  optional AzureDiskVolumeSource azureDisk = 22;
  optional PhotonPersistentDiskVolumeSource photonPersistentDisk = 23;
  optional PortworxVolumeSource portworxVolume = 24;
  optional ScaleIOVolumeSource scaleIO = 25;
  optional ProjectedVolumeSource projected = 26;
  optional StorageOSVolumeSource storageos = 27;
  optional CSIVolumeSource csi = 28;
  optional EphemeralVolumeSource ephemeral = 29;
  optional ImageVolumeSource image = 30;
}

message HostPathVolumeSource {
  optional string path = 1 [(emit) = true];
  optional string type = 2 [(ptr) = true];
}

message EmptyDirVolumeSource {
  optional string medium = 1;
  optional .k8s.io.apimachinery.pkg.api.resource.Quantity sizeLimit = 2;
}

message SecretVolumeSource {
  optional string secretName = 1;
  repeated KeyToPath items = 2;
  optional int32 defaultMode = 3 [(ptr) = true];
  optional bool optional = 4 [(ptr) = true];
}

message ConfigMapVolumeSource {
  optional LocalObjectReference localObjectReference = 1 [(inline) = true];
  repeated KeyToPath items = 2;
  optional int32 defaultMode = 3 [(ptr) = true];
  optional bool optional = 4 [(ptr) = true];
}

message KeyToPath {
  optional string key = 1 [(emit) = true];
  optional string path = 2 [(emit) = true];
  optional int32 mode = 3 [(ptr) = true];
}

message PersistentVolumeClaimVolumeSource {
  optional string claimName = 1 [(emit) = true];
  optional bool readOnly = 2;
}

message NFSVolumeSource {
  optional string server = 1 [(emit) = true];
  optional string path = 2 [(emit) = true];
  optional bool readOnly = 3;
}

message DownwardAPIVolumeSource {
  repeated DownwardAPIVolumeFile items = 1;
  optional int32 defaultMode = 2 [(ptr) = true];
}

message DownwardAPIVolumeFile {
  optional string path = 1 [(emit) = true];
  optional ObjectFieldSelector fieldRef = 2;
  optional ResourceFieldSelector resourceFieldRef = 3;
  optional int32 mode = 4 [(ptr) = true];
}

message ProjectedVolumeSource {
  repeated VolumeProjection sources = 1;
  optional int32 defaultMode = 2 [(ptr) = true];
}

message VolumeProjection {
  optional SecretProjection secret = 1;
  optional DownwardAPIProjection downwardAPI = 2;
  optional ConfigMapProjection configMap = 3;
  optional ServiceAccountTokenProjection serviceAccountToken = 4;
  optional ClusterTrustBundleProjection clusterTrustBundle = 5;
}

message SecretProjection {
  optional LocalObjectReference localObjectReference = 1 [(inline) = true];
  repeated KeyToPath items = 2;
  optional bool optional = 4 [(ptr) = true];
}

message ConfigMapProjection {
  optional LocalObjectReference localObjectReference = 1 [(inline) = true];
  repeated KeyToPath items = 2;
  optional bool optional = 4 [(ptr) = true];
}

message DownwardAPIProjection {
  repeated DownwardAPIVolumeFile items = 1;
}

message ServiceAccountTokenProjection {
  optional string audience = 1;
  optional int64 expirationSeconds = 2 [(ptr) = true];
  optional string path = 3 [(emit) = true];
}

message ClusterTrustBundleProjection {
  optional string name = 1 [(ptr) = true];
  optional string signerName = 2 [(ptr) = true];
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector labelSelector = 3;
  optional string path = 4 [(emit) = true];
  optional bool optional = 5 [(ptr) = true];
}

message CSIVolumeSource {
  optional string driver = 1 [(emit) = true];
  optional bool readOnly = 2 [(ptr) = true];
  optional string fsType = 3 [(ptr) = true];
  map<string, string> volumeAttributes = 4;
  optional LocalObjectReference nodePublishSecretRef = 5;
}

message EphemeralVolumeSource {
  optional PersistentVolumeClaimTemplate volumeClaimTemplate = 1;
}

message ImageVolumeSource {
  optional string reference = 1;
  optional string pullPolicy = 2;
}

// In-tree (mostly deprecated) volume plugins.

message GCEPersistentDiskVolumeSource {
  optional string pdName = 1 [(emit) = true];
  optional string fsType = 2;
  optional int32 partition = 3;
  optional bool readOnly = 4;
}

message AWSElasticBlockStoreVolumeSource {
  optional string volumeID = 1 [(emit) = true];
  optional string fsType = 2;
  optional int32 partition = 3;
  optional bool readOnly = 4;
}

message GitRepoVolumeSource {
  optional string repository = 1 [(emit) = true];
  optional string revision = 2;
  optional string directory = 3;
}

message ISCSIVolumeSource {
  optional string targetPortal = 1 [(emit) = true];
  optional string iqn = 2 [(emit) = true];
  optional int32 lun = 3 [(emit) = true];
  optional string iscsiInterface = 4;
  optional string fsType = 5;
  optional bool readOnly = 6;
  repeated string portals = 7;
  optional bool chapAuthDiscovery = 8;
  optional LocalObjectReference secretRef = 10;
  optional bool chapAuthSession = 11;
  optional string initiatorName = 12 [(ptr) = true];
}

message GlusterfsVolumeSource {
  optional string endpoints = 1 [(emit) = true];
  optional string path = 2 [(emit) = true];
  optional bool readOnly = 3;
}

message RBDVolumeSource {
  repeated string monitors = 1;
  optional string image = 2 [(emit) = true];
  optional string fsType = 3;
  optional string pool = 4;
  optional string user = 5;
  optional string keyring = 6;
  optional LocalObjectReference secretRef = 7;
  optional bool readOnly = 8;
}

message FlexVolumeSource {
  optional string driver = 1 [(emit) = true];
  optional string fsType = 2;
  optional LocalObjectReference secretRef = 3;
  optional bool readOnly = 4;
  map<string, string> options = 5;
}

message CinderVolumeSource {
  optional string volumeID = 1 [(emit) = true];
  optional string fsType = 2;
  optional bool readOnly = 3;
  optional LocalObjectReference secretRef = 4;
}

message CephFSVolumeSource {
  repeated string monitors = 1;
  optional string path = 2;
  optional string user = 3;
  optional string secretFile = 4;
  optional LocalObjectReference secretRef = 5;
  optional bool readOnly = 6;
}

message FlockerVolumeSource {
  optional string datasetName = 1;
  optional string datasetUUID = 2;
}

message FCVolumeSource {
  repeated string targetWWNs = 1;
  optional int32 lun = 2 [(ptr) = true];
  optional string fsType = 3;
  optional bool readOnly = 4;
  repeated string wwids = 5;
}

message AzureFileVolumeSource {
  optional string secretName = 1 [(emit) = true];
  optional string shareName = 2 [(emit) = true];
  optional bool readOnly = 3;
}

message VsphereVirtualDiskVolumeSource {
  optional string volumePath = 1 [(emit) = true];
  optional string fsType = 2;
  optional string storagePolicyName = 3;
  optional string storagePolicyID = 4;
}

message QuobyteVolumeSource {
  optional string registry = 1 [(emit) = true];
  optional string volume = 2 [(emit) = true];
  optional bool readOnly = 3;
  optional string user = 4;
  optional string group = 5;
  optional string tenant = 6;
}

message AzureDiskVolumeSource {
  optional string diskName = 1 [(emit) = true];
  optional string diskURI = 2 [(emit) = true];
  optional string cachingMode = 3 [(ptr) = true];
  optional string fsType = 4 [(ptr) = true];
  optional bool readOnly = 5 [(ptr) = true];
  optional string kind = 6 [(ptr) = true];
}

message PhotonPersistentDiskVolumeSource {
  optional string pdID = 1 [(emit) = true];
  optional string fsType = 2;
}

message PortworxVolumeSource {
  optional string volumeID = 1 [(emit) = true];
  optional string fsType = 2;
  optional bool readOnly = 3;
}

message ScaleIOVolumeSource {
  optional string gateway = 1 [(emit) = true];
  optional string system = 2 [(emit) = true];
  optional LocalObjectReference secretRef = 3;
  optional bool sslEnabled = 4;
  optional string protectionDomain = 5;
  optional string storagePool = 6;
  optional string storageMode = 7;
  optional string volumeName = 8;
  optional string fsType = 9;
  optional bool readOnly = 10;
}

message StorageOSVolumeSource {
  optional string volumeName = 1;
  optional string volumeNamespace = 2;
  optional string fsType = 3;
  optional bool readOnly = 4;
  optional LocalObjectReference secretRef = 5;
}
`;

export const SCHEDULING_V1_PROTO = `
syntax = "proto2";
package k8s.io.api.scheduling.v1;

message PriorityClass {
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1 [(emit) = true];
  optional int32 value = 2 [(emit) = true];
  optional bool globalDefault = 3;
  optional string description = 4;
  optional string preemptionPolicy = 5 [(ptr) = true];
}

message PriorityClassList {
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1 [(emit) = true];
  repeated PriorityClass items = 2 [(emit) = true];
}
`;

export const POLICY_V1_PROTO = `
syntax = "proto2";
package k8s.io.api.policy.v1;

message PodDisruptionBudget {
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1 [(emit) = true];
  optional PodDisruptionBudgetSpec spec = 2 [(emit) = true];
  optional PodDisruptionBudgetStatus status = 3 [(emit) = true];
}

message PodDisruptionBudgetSpec {
  optional .k8s.io.apimachinery.pkg.util.intstr.IntOrString minAvailable = 1;
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector selector = 2;
  optional .k8s.io.apimachinery.pkg.util.intstr.IntOrString maxUnavailable = 3;
  optional string unhealthyPodEvictionPolicy = 4 [(ptr) = true];
}

message PodDisruptionBudgetStatus {
  optional int64 observedGeneration = 1;
  map<string, .k8s.io.apimachinery.pkg.apis.meta.v1.Time> disruptedPods = 2;
  optional int32 disruptionsAllowed = 3 [(emit) = true];
  optional int32 currentHealthy = 4 [(emit) = true];
  optional int32 desiredHealthy = 5 [(emit) = true];
  optional int32 expectedPods = 6 [(emit) = true];
  repeated .k8s.io.apimachinery.pkg.apis.meta.v1.Condition conditions = 7;
}

message PodDisruptionBudgetList {
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1 [(emit) = true];
  repeated PodDisruptionBudget items = 2 [(emit) = true];
}
`;

export const APPS_V1_PROTO = `
syntax = "proto2";
package k8s.io.api.apps.v1;

message StatefulSet {
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1 [(emit) = true];
  optional StatefulSetSpec spec = 2 [(emit) = true];
  optional StatefulSetStatus status = 3 [(emit) = true];
}

message StatefulSetSpec {
  optional int32 replicas = 1 [(ptr) = true];
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector selector = 2;
  optional .k8s.io.api.core.v1.PodTemplateSpec template = 3 [(emit) = true];
  repeated .k8s.io.api.core.v1.PersistentVolumeClaim volumeClaimTemplates = 4;
  optional string serviceName = 5 [(emit) = true];
  optional string podManagementPolicy = 6;
  optional StatefulSetUpdateStrategy updateStrategy = 7 [(emit) = true];
  optional int32 revisionHistoryLimit = 8 [(ptr) = true];
  optional int32 minReadySeconds = 9;
  optional StatefulSetPersistentVolumeClaimRetentionPolicy persistentVolumeClaimRetentionPolicy = 10;
  optional StatefulSetOrdinals ordinals = 11;
}

message StatefulSetUpdateStrategy {
  optional string type = 1;
  optional RollingUpdateStatefulSetStrategy rollingUpdate = 2;
}

message RollingUpdateStatefulSetStrategy {
  optional int32 partition = 1 [(ptr) = true];
  optional .k8s.io.apimachinery.pkg.util.intstr.IntOrString maxUnavailable = 2;
}

message StatefulSetPersistentVolumeClaimRetentionPolicy {
  optional string whenDeleted = 1;
  optional string whenScaled = 2;
}

message StatefulSetOrdinals {
  optional int32 start = 1 [(emit) = true];
}

message StatefulSetStatus {
  optional int64 observedGeneration = 1;
  optional int32 replicas = 2 [(emit) = true];
  optional int32 readyReplicas = 3;
  optional int32 currentReplicas = 4;
  optional int32 updatedReplicas = 5;
  optional string currentRevision = 6;
  optional string updateRevision = 7;
  optional int32 collisionCount = 9 [(ptr) = true];
  repeated StatefulSetCondition conditions = 10;
  optional int32 availableReplicas = 11 [(emit) = true];
}

message StatefulSetCondition {
  optional string type = 1 [(emit) = true];
  optional string status = 2 [(emit) = true];
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.Time lastTransitionTime = 3 [(emit) = true];
  optional string reason = 4;
  optional string message = 5;
}

message StatefulSetList {
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1 [(emit) = true];
  repeated StatefulSet items = 2 [(emit) = true];
}
`;

export const PROTO_SOURCES: readonly string[] = [
  RUNTIME_PROTO,
  INTSTR_PROTO,
  RESOURCE_PROTO,
  META_V1_PROTO,
  CORE_V1_PROTO,
  SCHEDULING_V1_PROTO,
  POLICY_V1_PROTO,
  APPS_V1_PROTO,
];

/** Package names, for building fully qualified message names. */
export const PKG = {
  runtime: 'k8s.io.apimachinery.pkg.runtime',
  intstr: 'k8s.io.apimachinery.pkg.util.intstr',
  resource: 'k8s.io.apimachinery.pkg.api.resource',
  meta: 'k8s.io.apimachinery.pkg.apis.meta.v1',
  core: 'k8s.io.api.core.v1',
  scheduling: 'k8s.io.api.scheduling.v1',
  policy: 'k8s.io.api.policy.v1',
  apps: 'k8s.io.api.apps.v1',
} as const;

/**
 * Top-level kinds: (apiVersion, kind) -> fully qualified message name.
 * Status and DeleteOptions are meta/v1 kinds that kube serves/accepts under
 * every group version; they are resolved separately (see index.ts).
 */
export const KINDS: ReadonlyArray<{ apiVersion: string; kind: string; message: string }> = [
  { apiVersion: 'v1', kind: 'Namespace', message: `${PKG.core}.Namespace` },
  { apiVersion: 'v1', kind: 'NamespaceList', message: `${PKG.core}.NamespaceList` },
  { apiVersion: 'v1', kind: 'PersistentVolumeClaim', message: `${PKG.core}.PersistentVolumeClaim` },
  { apiVersion: 'v1', kind: 'PersistentVolumeClaimList', message: `${PKG.core}.PersistentVolumeClaimList` },
  { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', message: `${PKG.scheduling}.PriorityClass` },
  { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClassList', message: `${PKG.scheduling}.PriorityClassList` },
  { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', message: `${PKG.policy}.PodDisruptionBudget` },
  { apiVersion: 'policy/v1', kind: 'PodDisruptionBudgetList', message: `${PKG.policy}.PodDisruptionBudgetList` },
  { apiVersion: 'apps/v1', kind: 'StatefulSet', message: `${PKG.apps}.StatefulSet` },
  { apiVersion: 'apps/v1', kind: 'StatefulSetList', message: `${PKG.apps}.StatefulSetList` },
];
