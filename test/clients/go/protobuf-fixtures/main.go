// Generates test/fixtures/protobuf-go-fixtures.json: kube objects encoded by the real Go protobuf
// serializer and JSON encoder (k8s.io/api v0.33.0), for kapi's codec tests, which check that
// kapi decodes each body to the JSON and encodes the JSON to the same bytes:
//
//	cd test/clients/go/protobuf-fixtures && go run . > ../../../fixtures/protobuf-go-fixtures.json
//
// Every served kind (and its List) has at least one fixture; nulls are left out of the JSON
// (kube's JSON writes zero Times and nil slices as null; kapi omits them). "watch" holds a
// protobuf watch stream (length-prefixed WatchEvents) written by kube's stream encoder.
// `go run . decode < lines-of-base64` decodes bodies with the Go serializer and
// prints Go's JSON, to check kapi's encoder output against Go.
package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	eventsv1 "k8s.io/api/events/v1"
	networkingv1 "k8s.io/api/networking/v1"
	schedv1 "k8s.io/api/scheduling/v1"
	storagev1 "k8s.io/api/storage/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	pbser "k8s.io/apimachinery/pkg/runtime/serializer/protobuf"
	"k8s.io/apimachinery/pkg/runtime/serializer/streaming"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/framer"
	"k8s.io/apimachinery/pkg/util/intstr"
)

func p[T any](v T) *T { return &v }

var t1 = metav1.NewTime(time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC))
var t2 = metav1.NewTime(time.Date(2025, 6, 7, 8, 9, 10, 0, time.UTC))

func scheme() *runtime.Scheme {
	s := runtime.NewScheme()
	corev1.AddToScheme(s)
	appsv1.AddToScheme(s)
	autoscalingv1.AddToScheme(s)
	policyv1.AddToScheme(s)
	schedv1.AddToScheme(s)
	coordinationv1.AddToScheme(s)
	eventsv1.AddToScheme(s)
	networkingv1.AddToScheme(s)
	storagev1.AddToScheme(s)
	metav1.AddToGroupVersion(s, schema.GroupVersion{Version: "v1"})
	s.AddUnversionedTypes(schema.GroupVersion{Version: "v1"}, &metav1.Status{})
	return s
}

func fullMeta(name, ns string) metav1.ObjectMeta {
	return metav1.ObjectMeta{
		Name: name, GenerateName: name + "-", Namespace: ns, SelfLink: "/x", UID: "11111111-2222-3333-4444-555555555555",
		ResourceVersion: "42", Generation: 3, CreationTimestamp: t1, DeletionTimestamp: &t2, DeletionGracePeriodSeconds: p(int64(0)),
		Labels: map[string]string{"app": "x", "tier": "db"}, Annotations: map[string]string{"a/b": "c", "empty": ""},
		OwnerReferences: []metav1.OwnerReference{
			{APIVersion: "apps/v1", Kind: "StatefulSet", Name: "o", UID: "u1", Controller: p(true), BlockOwnerDeletion: p(false)},
			{APIVersion: "v1", Kind: "ConfigMap", Name: "o2", UID: "u2"},
		},
		Finalizers: []string{"kubernetes", "example.com/f"},
		ManagedFields: []metav1.ManagedFieldsEntry{
			{Manager: "kubectl-create", Operation: metav1.ManagedFieldsOperationUpdate, APIVersion: "v1", Time: &t1, FieldsType: "FieldsV1",
				FieldsV1: &metav1.FieldsV1{Raw: []byte(`{"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:spec":{}}`)}},
			{Manager: "ctrl", Operation: metav1.ManagedFieldsOperationApply, APIVersion: "v1", FieldsType: "FieldsV1",
				FieldsV1: &metav1.FieldsV1{Raw: []byte(`{"f:status":{"f:phase":{}}}`)}, Subresource: "status"},
		},
	}
}

func podTemplate() corev1.PodTemplateSpec {
	probe := corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/healthz", Port: intstr.FromString("http"), Scheme: corev1.URISchemeHTTP,
		HTTPHeaders: []corev1.HTTPHeader{{Name: "X-A", Value: ""}}}}, InitialDelaySeconds: 5, PeriodSeconds: 10, TimeoutSeconds: 1, SuccessThreshold: 1, FailureThreshold: 3,
		TerminationGracePeriodSeconds: p(int64(0))}
	c := corev1.Container{
		Name: "main", Image: "nginx:1.27", Command: []string{"/bin/sh", "-c"}, Args: []string{"exec nginx", ""}, WorkingDir: "/w",
		Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 80, Protocol: corev1.ProtocolTCP}, {ContainerPort: 0, HostPort: 8443, HostIP: "0.0.0.0", Protocol: corev1.ProtocolUDP}},
		EnvFrom: []corev1.EnvFromSource{{Prefix: "P_", ConfigMapRef: &corev1.ConfigMapEnvSource{LocalObjectReference: corev1.LocalObjectReference{Name: "cm"}, Optional: p(false)}},
			{SecretRef: &corev1.SecretEnvSource{LocalObjectReference: corev1.LocalObjectReference{Name: "sec"}}}},
		Env: []corev1.EnvVar{{Name: "A", Value: "1"}, {Name: "EMPTY"},
			{Name: "POD", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.name"}}},
			{Name: "MEM", ValueFrom: &corev1.EnvVarSource{ResourceFieldRef: &corev1.ResourceFieldSelector{ContainerName: "main", Resource: "limits.memory", Divisor: resource.MustParse("1Mi")}}},
			{Name: "CPU", ValueFrom: &corev1.EnvVarSource{ResourceFieldRef: &corev1.ResourceFieldSelector{Resource: "requests.cpu"}}},
			{Name: "CMK", ValueFrom: &corev1.EnvVarSource{ConfigMapKeyRef: &corev1.ConfigMapKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "cm"}, Key: "k", Optional: p(true)}}},
			{Name: "SK", ValueFrom: &corev1.EnvVarSource{SecretKeyRef: &corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "sec"}, Key: "password"}}}},
		Resources: corev1.ResourceRequirements{Limits: corev1.ResourceList{"cpu": resource.MustParse("500m"), "memory": resource.MustParse("1Gi")},
			Requests: corev1.ResourceList{"cpu": resource.MustParse("0.1"), "memory": resource.MustParse("128Mi"), "example.com/gpu": resource.MustParse("1")},
			Claims:   []corev1.ResourceClaim{{Name: "gpu", Request: "r1"}}},
		ResizePolicy:           []corev1.ContainerResizePolicy{{ResourceName: "cpu", RestartPolicy: corev1.NotRequired}},
		VolumeMounts:           []corev1.VolumeMount{{Name: "data", MountPath: "/data"}, {Name: "cfg", MountPath: "/cfg", ReadOnly: true, SubPath: "x", MountPropagation: p(corev1.MountPropagationHostToContainer), RecursiveReadOnly: p(corev1.RecursiveReadOnlyDisabled)}},
		VolumeDevices:          []corev1.VolumeDevice{{Name: "blk", DevicePath: "/dev/xvda"}},
		LivenessProbe:          &probe,
		ReadinessProbe:         &corev1.Probe{ProbeHandler: corev1.ProbeHandler{TCPSocket: &corev1.TCPSocketAction{Port: intstr.FromInt32(80)}}},
		StartupProbe:           &corev1.Probe{ProbeHandler: corev1.ProbeHandler{Exec: &corev1.ExecAction{Command: []string{"true"}}}},
		Lifecycle:              &corev1.Lifecycle{PostStart: &corev1.LifecycleHandler{Exec: &corev1.ExecAction{Command: []string{"echo"}}}, PreStop: &corev1.LifecycleHandler{Sleep: &corev1.SleepAction{Seconds: 5}}, StopSignal: p(corev1.SIGTERM)},
		TerminationMessagePath: "/dev/termination-log", TerminationMessagePolicy: corev1.TerminationMessageReadFile, ImagePullPolicy: corev1.PullIfNotPresent,
		SecurityContext: &corev1.SecurityContext{Capabilities: &corev1.Capabilities{Add: []corev1.Capability{"NET_ADMIN"}, Drop: []corev1.Capability{"ALL"}}, Privileged: p(false),
			RunAsUser: p(int64(1000)), RunAsGroup: p(int64(0)), RunAsNonRoot: p(true), ReadOnlyRootFilesystem: p(true), AllowPrivilegeEscalation: p(false),
			ProcMount: p(corev1.DefaultProcMount), SeccompProfile: &corev1.SeccompProfile{Type: corev1.SeccompProfileTypeRuntimeDefault},
			AppArmorProfile: &corev1.AppArmorProfile{Type: corev1.AppArmorProfileTypeLocalhost, LocalhostProfile: p("prof")},
			SELinuxOptions:  &corev1.SELinuxOptions{Level: "s0:c1"}, WindowsOptions: &corev1.WindowsSecurityContextOptions{HostProcess: p(false)}},
		Stdin: true, TTY: true,
	}
	side := corev1.Container{Name: "init", Image: "busybox", RestartPolicy: p(corev1.ContainerRestartPolicyAlways),
		ReadinessProbe: &corev1.Probe{ProbeHandler: corev1.ProbeHandler{GRPC: &corev1.GRPCAction{Port: 9000, Service: p("")}}}}
	return corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "x"}, Annotations: map[string]string{"kubectl.kubernetes.io/restartedAt": "2024-01-01T00:00:00Z"}},
		Spec: corev1.PodSpec{
			Volumes: []corev1.Volume{
				{Name: "scratch", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}},
				{Name: "mem", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{Medium: corev1.StorageMediumMemory, SizeLimit: p(resource.MustParse("64Mi"))}}},
				{Name: "cfg", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{LocalObjectReference: corev1.LocalObjectReference{Name: "cm"},
					Items: []corev1.KeyToPath{{Key: "a", Path: "a.txt", Mode: p(int32(0o400))}}, DefaultMode: p(int32(420)), Optional: p(false)}}},
				{Name: "sec", VolumeSource: corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{SecretName: "sec", DefaultMode: p(int32(0))}}},
				{Name: "claim", VolumeSource: corev1.VolumeSource{PersistentVolumeClaim: &corev1.PersistentVolumeClaimVolumeSource{ClaimName: "c", ReadOnly: true}}},
				{Name: "host", VolumeSource: corev1.VolumeSource{HostPath: &corev1.HostPathVolumeSource{Path: "/var/log", Type: p(corev1.HostPathUnset)}}},
				{Name: "nfs", VolumeSource: corev1.VolumeSource{NFS: &corev1.NFSVolumeSource{Server: "nfs.example", Path: "/export"}}},
				{Name: "dapi", VolumeSource: corev1.VolumeSource{DownwardAPI: &corev1.DownwardAPIVolumeSource{Items: []corev1.DownwardAPIVolumeFile{
					{Path: "labels", FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.labels"}},
					{Path: "cpu", ResourceFieldRef: &corev1.ResourceFieldSelector{ContainerName: "main", Resource: "limits.cpu", Divisor: resource.MustParse("1m")}}}}}},
				{Name: "proj", VolumeSource: corev1.VolumeSource{Projected: &corev1.ProjectedVolumeSource{DefaultMode: p(int32(420)), Sources: []corev1.VolumeProjection{
					{ServiceAccountToken: &corev1.ServiceAccountTokenProjection{Path: "token", ExpirationSeconds: p(int64(3607))}},
					{ConfigMap: &corev1.ConfigMapProjection{LocalObjectReference: corev1.LocalObjectReference{Name: "kube-root-ca.crt"}, Items: []corev1.KeyToPath{{Key: "ca.crt", Path: "ca.crt"}}}},
					{DownwardAPI: &corev1.DownwardAPIProjection{Items: []corev1.DownwardAPIVolumeFile{{Path: "namespace", FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.namespace"}}}}},
					{Secret: &corev1.SecretProjection{LocalObjectReference: corev1.LocalObjectReference{Name: "s"}, Optional: p(true)}},
					{ClusterTrustBundle: &corev1.ClusterTrustBundleProjection{SignerName: p("example.com/s"), LabelSelector: &metav1.LabelSelector{}, Path: "b.pem"}}}}}},
				{Name: "csi", VolumeSource: corev1.VolumeSource{CSI: &corev1.CSIVolumeSource{Driver: "csi.example", ReadOnly: p(true), VolumeAttributes: map[string]string{"k": "v"}, NodePublishSecretRef: &corev1.LocalObjectReference{Name: "n"}}}},
				{Name: "eph", VolumeSource: corev1.VolumeSource{Ephemeral: &corev1.EphemeralVolumeSource{VolumeClaimTemplate: &corev1.PersistentVolumeClaimTemplate{
					ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"e": "1"}},
					Spec:       corev1.PersistentVolumeClaimSpec{AccessModes: []corev1.PersistentVolumeAccessMode{"ReadWriteOnce"}, Resources: corev1.VolumeResourceRequirements{Requests: corev1.ResourceList{"storage": resource.MustParse("1Gi")}}}}}}},
				{Name: "img", VolumeSource: corev1.VolumeSource{Image: &corev1.ImageVolumeSource{Reference: "quay.io/x:1", PullPolicy: corev1.PullAlways}}},
				{Name: "gce", VolumeSource: corev1.VolumeSource{GCEPersistentDisk: &corev1.GCEPersistentDiskVolumeSource{PDName: "pd", FSType: "ext4", Partition: 1}}},
				{Name: "azd", VolumeSource: corev1.VolumeSource{AzureDisk: &corev1.AzureDiskVolumeSource{DiskName: "d", DataDiskURI: "u", ReadOnly: p(false)}}},
				{Name: "iscsi", VolumeSource: corev1.VolumeSource{ISCSI: &corev1.ISCSIVolumeSource{TargetPortal: "t:3260", IQN: "iqn", Lun: 0, Portals: []string{"a"}, SessionCHAPAuth: true, SecretRef: &corev1.LocalObjectReference{Name: "chap"}}}},
				{Name: "fc", VolumeSource: corev1.VolumeSource{FC: &corev1.FCVolumeSource{Lun: p(int32(0)), WWIDs: []string{"w"}}}},
			},
			InitContainers:                []corev1.Container{side},
			Containers:                    []corev1.Container{c, {Name: "second", Image: "redis"}},
			EphemeralContainers:           []corev1.EphemeralContainer{{EphemeralContainerCommon: corev1.EphemeralContainerCommon{Name: "dbg", Image: "busybox", Stdin: true}, TargetContainerName: "main"}},
			RestartPolicy:                 corev1.RestartPolicyAlways,
			TerminationGracePeriodSeconds: p(int64(30)),
			ActiveDeadlineSeconds:         p(int64(0)),
			DNSPolicy:                     corev1.DNSClusterFirst,
			NodeSelector:                  map[string]string{"kubernetes.io/os": "linux"},
			ServiceAccountName:            "sa",
			DeprecatedServiceAccount:      "sa",
			AutomountServiceAccountToken:  p(false),
			NodeName:                      "",
			HostNetwork:                   false,
			HostPID:                       true,
			ShareProcessNamespace:         p(false),
			SecurityContext: &corev1.PodSecurityContext{RunAsUser: p(int64(0)), RunAsNonRoot: p(false), FSGroup: p(int64(2000)), SupplementalGroups: []int64{1, 2, 3},
				SupplementalGroupsPolicy: p(corev1.SupplementalGroupsPolicyMerge), Sysctls: []corev1.Sysctl{{Name: "net.core.somaxconn", Value: "1024"}},
				FSGroupChangePolicy: p(corev1.FSGroupChangeOnRootMismatch), SeccompProfile: &corev1.SeccompProfile{Type: corev1.SeccompProfileTypeLocalhost, LocalhostProfile: p("p.json")},
				SELinuxChangePolicy: p(corev1.SELinuxChangePolicyRecursive), SELinuxOptions: &corev1.SELinuxOptions{User: "u", Role: "r", Type: "t", Level: "l"}},
			ImagePullSecrets: []corev1.LocalObjectReference{{Name: "regcred"}, {}},
			Hostname:         "h", Subdomain: "svc",
			Affinity: &corev1.Affinity{
				NodeAffinity: &corev1.NodeAffinity{
					RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchExpressions: []corev1.NodeSelectorRequirement{{Key: "zone", Operator: corev1.NodeSelectorOpIn, Values: []string{"a", "b"}}},
						MatchFields: []corev1.NodeSelectorRequirement{{Key: "metadata.name", Operator: corev1.NodeSelectorOpNotIn, Values: []string{"n1"}}}}}},
					PreferredDuringSchedulingIgnoredDuringExecution: []corev1.PreferredSchedulingTerm{{Weight: 10, Preference: corev1.NodeSelectorTerm{MatchExpressions: []corev1.NodeSelectorRequirement{{Key: "ssd", Operator: corev1.NodeSelectorOpExists}}}}, {Weight: 1}},
				},
				PodAffinity: &corev1.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{{LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "cache"}}, TopologyKey: "kubernetes.io/hostname",
					Namespaces: []string{"a"}, NamespaceSelector: &metav1.LabelSelector{}, MatchLabelKeys: []string{"pod-template-hash"}}}},
				PodAntiAffinity: &corev1.PodAntiAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []corev1.WeightedPodAffinityTerm{{Weight: 100, PodAffinityTerm: corev1.PodAffinityTerm{TopologyKey: "zone",
					LabelSelector: &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "app", Operator: metav1.LabelSelectorOpIn, Values: []string{"x"}}}}, MismatchLabelKeys: []string{"m"}}}}},
			},
			SchedulerName: "default-scheduler",
			Tolerations: []corev1.Toleration{{Key: "node.kubernetes.io/not-ready", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: p(int64(300))},
				{Operator: corev1.TolerationOpExists}, {Key: "k", Operator: corev1.TolerationOpEqual, Value: "v", Effect: corev1.TaintEffectNoSchedule, TolerationSeconds: p(int64(0))}},
			HostAliases:       []corev1.HostAlias{{IP: "127.0.0.1", Hostnames: []string{"foo.local", "bar.local"}}},
			PriorityClassName: "high", Priority: p(int32(0)),
			DNSConfig:        &corev1.PodDNSConfig{Nameservers: []string{"1.1.1.1"}, Searches: []string{"ns.svc"}, Options: []corev1.PodDNSConfigOption{{Name: "ndots", Value: p("2")}, {Name: "edns0"}}},
			ReadinessGates:   []corev1.PodReadinessGate{{ConditionType: "example.com/ready"}},
			RuntimeClassName: p("gvisor"), EnableServiceLinks: p(false), PreemptionPolicy: p(corev1.PreemptNever),
			Overhead: corev1.ResourceList{"cpu": resource.MustParse("250m")},
			TopologySpreadConstraints: []corev1.TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: "zone", WhenUnsatisfiable: corev1.DoNotSchedule,
				LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "x"}}, MinDomains: p(int32(2)), NodeAffinityPolicy: p(corev1.NodeInclusionPolicyHonor),
				NodeTaintsPolicy: p(corev1.NodeInclusionPolicyIgnore), MatchLabelKeys: []string{"pod-template-hash"}}},
			SetHostnameAsFQDN: p(true), OS: &corev1.PodOS{Name: corev1.Linux}, HostUsers: p(false),
			SchedulingGates: []corev1.PodSchedulingGate{{Name: "example.com/gate"}},
			ResourceClaims:  []corev1.PodResourceClaim{{Name: "gpu", ResourceClaimTemplateName: p("gpu-tpl")}},
			Resources:       &corev1.ResourceRequirements{Limits: corev1.ResourceList{"memory": resource.MustParse("2Gi")}},
		},
	}
}

var t0 = metav1.NewTime(time.Date(1969, 7, 20, 20, 17, 40, 0, time.UTC))

func podStatus() corev1.PodStatus {
	cs := corev1.ContainerStatus{Name: "main", State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: t1}},
		LastTerminationState: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: -1, Signal: 9, Reason: "OOMKilled", Message: "m", StartedAt: t0, FinishedAt: t1, ContainerID: "containerd://a"}},
		Ready:                true, RestartCount: 2, Image: "nginx:1.27", ImageID: "sha256:abc", ContainerID: "containerd://b", Started: p(true),
		AllocatedResources:       corev1.ResourceList{"cpu": resource.MustParse("500m"), "memory": resource.MustParse("1Gi")},
		Resources:                &corev1.ResourceRequirements{Limits: corev1.ResourceList{"cpu": resource.MustParse("1")}},
		VolumeMounts:             []corev1.VolumeMountStatus{{Name: "data", MountPath: "/data", ReadOnly: true, RecursiveReadOnly: p(corev1.RecursiveReadOnlyDisabled)}},
		User:                     &corev1.ContainerUser{Linux: &corev1.LinuxContainerUser{UID: 1000, GID: 0, SupplementalGroups: []int64{4, 5}}},
		AllocatedResourcesStatus: []corev1.ResourceStatus{{Name: "claim:gpu", Resources: []corev1.ResourceHealth{{ResourceID: "dev-1", Health: corev1.ResourceHealthStatusHealthy}}}},
		StopSignal:               p(corev1.SIGTERM)}
	return corev1.PodStatus{
		ObservedGeneration: 9007199254740991, Phase: corev1.PodRunning,
		Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue, ObservedGeneration: 1, LastProbeTime: t2, LastTransitionTime: t1, Reason: "r", Message: "m"},
			{Type: corev1.PodScheduled, Status: corev1.ConditionTrue}},
		Message: "msg", Reason: "reason", NominatedNodeName: "node-2", HostIP: "10.0.0.1", HostIPs: []corev1.HostIP{{IP: "10.0.0.1"}, {IP: "fd00::1"}},
		PodIP: "10.1.0.5", PodIPs: []corev1.PodIP{{IP: "10.1.0.5"}}, StartTime: &t0,
		InitContainerStatuses:      []corev1.ContainerStatus{{Name: "init", State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 0, Reason: "Completed"}}, Image: "busybox", ImageID: ""}},
		ContainerStatuses:          []corev1.ContainerStatus{cs, {Name: "second", State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "ImagePullBackOff", Message: "back-off"}}, Image: "redis"}},
		QOSClass:                   corev1.PodQOSGuaranteed,
		EphemeralContainerStatuses: []corev1.ContainerStatus{{Name: "dbg", Image: "busybox", Started: p(false)}},
		Resize:                     corev1.PodResizeStatusInProgress,
		ResourceClaimStatuses:      []corev1.PodResourceClaimStatus{{Name: "gpu", ResourceClaimName: p("gpu-abc")}, {Name: "none"}},
	}
}

func objects() map[string]runtime.Object {
	ns := &corev1.Namespace{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Namespace"}, ObjectMeta: fullMeta("team-a", ""),
		Spec:   corev1.NamespaceSpec{Finalizers: []corev1.FinalizerName{"kubernetes"}},
		Status: corev1.NamespaceStatus{Phase: corev1.NamespaceTerminating, Conditions: []corev1.NamespaceCondition{{Type: corev1.NamespaceDeletionContentFailure, Status: corev1.ConditionFalse, LastTransitionTime: t2, Reason: "ContentDeleted", Message: "All content successfully deleted"}, {Type: "X", Status: corev1.ConditionUnknown}}}}
	nsl := &corev1.NamespaceList{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "NamespaceList"}, ListMeta: metav1.ListMeta{ResourceVersion: "100", Continue: "tok", RemainingItemCount: p(int64(0))},
		Items: []corev1.Namespace{{ObjectMeta: metav1.ObjectMeta{Name: "default", UID: "u", ResourceVersion: "1", CreationTimestamp: t1, Labels: map[string]string{"kubernetes.io/metadata.name": "default"}},
			Spec: corev1.NamespaceSpec{Finalizers: []corev1.FinalizerName{"kubernetes"}}, Status: corev1.NamespaceStatus{Phase: corev1.NamespaceActive}}, {ObjectMeta: metav1.ObjectMeta{Name: "b"}}}}
	pc := &schedv1.PriorityClass{TypeMeta: metav1.TypeMeta{APIVersion: "scheduling.k8s.io/v1", Kind: "PriorityClass"}, ObjectMeta: metav1.ObjectMeta{Name: "zero", CreationTimestamp: t1}, Value: 0, GlobalDefault: true, Description: "", PreemptionPolicy: p(corev1.PreemptLowerPriority)}
	pcl := &schedv1.PriorityClassList{TypeMeta: metav1.TypeMeta{APIVersion: "scheduling.k8s.io/v1", Kind: "PriorityClassList"}, ListMeta: metav1.ListMeta{ResourceVersion: "7"}, Items: []schedv1.PriorityClass{}}
	pcl2 := &schedv1.PriorityClassList{TypeMeta: metav1.TypeMeta{APIVersion: "scheduling.k8s.io/v1", Kind: "PriorityClassList"}, Items: []schedv1.PriorityClass{{ObjectMeta: metav1.ObjectMeta{Name: "system-node-critical"}, Value: 2000001000, Description: "Used for system critical pods that must not be moved from their current node."}, {ObjectMeta: metav1.ObjectMeta{Name: "neg"}, Value: -5}}}
	pdb := &policyv1.PodDisruptionBudget{TypeMeta: metav1.TypeMeta{APIVersion: "policy/v1", Kind: "PodDisruptionBudget"}, ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "default", Generation: 2},
		Spec: policyv1.PodDisruptionBudgetSpec{MaxUnavailable: p(intstr.FromString("25%")), Selector: &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "app", Operator: metav1.LabelSelectorOpNotIn, Values: []string{"a", "b"}}, {Key: "tier", Operator: metav1.LabelSelectorOpExists}}},
			UnhealthyPodEvictionPolicy: p(policyv1.AlwaysAllow)},
		Status: policyv1.PodDisruptionBudgetStatus{ObservedGeneration: 2, DisruptedPods: map[string]metav1.Time{"pod-1": t1}, DisruptionsAllowed: 1, CurrentHealthy: 3, DesiredHealthy: 2, ExpectedPods: 3,
			Conditions: []metav1.Condition{{Type: "DisruptionAllowed", Status: metav1.ConditionTrue, ObservedGeneration: 2, LastTransitionTime: t2, Reason: "SufficientPods", Message: ""}}}}
	pdb0 := &policyv1.PodDisruptionBudget{TypeMeta: metav1.TypeMeta{APIVersion: "policy/v1", Kind: "PodDisruptionBudget"}, ObjectMeta: metav1.ObjectMeta{Name: "zero", Namespace: "default"},
		Spec: policyv1.PodDisruptionBudgetSpec{MinAvailable: p(intstr.FromInt32(0)), Selector: &metav1.LabelSelector{}}}
	pdbl := &policyv1.PodDisruptionBudgetList{TypeMeta: metav1.TypeMeta{APIVersion: "policy/v1", Kind: "PodDisruptionBudgetList"}, Items: []policyv1.PodDisruptionBudget{*pdb0}}
	pdbl.Items[0].TypeMeta = metav1.TypeMeta{}
	pvcSpec := corev1.PersistentVolumeClaimSpec{AccessModes: []corev1.PersistentVolumeAccessMode{"ReadWriteOnce", "ReadOnlyMany"}, Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"disk": "ssd"}},
		Resources:  corev1.VolumeResourceRequirements{Requests: corev1.ResourceList{"storage": resource.MustParse("10Gi")}, Limits: corev1.ResourceList{"storage": resource.MustParse("20Gi")}},
		VolumeName: "pv-1", StorageClassName: p(""), VolumeMode: p(corev1.PersistentVolumeFilesystem),
		DataSource:                &corev1.TypedLocalObjectReference{APIGroup: p("snapshot.storage.k8s.io"), Kind: "VolumeSnapshot", Name: "snap"},
		DataSourceRef:             &corev1.TypedObjectReference{APIGroup: p("snapshot.storage.k8s.io"), Kind: "VolumeSnapshot", Name: "snap", Namespace: p("other")},
		VolumeAttributesClassName: p("gold")}
	pvc := &corev1.PersistentVolumeClaim{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "PersistentVolumeClaim"}, ObjectMeta: metav1.ObjectMeta{Name: "data-0", Namespace: "default"}, Spec: pvcSpec,
		Status: corev1.PersistentVolumeClaimStatus{Phase: corev1.ClaimBound, AccessModes: []corev1.PersistentVolumeAccessMode{"ReadWriteOnce"}, Capacity: corev1.ResourceList{"storage": resource.MustParse("10Gi")},
			Conditions:                       []corev1.PersistentVolumeClaimCondition{{Type: corev1.PersistentVolumeClaimResizing, Status: corev1.ConditionTrue, LastProbeTime: t1, LastTransitionTime: t2, Reason: "r", Message: "m"}},
			AllocatedResources:               corev1.ResourceList{"storage": resource.MustParse("10Gi")},
			AllocatedResourceStatuses:        map[corev1.ResourceName]corev1.ClaimResourceStatus{"storage": corev1.PersistentVolumeClaimControllerResizeInProgress},
			CurrentVolumeAttributesClassName: p("silver"), ModifyVolumeStatus: &corev1.ModifyVolumeStatus{TargetVolumeAttributesClassName: "gold", Status: corev1.PersistentVolumeClaimModifyVolumeInProgress}}}
	sts := &appsv1.StatefulSet{TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: "StatefulSet"}, ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "prod", UID: "s-uid", Generation: 1, CreationTimestamp: t1, Labels: map[string]string{"app": "x"}},
		Spec: appsv1.StatefulSetSpec{Replicas: p(int32(0)), Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "x"}}, Template: podTemplate(),
			VolumeClaimTemplates: []corev1.PersistentVolumeClaim{{ObjectMeta: metav1.ObjectMeta{Name: "data"}, Spec: corev1.PersistentVolumeClaimSpec{AccessModes: []corev1.PersistentVolumeAccessMode{"ReadWriteOnce"},
				Resources: corev1.VolumeResourceRequirements{Requests: corev1.ResourceList{"storage": resource.MustParse("1Gi")}}, StorageClassName: p("standard"), VolumeMode: p(corev1.PersistentVolumeBlock)}}},
			ServiceName: "web", PodManagementPolicy: appsv1.ParallelPodManagement,
			UpdateStrategy:       appsv1.StatefulSetUpdateStrategy{Type: appsv1.RollingUpdateStatefulSetStrategyType, RollingUpdate: &appsv1.RollingUpdateStatefulSetStrategy{Partition: p(int32(0)), MaxUnavailable: p(intstr.FromInt32(1))}},
			RevisionHistoryLimit: p(int32(10)), MinReadySeconds: 3,
			PersistentVolumeClaimRetentionPolicy: &appsv1.StatefulSetPersistentVolumeClaimRetentionPolicy{WhenDeleted: appsv1.RetainPersistentVolumeClaimRetentionPolicyType, WhenScaled: appsv1.DeletePersistentVolumeClaimRetentionPolicyType},
			Ordinals:                             &appsv1.StatefulSetOrdinals{Start: 0}},
		Status: appsv1.StatefulSetStatus{ObservedGeneration: 1, Replicas: 2, ReadyReplicas: 1, CurrentReplicas: 2, UpdatedReplicas: 2, CurrentRevision: "web-abc", UpdateRevision: "web-abc", CollisionCount: p(int32(0)),
			Conditions: []appsv1.StatefulSetCondition{{Type: "Progressing", Status: corev1.ConditionTrue, LastTransitionTime: t2, Reason: "r"}}, AvailableReplicas: 0}}
	sts0 := &appsv1.StatefulSet{ObjectMeta: metav1.ObjectMeta{Name: "min"}, Spec: appsv1.StatefulSetSpec{Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "i"}}}}}}
	stsl := &appsv1.StatefulSetList{TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: "StatefulSetList"}, ListMeta: metav1.ListMeta{ResourceVersion: "9"}, Items: []appsv1.StatefulSet{*sts0}}
	st := &metav1.Status{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Status"}, Status: metav1.StatusFailure, Message: `namespaces "x" not found`, Reason: metav1.StatusReasonNotFound,
		Details: &metav1.StatusDetails{Name: "x", Kind: "namespaces", Causes: []metav1.StatusCause{{Type: metav1.CauseTypeFieldValueRequired, Message: "Required value", Field: "spec.x"}, {Type: "other"}}, RetryAfterSeconds: 0}, Code: 404}
	st2 := &metav1.Status{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Status"}, ListMeta: metav1.ListMeta{ResourceVersion: "5"}, Status: metav1.StatusSuccess,
		Details: &metav1.StatusDetails{Name: "p", Group: "apps", Kind: "statefulsets", UID: "u", RetryAfterSeconds: 3}}
	do := &metav1.DeleteOptions{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "DeleteOptions"}, GracePeriodSeconds: p(int64(0)), Preconditions: &metav1.Preconditions{UID: p(types.UID("u")), ResourceVersion: p("")},
		OrphanDependents: p(false), PropagationPolicy: p(metav1.DeletePropagationForeground), DryRun: []string{"All"}}
	do2 := &metav1.DeleteOptions{TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: "DeleteOptions"}}
	pod := &corev1.Pod{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"}, ObjectMeta: fullMeta("web-0", "prod"), Spec: podTemplate().Spec, Status: podStatus()}
	pod.Spec.NodeName = "node-1"
	pod.Spec.HostNetwork = true
	pod.Spec.HostIPC = true
	pod.Generation = 1 << 40
	// Map keys in Go's byte order: UTF-16 order differs for the supplementary plane.
	pod.Annotations = map[string]string{"b": "2", "a": "1", "\u00e9t\u00e9": "\u2713", "\U0001F600": "smile", "\uFFFD": "replacement", "A": "", "a/b": "\x00"}
	podMin := &corev1.Pod{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"}, ObjectMeta: metav1.ObjectMeta{Name: "min", Namespace: "default"},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "i"}}}}
	podl := &corev1.PodList{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "PodList"}, ListMeta: metav1.ListMeta{ResourceVersion: "77", Continue: "next", RemainingItemCount: p(int64(12))},
		Items: []corev1.Pod{{ObjectMeta: metav1.ObjectMeta{Name: "a", Namespace: "default", CreationTimestamp: t1}, Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "i",
			Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{"cpu": resource.MustParse("100m")}}}}}, Status: corev1.PodStatus{Phase: corev1.PodPending, QOSClass: corev1.PodQOSBurstable}},
			{ObjectMeta: metav1.ObjectMeta{Name: "b", Namespace: "default"}}}}
	pvcl := &corev1.PersistentVolumeClaimList{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "PersistentVolumeClaimList"}, ListMeta: metav1.ListMeta{ResourceVersion: "8"},
		Items: []corev1.PersistentVolumeClaim{{ObjectMeta: metav1.ObjectMeta{Name: "data-web-0", Namespace: "prod", Labels: map[string]string{"app": "web"}}, Spec: corev1.PersistentVolumeClaimSpec{
			AccessModes: []corev1.PersistentVolumeAccessMode{"ReadWriteOnce"}, Resources: corev1.VolumeResourceRequirements{Requests: corev1.ResourceList{"storage": resource.MustParse("1Gi")}}}, Status: corev1.PersistentVolumeClaimStatus{Phase: corev1.ClaimPending}}}}
	crData := `{"spec":{"template":{"$patch":"replace","metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"c","image":"nginx:1.27","command":["sh","-c","a && b"]}]}}}}`
	cr := &appsv1.ControllerRevision{TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: "ControllerRevision"}, ObjectMeta: metav1.ObjectMeta{Name: "web-7b9c5d", Namespace: "prod", UID: "cr-uid",
		ResourceVersion: "31", CreationTimestamp: t1, Labels: map[string]string{"controller.kubernetes.io/hash": "7b9c5d", "app": "web"},
		OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "StatefulSet", Name: "web", UID: "s-uid", Controller: p(true), BlockOwnerDeletion: p(true)}}},
		Data: runtime.RawExtension{Raw: []byte(crData)}, Revision: 3}
	cr0 := &appsv1.ControllerRevision{TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: "ControllerRevision"}, ObjectMeta: metav1.ObjectMeta{Name: "empty", Namespace: "prod"}, Revision: 0}
	crl := &appsv1.ControllerRevisionList{TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: "ControllerRevisionList"}, ListMeta: metav1.ListMeta{ResourceVersion: "40"},
		Items: []appsv1.ControllerRevision{{ObjectMeta: metav1.ObjectMeta{Name: "web-1", Namespace: "prod"}, Data: runtime.RawExtension{Raw: []byte(`{"a":[1,2.5,"x",null,true]}`)}, Revision: 1},
			{ObjectMeta: metav1.ObjectMeta{Name: "web-2", Namespace: "prod"}, Revision: -2}}}
	scale := &autoscalingv1.Scale{TypeMeta: metav1.TypeMeta{APIVersion: "autoscaling/v1", Kind: "Scale"}, ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "prod", UID: "s-uid", ResourceVersion: "12", CreationTimestamp: t1},
		Spec: autoscalingv1.ScaleSpec{Replicas: 3}, Status: autoscalingv1.ScaleStatus{Replicas: 2, Selector: "app=web"}}
	scale0 := &autoscalingv1.Scale{TypeMeta: metav1.TypeMeta{APIVersion: "autoscaling/v1", Kind: "Scale"}, ObjectMeta: metav1.ObjectMeta{Name: "zero", Namespace: "prod"}}
	micro := metav1.NewMicroTime(time.Date(2025, 6, 7, 8, 9, 10, 123456000, time.UTC))
	lease := &coordinationv1.Lease{TypeMeta: metav1.TypeMeta{APIVersion: "coordination.k8s.io/v1", Kind: "Lease"},
		ObjectMeta: metav1.ObjectMeta{Name: "kube-controller-manager", Namespace: "kube-system", ResourceVersion: "15", CreationTimestamp: t1},
		Spec: coordinationv1.LeaseSpec{HolderIdentity: p("node-1_0f8fad5b"), LeaseDurationSeconds: p(int32(15)), AcquireTime: &micro, RenewTime: &micro,
			LeaseTransitions: p(int32(0)), Strategy: p(coordinationv1.OldestEmulationVersion), PreferredHolder: p("")}}
	leasel := &coordinationv1.LeaseList{TypeMeta: metav1.TypeMeta{APIVersion: "coordination.k8s.io/v1", Kind: "LeaseList"}, ListMeta: metav1.ListMeta{ResourceVersion: "16"},
		Items: []coordinationv1.Lease{{ObjectMeta: metav1.ObjectMeta{Name: "apiserver-abc", Namespace: "kube-system", Labels: map[string]string{"apiserver.kubernetes.io/identity": "kube-apiserver"}},
			Spec: coordinationv1.LeaseSpec{HolderIdentity: p("apiserver-abc_1"), LeaseDurationSeconds: p(int32(3600)), RenewTime: &micro}}, {ObjectMeta: metav1.ObjectMeta{Name: "empty", Namespace: "default"}}}}
	bookmark := &appsv1.StatefulSet{TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: "StatefulSet"},
		ObjectMeta: metav1.ObjectMeta{ResourceVersion: "1234", Annotations: map[string]string{"k8s.io/initial-events-end": "true"}}}
	out := map[string]runtime.Object{"pod": pod, "podMinimal": podMin, "podList": podl, "pvcList": pvcl, "controllerRevision": cr, "controllerRevisionEmpty": cr0,
		"controllerRevisionList": crl, "scale": scale, "scaleZero": scale0, "bookmark": bookmark, "lease": lease, "leaseList": leasel,
		"namespace": ns, "namespaceList": nsl, "priorityClass": pc, "priorityClassListEmpty": pcl, "priorityClassList": pcl2, "pdb": pdb, "pdbList": pdbl,
		"pvc": pvc, "statefulSet": sts, "statefulSetList": stsl, "statusFailure": st, "statusSuccess": st2, "deleteOptions": do, "deleteOptionsApps": do2}
	for k, v := range workflowObjects() {
		out[k] = v
	}
	return out
}

func main() {
	s := scheme()
	ser := pbser.NewSerializer(s, s)
	if len(os.Args) > 1 && os.Args[1] == "watch" {
		// stdin: a protobuf watch stream (length-delimited WatchEvents); prints one JSON line per event
		raw := pbser.NewRawSerializer(s, s)
		fr := framer.NewLengthDelimitedFrameReader(io.NopCloser(os.Stdin))
		dec := streaming.NewDecoder(fr, raw)
		for {
			var ev metav1.WatchEvent
			_, _, err := dec.Decode(nil, &ev)
			if err == io.EOF {
				return
			}
			if err != nil {
				fmt.Printf("{\"error\":%q}\n", err.Error())
				return
			}
			obj, _, err := ser.Decode(ev.Object.Raw, nil, nil)
			if err != nil {
				fmt.Printf("{\"error\":%q}\n", err.Error())
				return
			}
			j, _ := json.Marshal(map[string]interface{}{"type": ev.Type, "object": obj})
			fmt.Println(string(j))
		}
	}
	if len(os.Args) > 1 && os.Args[1] == "decode" {
		// stdin: base64 lines; prints JSON per line
		data, _ := io.ReadAll(os.Stdin)
		for _, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
			raw, err := base64.StdEncoding.DecodeString(string(line))
			if err != nil {
				fmt.Println(`{"error":"b64"}`)
				continue
			}
			obj, gvk, err := ser.Decode(raw, nil, nil)
			if err != nil {
				fmt.Printf("{\"error\":%q}\n", err.Error())
				continue
			}
			obj.GetObjectKind().SetGroupVersionKind(*gvk)
			j, _ := json.Marshal(obj)
			fmt.Println(string(j))
		}
		return
	}
	objs := objects()
	names := make([]string, 0, len(objs))
	for name := range objs {
		names = append(names, name)
	}
	sort.Strings(names)
	var out bytes.Buffer
	out.WriteString("{\n \"_comment\": \"Generated by test/clients/go/protobuf-fixtures (Go, k8s.io/api v0.33.0): pb = kube protobuf serializer output (base64), json = encoding/json output with nulls removed; watch = a protobuf watch stream (base64) of the events listed.\",\n \"fixtures\": {")
	for i, name := range names {
		var buf bytes.Buffer
		if err := ser.Encode(objs[name], &buf); err != nil {
			panic(fmt.Sprint(name, err))
		}
		j, err := json.Marshal(objs[name])
		if err != nil {
			panic(fmt.Sprint(name, err))
		}
		var ind bytes.Buffer
		if err := json.Indent(&ind, stripNulls(j), "   ", " "); err != nil {
			panic(fmt.Sprint(name, err))
		}
		if i > 0 {
			out.WriteString(",")
		}
		fmt.Fprintf(&out, "\n  %q: {\n   \"pb\": %q,\n   \"json\": %s\n  }", name, base64.StdEncoding.EncodeToString(buf.Bytes()), ind.String())
	}
	// A watch stream as kube-apiserver writes one: each event is a WatchEvent whose object is a
	// full body (magic + Unknown), written by the raw serializer behind a length prefix.
	events := []struct{ Type, Fixture string }{{"ADDED", "pod"}, {"MODIFIED", "statefulSet"}, {"DELETED", "controllerRevision"}, {"BOOKMARK", "bookmark"}, {"ERROR", "statusFailure"}}
	raw := pbser.NewRawSerializer(s, s)
	var stream bytes.Buffer
	fw := framer.NewLengthDelimitedFrameWriter(&stream)
	for _, ev := range events {
		var buf bytes.Buffer
		if err := ser.Encode(objs[ev.Fixture], &buf); err != nil {
			panic(err)
		}
		var eb bytes.Buffer
		if err := raw.Encode(&metav1.WatchEvent{Type: ev.Type, Object: runtime.RawExtension{Raw: buf.Bytes()}}, &eb); err != nil {
			panic(err)
		}
		if _, err := fw.Write(eb.Bytes()); err != nil {
			panic(err)
		}
	}
	evJSON, _ := json.Marshal(events)
	fmt.Fprintf(&out, "\n },\n \"watch\": {\n  \"events\": %s,\n  \"stream\": %q\n }\n}\n", evJSON, base64.StdEncoding.EncodeToString(stream.Bytes()))
	os.Stdout.Write(out.Bytes())
}

// stripNulls removes object members whose value is null, keeping the order of the rest.
func stripNulls(in []byte) []byte {
	dec := json.NewDecoder(bytes.NewReader(in))
	dec.UseNumber()
	var out bytes.Buffer
	var walk func() bool // writes one value; false if it was a null
	walk = func() bool {
		tok, err := dec.Token()
		if err != nil {
			panic(err)
		}
		switch t := tok.(type) {
		case json.Delim:
			if t == '{' {
				out.WriteByte('{')
				first := true
				for dec.More() {
					k, _ := dec.Token()
					key, _ := json.Marshal(k)
					mark := out.Len()
					if !first {
						out.WriteByte(',')
					}
					out.Write(key)
					out.WriteByte(':')
					if walk() {
						first = false
					} else {
						out.Truncate(mark)
					}
				}
				dec.Token()
				out.WriteByte('}')
				return true
			}
			out.WriteByte('[')
			for i := 0; dec.More(); i++ {
				if i > 0 {
					out.WriteByte(',')
				}
				if !walk() {
					out.WriteString("null")
				}
			}
			dec.Token()
			out.WriteByte(']')
			return true
		case nil:
			return false
		default:
			b, _ := json.Marshal(t)
			out.Write(b)
			return true
		}
	}
	walk()
	return out.Bytes()
}

// workflowObjects: the kinds the controllers' workflow needs (Service, Node, Event in both
// groups, Binding, PersistentVolume, StorageClass, IPAddress), with most of their fields set.
func workflowObjects() map[string]runtime.Object {
	ipv4 := corev1.IPv4Protocol
	single := corev1.IPFamilyPolicySingleStack
	cluster := corev1.ServiceInternalTrafficPolicyCluster
	svc := &corev1.Service{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Service"}, ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "prod", UID: "svc-uid", ResourceVersion: "9", CreationTimestamp: t1, Labels: map[string]string{"app": "web"}},
		Spec: corev1.ServiceSpec{Ports: []corev1.ServicePort{{Name: "http", Protocol: corev1.ProtocolTCP, AppProtocol: p("http"), Port: 80, TargetPort: intstr.FromString("web"), NodePort: 30080},
			{Name: "dns", Protocol: corev1.ProtocolUDP, Port: 53, TargetPort: intstr.FromInt32(5353)}},
			Selector: map[string]string{"app": "web"}, ClusterIP: "10.96.0.10", ClusterIPs: []string{"10.96.0.10"}, Type: corev1.ServiceTypeLoadBalancer,
			ExternalIPs: []string{"192.0.2.1"}, SessionAffinity: corev1.ServiceAffinityClientIP, LoadBalancerSourceRanges: []string{"10.0.0.0/8"},
			SessionAffinityConfig: &corev1.SessionAffinityConfig{ClientIP: &corev1.ClientIPConfig{TimeoutSeconds: p(int32(10800))}},
			ExternalTrafficPolicy: corev1.ServiceExternalTrafficPolicyLocal, HealthCheckNodePort: 31000, PublishNotReadyAddresses: true,
			IPFamilies: []corev1.IPFamily{ipv4}, IPFamilyPolicy: &single, AllocateLoadBalancerNodePorts: p(true), LoadBalancerClass: p("example.com/lb"),
			InternalTrafficPolicy: &cluster, TrafficDistribution: p("PreferClose")},
		Status: corev1.ServiceStatus{LoadBalancer: corev1.LoadBalancerStatus{Ingress: []corev1.LoadBalancerIngress{{IP: "203.0.113.5", IPMode: p(corev1.LoadBalancerIPModeVIP),
			Ports: []corev1.PortStatus{{Port: 80, Protocol: corev1.ProtocolTCP, Error: p("x")}}}, {Hostname: "lb.example.com"}}},
			Conditions: []metav1.Condition{{Type: "Ready", Status: metav1.ConditionTrue, ObservedGeneration: 1, LastTransitionTime: t2, Reason: "Ok", Message: "m"}}}}
	headless := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: "nginx", Namespace: "prod"}, Spec: corev1.ServiceSpec{ClusterIP: "None", ClusterIPs: []string{"None"},
		Ports: []corev1.ServicePort{{Port: 80, TargetPort: intstr.FromInt32(80), Protocol: corev1.ProtocolTCP}}, Type: corev1.ServiceTypeClusterIP, SessionAffinity: corev1.ServiceAffinityNone}}
	svcl := &corev1.ServiceList{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "ServiceList"}, ListMeta: metav1.ListMeta{ResourceVersion: "10"},
		Items: []corev1.Service{*headless, {ObjectMeta: metav1.ObjectMeta{Name: "ext", Namespace: "prod"}, Spec: corev1.ServiceSpec{Type: corev1.ServiceTypeExternalName, ExternalName: "example.com"}}}}
	node := &corev1.Node{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Node"}, ObjectMeta: metav1.ObjectMeta{Name: "kapi-node-1", UID: "node-uid", Labels: map[string]string{"kubernetes.io/hostname": "kapi-node-1", "node-role.kubernetes.io/worker": ""}},
		Spec: corev1.NodeSpec{PodCIDR: "10.244.1.0/24", PodCIDRs: []string{"10.244.1.0/24"}, ProviderID: "kapi://node-1", Unschedulable: true,
			Taints: []corev1.Taint{{Key: "node.kubernetes.io/unschedulable", Effect: corev1.TaintEffectNoSchedule, TimeAdded: &t2}, {Key: "k", Value: "v", Effect: corev1.TaintEffectNoExecute}}},
		Status: corev1.NodeStatus{Capacity: corev1.ResourceList{"cpu": resource.MustParse("4"), "memory": resource.MustParse("8Gi"), "pods": resource.MustParse("110")},
			Allocatable: corev1.ResourceList{"cpu": resource.MustParse("3900m"), "memory": resource.MustParse("7Gi"), "pods": resource.MustParse("110")},
			Phase:       corev1.NodeRunning,
			Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue, LastHeartbeatTime: t2, LastTransitionTime: t1, Reason: "KubeletReady", Message: "kubelet is posting ready status"},
				{Type: corev1.NodeMemoryPressure, Status: corev1.ConditionFalse}},
			Addresses:       []corev1.NodeAddress{{Type: corev1.NodeInternalIP, Address: "10.0.0.11"}, {Type: corev1.NodeHostName, Address: "kapi-node-1"}},
			DaemonEndpoints: corev1.NodeDaemonEndpoints{KubeletEndpoint: corev1.DaemonEndpoint{Port: 10250}},
			NodeInfo: corev1.NodeSystemInfo{MachineID: "m", SystemUUID: "s", BootID: "b", KernelVersion: "6.1.0", OSImage: "kapi simulated", ContainerRuntimeVersion: "kapi://0.1",
				KubeletVersion: "v1.33.0", KubeProxyVersion: "", OperatingSystem: "linux", Architecture: "amd64", Swap: &corev1.NodeSwapStatus{Capacity: p(int64(0))}},
			Images:          []corev1.ContainerImage{{Names: []string{"nginx:1.27", "nginx@sha256:aa"}, SizeBytes: 1234}},
			VolumesInUse:    []corev1.UniqueVolumeName{"kubernetes.io/csi/x"},
			VolumesAttached: []corev1.AttachedVolume{{Name: "kubernetes.io/csi/x", DevicePath: "/dev/x"}},
			RuntimeHandlers: []corev1.NodeRuntimeHandler{{Name: "runc", Features: &corev1.NodeRuntimeHandlerFeatures{RecursiveReadOnlyMounts: p(true), UserNamespaces: p(false)}}},
			Features:        &corev1.NodeFeatures{SupplementalGroupsPolicy: p(true)}}}
	nodel := &corev1.NodeList{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "NodeList"}, ListMeta: metav1.ListMeta{ResourceVersion: "11"}, Items: []corev1.Node{{ObjectMeta: metav1.ObjectMeta{Name: "bare"}}}}
	micro := metav1.NewMicroTime(time.Date(2024, 1, 2, 3, 4, 5, 123456000, time.UTC))
	ev := &corev1.Event{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Event"}, ObjectMeta: metav1.ObjectMeta{Name: "web-0.17a", Namespace: "prod", CreationTimestamp: t1},
		InvolvedObject: corev1.ObjectReference{Kind: "Pod", Namespace: "prod", Name: "web-0", UID: "pod-uid", APIVersion: "v1", ResourceVersion: "5", FieldPath: "spec.containers{main}"},
		Reason: "Started", Message: "Started container main", Source: corev1.EventSource{Component: "kubelet", Host: "kapi-node-1"}, FirstTimestamp: t1, LastTimestamp: t2, Count: 3, Type: corev1.EventTypeNormal}
	evNew := &corev1.Event{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Event"}, ObjectMeta: metav1.ObjectMeta{Name: "web.17b", Namespace: "prod"},
		InvolvedObject: corev1.ObjectReference{Kind: "StatefulSet", Namespace: "prod", Name: "web"}, Reason: "SuccessfulCreate", Message: "create Pod web-0 in StatefulSet web successful", Type: corev1.EventTypeNormal,
		EventTime: micro, Series: &corev1.EventSeries{Count: 2, LastObservedTime: micro}, Action: "Create", Related: &corev1.ObjectReference{Kind: "Pod", Name: "web-0"},
		ReportingController: "statefulset-controller", ReportingInstance: "kapi-0"}
	item := *ev
	item.TypeMeta = metav1.TypeMeta{}
	evl := &corev1.EventList{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "EventList"}, ListMeta: metav1.ListMeta{ResourceVersion: "12"}, Items: []corev1.Event{item}}
	ev1 := &eventsv1.Event{TypeMeta: metav1.TypeMeta{APIVersion: "events.k8s.io/v1", Kind: "Event"}, ObjectMeta: metav1.ObjectMeta{Name: "web.17c", Namespace: "prod"},
		EventTime: micro, Series: &eventsv1.EventSeries{Count: 4, LastObservedTime: micro}, ReportingController: "kapi.io/scheduler", ReportingInstance: "kapi-0", Action: "Binding", Reason: "Scheduled",
		Regarding: corev1.ObjectReference{Kind: "Pod", Namespace: "prod", Name: "web-1"}, Related: &corev1.ObjectReference{Kind: "Node", Name: "kapi-node-1"}, Note: "bound", Type: "Normal",
		DeprecatedSource: corev1.EventSource{Component: "c"}, DeprecatedFirstTimestamp: t1, DeprecatedLastTimestamp: t2, DeprecatedCount: 2}
	ev1l := &eventsv1.EventList{TypeMeta: metav1.TypeMeta{APIVersion: "events.k8s.io/v1", Kind: "EventList"}, ListMeta: metav1.ListMeta{ResourceVersion: "13"}, Items: []eventsv1.Event{{ObjectMeta: metav1.ObjectMeta{Name: "e", Namespace: "prod"}}}}
	binding := &corev1.Binding{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Binding"}, ObjectMeta: metav1.ObjectMeta{Name: "web-0", Namespace: "prod", Annotations: map[string]string{"a": "b"}},
		Target: corev1.ObjectReference{Kind: "Node", Name: "kapi-node-1"}}
	fs := corev1.PersistentVolumeFilesystem
	pv := &corev1.PersistentVolume{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "PersistentVolume"}, ObjectMeta: metav1.ObjectMeta{Name: "pvc-1234", Finalizers: []string{"kubernetes.io/pv-protection"},
		Annotations: map[string]string{"pv.kubernetes.io/provisioned-by": "kapi.io/simulated"}},
		Spec: corev1.PersistentVolumeSpec{Capacity: corev1.ResourceList{"storage": resource.MustParse("1Gi")},
			PersistentVolumeSource: corev1.PersistentVolumeSource{CSI: &corev1.CSIPersistentVolumeSource{Driver: "kapi.io/simulated", VolumeHandle: "h-1", ReadOnly: true, FSType: "ext4",
				VolumeAttributes: map[string]string{"k": "v"}, NodePublishSecretRef: &corev1.SecretReference{Name: "s", Namespace: "n"}}},
			AccessModes: []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce}, ClaimRef: &corev1.ObjectReference{Kind: "PersistentVolumeClaim", Namespace: "prod", Name: "data-web-0", UID: "claim-uid", APIVersion: "v1", ResourceVersion: "3"},
			PersistentVolumeReclaimPolicy: corev1.PersistentVolumeReclaimDelete, StorageClassName: "standard", MountOptions: []string{"ro"}, VolumeMode: &fs,
			NodeAffinity: &corev1.VolumeNodeAffinity{Required: &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchExpressions: []corev1.NodeSelectorRequirement{{Key: "kubernetes.io/hostname", Operator: corev1.NodeSelectorOpIn, Values: []string{"kapi-node-1"}}}}}}}},
		Status: corev1.PersistentVolumeStatus{Phase: corev1.VolumeBound, Message: "m", Reason: "r", LastPhaseTransitionTime: &t2}}
	pvl := &corev1.PersistentVolumeList{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "PersistentVolumeList"}, ListMeta: metav1.ListMeta{ResourceVersion: "14"},
		Items: []corev1.PersistentVolume{{ObjectMeta: metav1.ObjectMeta{Name: "local"}, Spec: corev1.PersistentVolumeSpec{PersistentVolumeSource: corev1.PersistentVolumeSource{HostPath: &corev1.HostPathVolumeSource{Path: "/tmp/pv", Type: p(corev1.HostPathDirectoryOrCreate)}}}}}}
	wait := storagev1.VolumeBindingWaitForFirstConsumer
	del := corev1.PersistentVolumeReclaimDelete
	sc := &storagev1.StorageClass{TypeMeta: metav1.TypeMeta{APIVersion: "storage.k8s.io/v1", Kind: "StorageClass"}, ObjectMeta: metav1.ObjectMeta{Name: "standard", Annotations: map[string]string{"storageclass.kubernetes.io/is-default-class": "true"}},
		Provisioner: "kapi.io/simulated", Parameters: map[string]string{"type": "ssd"}, ReclaimPolicy: &del, MountOptions: []string{"debug"}, AllowVolumeExpansion: p(true), VolumeBindingMode: &wait,
		AllowedTopologies: []corev1.TopologySelectorTerm{{MatchLabelExpressions: []corev1.TopologySelectorLabelRequirement{{Key: "zone", Values: []string{"a", "b"}}}}}}
	scl := &storagev1.StorageClassList{TypeMeta: metav1.TypeMeta{APIVersion: "storage.k8s.io/v1", Kind: "StorageClassList"}, ListMeta: metav1.ListMeta{ResourceVersion: "15"}, Items: []storagev1.StorageClass{{ObjectMeta: metav1.ObjectMeta{Name: "plain"}, Provisioner: "x"}}}
	ip := &networkingv1.IPAddress{TypeMeta: metav1.TypeMeta{APIVersion: "networking.k8s.io/v1", Kind: "IPAddress"}, ObjectMeta: metav1.ObjectMeta{Name: "10.96.0.10",
		Labels: map[string]string{"ipaddress.kubernetes.io/ip-family": "IPv4", "ipaddress.kubernetes.io/managed-by": "ipallocator.k8s.io"}},
		Spec: networkingv1.IPAddressSpec{ParentRef: &networkingv1.ParentReference{Group: "", Resource: "services", Namespace: "prod", Name: "web"}}}
	ipl := &networkingv1.IPAddressList{TypeMeta: metav1.TypeMeta{APIVersion: "networking.k8s.io/v1", Kind: "IPAddressList"}, ListMeta: metav1.ListMeta{ResourceVersion: "16"}, Items: []networkingv1.IPAddress{{ObjectMeta: metav1.ObjectMeta{Name: "fd00::1"}}}}
	return map[string]runtime.Object{"service": svc, "serviceList": svcl, "node": node, "nodeList": nodel, "event": ev, "eventSeries": evNew, "eventList": evl,
		"eventV1": ev1, "eventV1List": ev1l, "binding": binding, "persistentVolume": pv, "persistentVolumeList": pvl, "storageClass": sc, "storageClassList": scl,
		"ipAddress": ip, "ipAddressList": ipl}
}
