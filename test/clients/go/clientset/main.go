// clientset drives kapi with client-go v0.33 speaking one content type only, chosen by
// -content-type: protobuf (ContentType and AcceptContentTypes =
// application/vnd.kubernetes.protobuf) or cbor (application/cbor; kapi started with
// --feature-gates CBORServingAndStorage=true and client-go's own ClientsAllowCBOR gate on:
// KUBE_FEATURE_ClientsAllowCBOR=true). It checks that objects survive the round trip:
// StatefulSet create/get/update/list (label selectors)/watch (MODIFIED, DELETED)/delete,
// Namespace, PriorityClass and PodDisruptionBudget create/get, NotFound/AlreadyExists
// errors as a Status in that content type; then every served resource's create, get, list,
// watch, status update and delete (kinds.go), and a StatefulSet's autoscaling/v1 Scale. It
// also checks that kapi's bytes equal apimachinery's encoding of the same objects: in cbor
// mode up to map order (cbor_encoding.go), in protobuf mode byte for byte, every served kind
// and its list (protobuf_encoding.go).
//
// Every response is checked at the transport: a 2xx/4xx body not in the chosen content type
// (for a watch: its stream type) is a failure, so a JSON fallback cannot hide a broken
// path. Objects read back are also compared with the same objects read by a JSON-only
// clientset.
//
//	go build -o /tmp/clientset . && /tmp/clientset -content-type protobuf <kubeconfig>
//	KUBE_FEATURE_ClientsAllowCBOR=true /tmp/clientset -content-type cbor <kubeconfig>
//
// Prints one JSON line (the results) on stdout; exits 1 on any mismatch (each one is also
// printed on stderr as "MISMATCH <where>: <what>"), 2 on a usage/setup error.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"os"
	"reflect"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
)

// wire is the content type the clientset under test speaks.
type wire struct {
	name      string // the -content-type value; also names the typed reads in check messages
	mediaType string // sent as Content-Type and Accept, and the type of every non-watch response
	watchType string // the type (parameters aside) a watch answers with
	namespace string // where the run's namespaced objects live
}

var wires = map[string]wire{
	"protobuf": {name: "protobuf", mediaType: "application/vnd.kubernetes.protobuf", watchType: "application/vnd.kubernetes.protobuf", namespace: "pb-client"},
	"cbor":     {name: "cbor", mediaType: cborMT, watchType: "application/cbor-seq", namespace: "cbor-client"},
}

func ptr[T any](v T) *T { return &v }

// ---------------------------------------------------------------------------
// failure collection

type checker struct {
	mu       sync.Mutex
	checks   int
	failures []string
}

func (c *checker) fail(where, format string, args ...any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	msg := where + ": " + fmt.Sprintf(format, args...)
	c.failures = append(c.failures, msg)
	fmt.Fprintln(os.Stderr, "MISMATCH "+msg)
}

func (c *checker) count() {
	c.mu.Lock()
	c.checks++
	c.mu.Unlock()
}

// eq checks got == want (reflect.DeepEqual, with a go-cmp diff in the message).
func (c *checker) eq(where string, got, want any) bool {
	c.count()
	if reflect.DeepEqual(got, want) {
		return true
	}
	c.fail(where, "got %s, want %s", show(got), show(want))
	return false
}

func (c *checker) truth(where string, ok bool, format string, args ...any) bool {
	c.count()
	if !ok {
		c.fail(where, format, args...)
	}
	return ok
}

// roundTrip checks that every field set in want comes back unchanged in got (fields
// left unset in want may be defaulted by the server and are ignored).
func (c *checker) roundTrip(where string, got, want any) bool {
	c.count()
	d := cmp.Diff(want, got, ignoreUnsetInWant(), cmpopts.EquateEmpty(), rawExtensionAsJSON)
	if d == "" {
		return true
	}
	c.fail(where, "fields sent did not round-trip (-sent +got):\n%s", d)
	return false
}

// same checks two reads of one object are identical (nil and empty collections equal).
func (c *checker) same(where, aName, bName string, a, b any) bool {
	c.count()
	d := cmp.Diff(a, b, cmpopts.EquateEmpty(), cmpopts.IgnoreFields(metav1.TypeMeta{}, "Kind", "APIVersion"), rawExtensionAsJSON)
	if d == "" {
		return true
	}
	c.fail(where, "%s and %s differ (-%s +%s):\n%s", aName, bName, aName, bName, d)
	return false
}

// rawExtensionAsJSON compares a RawExtension (ControllerRevision.data) by its JSON value: its
// text depends on the codec (CBOR transcodes to JSON with sorted keys and HTML escapes).
var rawExtensionAsJSON = cmp.Transformer("rawJSON", func(r runtime.RawExtension) any {
	var v any
	if err := json.Unmarshal(r.Raw, &v); err != nil {
		return string(r.Raw)
	}
	return v
})

// ignoreUnsetInWant ignores paths whose value in want (the first, "x" argument of
// cmp.Diff) is the zero value, and map entries missing from want.
func ignoreUnsetInWant() cmp.Option {
	return cmp.FilterPath(func(p cmp.Path) bool {
		if mi, ok := p.Last().(cmp.MapIndex); ok {
			if v1, _ := mi.Values(); !v1.IsValid() {
				return true
			}
		}
		v1, _ := p.Last().Values()
		if !v1.IsValid() {
			return false
		}
		switch v1.Kind() {
		case reflect.Slice, reflect.Map:
			return v1.IsNil() || v1.Len() == 0
		default:
			return v1.IsZero()
		}
	}, cmp.Ignore())
}

func show(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%#v", v)
	}
	s := string(b)
	if len(s) > 400 {
		s = s[:400] + "..."
	}
	return s
}

// ---------------------------------------------------------------------------
// transport check: every response must be in the wire's content type

type exchange struct {
	Method   string `json:"method"`
	Path     string `json:"path"`
	ReqType  string `json:"requestContentType,omitempty"`
	Accept   string `json:"accept"`
	Status   int    `json:"status"`
	RespType string `json:"responseContentType"`
}

type recorder struct {
	mu        sync.Mutex
	exchanges []exchange
	next      http.RoundTripper
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := r.next.RoundTrip(req)
	if err != nil {
		return resp, err
	}
	ex := exchange{
		Method:   req.Method,
		Path:     req.URL.RequestURI(),
		Accept:   req.Header.Get("Accept"),
		Status:   resp.StatusCode,
		RespType: resp.Header.Get("Content-Type"),
	}
	if req.Body != nil && req.ContentLength != 0 {
		ex.ReqType = req.Header.Get("Content-Type")
	}
	r.mu.Lock()
	r.exchanges = append(r.exchanges, ex)
	r.mu.Unlock()
	return resp, nil
}

func (r *recorder) snapshot() []exchange {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]exchange(nil), r.exchanges...)
}

// ---------------------------------------------------------------------------
// fixtures

// ns is the wire's namespace, set in main before any request.
var ns string

func statefulSet(name, role string, replicas int32) *appsv1.StatefulSet {
	labels := map[string]string{"app": "pb-client", "role": role}
	return &appsv1.StatefulSet{
		ObjectMeta: metav1.ObjectMeta{
			Name:        name,
			Namespace:   ns,
			Labels:      map[string]string{"app": "pb-client", "role": role, "app.kubernetes.io/managed-by": "kapi-test"},
			Annotations: map[string]string{"kapi.dev/note": "protobuf round trip \u00e9\u00e0 \u2713", "kapi.dev/empty": ""},
		},
		Spec: appsv1.StatefulSetSpec{
			Replicas:             ptr(replicas),
			ServiceName:          name + "-svc",
			PodManagementPolicy:  appsv1.ParallelPodManagement,
			RevisionHistoryLimit: ptr(int32(7)),
			MinReadySeconds:      4,
			Selector: &metav1.LabelSelector{
				MatchLabels: labels,
				MatchExpressions: []metav1.LabelSelectorRequirement{
					{Key: "role", Operator: metav1.LabelSelectorOpIn, Values: []string{"primary", "replica"}},
				},
			},
			UpdateStrategy: appsv1.StatefulSetUpdateStrategy{
				Type: appsv1.RollingUpdateStatefulSetStrategyType,
				// No maxUnavailable: kube 1.33 drops it (MaxUnavailableStatefulSet is alpha, off).
				RollingUpdate: &appsv1.RollingUpdateStatefulSetStrategy{Partition: ptr(int32(1))},
			},
			PersistentVolumeClaimRetentionPolicy: &appsv1.StatefulSetPersistentVolumeClaimRetentionPolicy{
				WhenDeleted: appsv1.DeletePersistentVolumeClaimRetentionPolicyType,
				WhenScaled:  appsv1.RetainPersistentVolumeClaimRetentionPolicyType,
			},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{
					Labels:      labels,
					Annotations: map[string]string{"prometheus.io/scrape": "true"},
				},
				Spec: corev1.PodSpec{
					TerminationGracePeriodSeconds: ptr(int64(25)),
					ServiceAccountName:            "default",
					NodeSelector:                  map[string]string{"kubernetes.io/os": "linux"},
					PriorityClassName:             "pb-client-high",
					Tolerations: []corev1.Toleration{
						{Key: "dedicated", Operator: corev1.TolerationOpEqual, Value: "db", Effect: corev1.TaintEffectNoSchedule},
						{Key: "node.kubernetes.io/unreachable", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: ptr(int64(300))},
					},
					SecurityContext: &corev1.PodSecurityContext{RunAsUser: ptr(int64(1000)), RunAsNonRoot: ptr(true), FSGroup: ptr(int64(2000))},
					InitContainers: []corev1.Container{
						{Name: "init", Image: "busybox:1.36", Command: []string{"sh", "-c", "echo init"}},
					},
					Containers: []corev1.Container{
						{
							Name:            "db",
							Image:           "postgres:16.2",
							ImagePullPolicy: corev1.PullIfNotPresent,
							Command:         []string{"docker-entrypoint.sh"},
							Args:            []string{"postgres", "-c", "max_connections=200"},
							WorkingDir:      "/var/lib/postgresql",
							Ports: []corev1.ContainerPort{
								{Name: "pg", ContainerPort: 5432, Protocol: corev1.ProtocolTCP},
								{Name: "metrics", ContainerPort: 9187, Protocol: corev1.ProtocolTCP},
								{Name: "dns", ContainerPort: 53, Protocol: corev1.ProtocolUDP},
							},
							Env: []corev1.EnvVar{
								{Name: "POSTGRES_DB", Value: "app"},
								{Name: "EMPTY", Value: ""},
								{Name: "POD_NAME", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.name"}}},
								{Name: "MEM_LIMIT", ValueFrom: &corev1.EnvVarSource{ResourceFieldRef: &corev1.ResourceFieldSelector{ContainerName: "db", Resource: "limits.memory", Divisor: resource.MustParse("1Mi")}}},
								{Name: "PASSWORD", ValueFrom: &corev1.EnvVarSource{SecretKeyRef: &corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "pg"}, Key: "password", Optional: ptr(false)}}},
							},
							EnvFrom: []corev1.EnvFromSource{{Prefix: "CFG_", ConfigMapRef: &corev1.ConfigMapEnvSource{LocalObjectReference: corev1.LocalObjectReference{Name: "pg-config"}}}},
							Resources: corev1.ResourceRequirements{
								Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("250m"), corev1.ResourceMemory: resource.MustParse("512Mi")},
								Limits:   corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("2"), corev1.ResourceMemory: resource.MustParse("1Gi"), "ephemeral-storage": resource.MustParse("2G")},
							},
							ReadinessProbe: &corev1.Probe{
								ProbeHandler:        corev1.ProbeHandler{Exec: &corev1.ExecAction{Command: []string{"pg_isready", "-U", "postgres"}}},
								InitialDelaySeconds: 5, TimeoutSeconds: 2, PeriodSeconds: 10, SuccessThreshold: 1, FailureThreshold: 3,
							},
							LivenessProbe: &corev1.Probe{
								ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{
									Path: "/healthz", Port: intstr.FromInt32(9187), Scheme: corev1.URISchemeHTTP,
									HTTPHeaders: []corev1.HTTPHeader{{Name: "X-Probe", Value: "1"}},
								}},
								InitialDelaySeconds: 15, TimeoutSeconds: 1, PeriodSeconds: 20, SuccessThreshold: 1, FailureThreshold: 6,
							},
							StartupProbe: &corev1.Probe{
								ProbeHandler:  corev1.ProbeHandler{TCPSocket: &corev1.TCPSocketAction{Port: intstr.FromString("pg")}},
								PeriodSeconds: 2, TimeoutSeconds: 1, SuccessThreshold: 1, FailureThreshold: 30,
							},
							VolumeMounts: []corev1.VolumeMount{
								{Name: "data", MountPath: "/var/lib/postgresql/data", SubPath: "pgdata"},
								{Name: "config", MountPath: "/etc/pg", ReadOnly: true},
							},
							SecurityContext: &corev1.SecurityContext{
								AllowPrivilegeEscalation: ptr(false),
								ReadOnlyRootFilesystem:   ptr(true),
								Capabilities:             &corev1.Capabilities{Drop: []corev1.Capability{"ALL"}},
							},
						},
					},
					Volumes: []corev1.Volume{
						{Name: "config", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{
							LocalObjectReference: corev1.LocalObjectReference{Name: "pg-config"}, DefaultMode: ptr(int32(0o440)),
						}}},
					},
				},
			},
			VolumeClaimTemplates: []corev1.PersistentVolumeClaim{
				{
					ObjectMeta: metav1.ObjectMeta{Name: "data", Labels: map[string]string{"app": "pb-client"}},
					Spec: corev1.PersistentVolumeClaimSpec{
						AccessModes:      []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce},
						StorageClassName: ptr("fast-ssd"),
						VolumeMode:       ptr(corev1.PersistentVolumeFilesystem),
						Resources:        corev1.VolumeResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceStorage: resource.MustParse("10Gi")}},
					},
				},
			},
		},
	}
}

// ---------------------------------------------------------------------------

type results struct {
	OK                   bool                   `json:"ok"`
	Checks               int                    `json:"checks"`
	Failures             []string               `json:"failures"`
	Requests             int                    `json:"requests"`
	ResponseContentTypes map[string]int         `json:"responseContentTypes"`
	RequestContentTypes  map[string]int         `json:"requestContentTypes"`
	Steps                []string               `json:"steps"`
	StatefulSet          map[string]any         `json:"statefulSet,omitempty"`
	ListCounts           map[string]int         `json:"listCounts,omitempty"`
	WatchEvents          []string               `json:"watchEvents,omitempty"`
	Errors               map[string]string      `json:"errors,omitempty"`
	Namespace            map[string]any         `json:"namespace,omitempty"`
	PriorityClass        map[string]any         `json:"priorityClass,omitempty"`
	PodDisruptionBudget  map[string]any         `json:"podDisruptionBudget,omitempty"`
	Kinds                map[string]*kindResult `json:"kinds,omitempty"`
	Scale                map[string]any         `json:"scale,omitempty"`
	Encodings            []string               `json:"encodings,omitempty"`
	ElapsedMs            int64                  `json:"elapsedMs"`
}

func main() {
	contentType := flag.String("content-type", "", "what the clientset speaks: protobuf or cbor")
	flag.Usage = func() { fmt.Fprintln(os.Stderr, "usage: clientset -content-type protobuf|cbor <kubeconfig>") }
	flag.Parse()
	w, known := wires[*contentType]
	if !known || flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	// Without its gate client-go quietly falls back to JSON; say so rather than fail every check.
	if w.name == "cbor" && os.Getenv("KUBE_FEATURE_ClientsAllowCBOR") != "true" {
		fmt.Fprintln(os.Stderr, "-content-type cbor needs KUBE_FEATURE_ClientsAllowCBOR=true (client-go's CBOR gate)")
		os.Exit(2)
	}
	ns = w.namespace
	start := time.Now()
	kubeconfig := flag.Arg(0)
	base, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		fmt.Fprintf(os.Stderr, "load kubeconfig %s: %v\n", kubeconfig, err)
		os.Exit(2)
	}
	base.Timeout = 30 * time.Second
	base.QPS = 1000
	base.Burst = 1000
	base.UserAgent = "kapi-" + w.name + "-client/v0.33"

	rec := &recorder{}
	cfg := rest.CopyConfig(base)
	cfg.ContentType = w.mediaType
	cfg.AcceptContentTypes = w.mediaType
	cfg.WrapTransport = func(rt http.RoundTripper) http.RoundTripper { rec.next = rt; return rec }
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s clientset: %v\n", w.name, err)
		os.Exit(2)
	}
	jsonCfg := rest.CopyConfig(base)
	jsonCfg.ContentType = "application/json"
	jsonCfg.AcceptContentTypes = "application/json"
	js, err := kubernetes.NewForConfig(jsonCfg)
	if err != nil {
		fmt.Fprintf(os.Stderr, "json clientset: %v\n", err)
		os.Exit(2)
	}

	c := &checker{}
	res := &results{ListCounts: map[string]int{}, Errors: map[string]string{}, Kinds: map[string]*kindResult{}}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()

	func() {
		defer func() {
			if r := recover(); r != nil {
				c.fail("panic", "%v", r)
			}
		}()
		run(ctx, c, res, w, cs, js)
	}()

	// Transport check: every response of the clientset under test must be in its type.
	exs := rec.snapshot()
	res.Requests = len(exs)
	res.ResponseContentTypes = map[string]int{}
	res.RequestContentTypes = map[string]int{}
	for _, ex := range exs {
		res.ResponseContentTypes[ex.RespType]++
		if ex.ReqType != "" {
			res.RequestContentTypes[ex.ReqType]++
			c.truth("transport request "+ex.Method+" "+ex.Path, ex.ReqType == w.mediaType, "client sent Content-Type %q, want %q", ex.ReqType, w.mediaType)
		}
		c.truth("transport accept "+ex.Method+" "+ex.Path, ex.Accept == w.mediaType, "client sent Accept %q, want %q", ex.Accept, w.mediaType)
		mt := strings.ToLower(strings.TrimSpace(strings.SplitN(ex.RespType, ";", 2)[0]))
		want := w.mediaType
		if strings.Contains(ex.Path, "watch=true") {
			want = w.watchType
		}
		c.truth("transport response "+ex.Method+" "+ex.Path, mt == want,
			"status %d with Content-Type %q, want %s (%s-only client)", ex.Status, ex.RespType, want, w.name)
	}

	res.Checks = c.checks
	res.Failures = c.failures
	if res.Failures == nil {
		res.Failures = []string{}
	}
	res.OK = len(c.failures) == 0
	res.ElapsedMs = time.Since(start).Milliseconds()
	line, _ := json.Marshal(res)
	fmt.Println(string(line))
	if !res.OK {
		fmt.Fprintf(os.Stderr, "FAIL: %d of %d checks failed\n", len(c.failures), c.checks)
		os.Exit(1)
	}
}

// must records a failed call and reports whether it succeeded.
func must(c *checker, where string, err error) bool {
	if err != nil {
		c.fail(where, "request failed: %v", err)
		return false
	}
	c.count()
	return true
}

func run(ctx context.Context, c *checker, res *results, w wire, cs, js kubernetes.Interface) {
	step := func(s string) { res.Steps = append(res.Steps, s) }

	// --- Namespace -----------------------------------------------------------------
	nsWant := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{
		Name:        ns,
		Labels:      map[string]string{"team": "storage", "kapi.dev/test": "protobuf"},
		Annotations: map[string]string{"kapi.dev/owner": "go-client"},
	}}
	nsCreated, err := cs.CoreV1().Namespaces().Create(ctx, nsWant, metav1.CreateOptions{})
	if !must(c, "create namespace", err) {
		return
	}
	step("namespace.create")
	c.roundTrip("create namespace response", nsCreated, nsWant)
	nsGot, err := cs.CoreV1().Namespaces().Get(ctx, ns, metav1.GetOptions{})
	if must(c, "get namespace", err) {
		step("namespace.get")
		c.roundTrip("get namespace", nsGot, nsWant)
		c.same("get namespace", "create-response", "get", nsCreated, nsGot)
		c.eq("namespace status.phase", nsGot.Status.Phase, corev1.NamespaceActive)
		c.eq("namespace spec.finalizers", nsGot.Spec.Finalizers, []corev1.FinalizerName{corev1.FinalizerKubernetes})
		c.eq("namespace label kubernetes.io/metadata.name", nsGot.Labels["kubernetes.io/metadata.name"], ns)
		c.truth("namespace metadata.uid", nsGot.UID != "", "empty uid")
		c.truth("namespace metadata.creationTimestamp", !nsGot.CreationTimestamp.IsZero(), "zero creationTimestamp")
		if jsGot, err := js.CoreV1().Namespaces().Get(ctx, ns, metav1.GetOptions{}); must(c, "get namespace (json)", err) {
			c.same("namespace "+w.name+" vs json", w.name, "json", nsGot, jsGot)
		}
		res.Namespace = map[string]any{"name": nsGot.Name, "phase": nsGot.Status.Phase, "finalizers": nsGot.Spec.Finalizers, "labels": len(nsGot.Labels)}
	}

	// --- PriorityClass -------------------------------------------------------------
	pcWant := &schedulingv1.PriorityClass{
		ObjectMeta:       metav1.ObjectMeta{Name: "pb-client-high", Labels: map[string]string{"tier": "db"}},
		Value:            1000000,
		GlobalDefault:    false,
		Description:      "high priority for databases (protobuf client)",
		PreemptionPolicy: ptr(corev1.PreemptNever),
	}
	pcCreated, err := cs.SchedulingV1().PriorityClasses().Create(ctx, pcWant, metav1.CreateOptions{})
	if must(c, "create priorityclass", err) {
		step("priorityclass.create")
		c.roundTrip("create priorityclass response", pcCreated, pcWant)
		pcGot, err := cs.SchedulingV1().PriorityClasses().Get(ctx, pcWant.Name, metav1.GetOptions{})
		if must(c, "get priorityclass", err) {
			step("priorityclass.get")
			c.roundTrip("get priorityclass", pcGot, pcWant)
			c.same("get priorityclass", "create-response", "get", pcCreated, pcGot)
			c.eq("priorityclass value", pcGot.Value, int32(1000000))
			c.eq("priorityclass globalDefault", pcGot.GlobalDefault, false)
			if jsGot, err := js.SchedulingV1().PriorityClasses().Get(ctx, pcWant.Name, metav1.GetOptions{}); must(c, "get priorityclass (json)", err) {
				c.same("priorityclass "+w.name+" vs json", w.name, "json", pcGot, jsGot)
			}
			res.PriorityClass = map[string]any{"name": pcGot.Name, "value": pcGot.Value, "preemptionPolicy": pcGot.PreemptionPolicy}
		}
	}
	// A negative value and globalDefault=true also round-trip (varint sign handling, bool true).
	pcNeg := &schedulingv1.PriorityClass{ObjectMeta: metav1.ObjectMeta{Name: "pb-client-low"}, Value: -5, GlobalDefault: true, Description: "negative"}
	if got, err := cs.SchedulingV1().PriorityClasses().Create(ctx, pcNeg, metav1.CreateOptions{}); must(c, "create priorityclass pb-client-low", err) {
		c.eq("priorityclass pb-client-low value", got.Value, int32(-5))
		c.eq("priorityclass pb-client-low globalDefault", got.GlobalDefault, true)
		if got2, err := cs.SchedulingV1().PriorityClasses().Get(ctx, pcNeg.Name, metav1.GetOptions{}); must(c, "get priorityclass pb-client-low", err) {
			c.eq("get priorityclass pb-client-low value", got2.Value, int32(-5))
			c.eq("get priorityclass pb-client-low globalDefault", got2.GlobalDefault, true)
		}
	}

	// --- PodDisruptionBudget ----------------------------------------------------------
	pdbWant := &policyv1.PodDisruptionBudget{
		ObjectMeta: metav1.ObjectMeta{Name: "pb-client-pdb", Namespace: ns, Labels: map[string]string{"app": "pb-client"}},
		Spec: policyv1.PodDisruptionBudgetSpec{
			MinAvailable: ptr(intstr.FromInt32(2)),
			Selector: &metav1.LabelSelector{
				MatchLabels:      map[string]string{"app": "pb-client"},
				MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "role", Operator: metav1.LabelSelectorOpExists}},
			},
			UnhealthyPodEvictionPolicy: ptr(policyv1.AlwaysAllow),
		},
	}
	pdbCreated, err := cs.PolicyV1().PodDisruptionBudgets(ns).Create(ctx, pdbWant, metav1.CreateOptions{})
	if must(c, "create pdb", err) {
		step("pdb.create")
		c.roundTrip("create pdb response", pdbCreated, pdbWant)
		pdbGot, err := cs.PolicyV1().PodDisruptionBudgets(ns).Get(ctx, pdbWant.Name, metav1.GetOptions{})
		if must(c, "get pdb", err) {
			step("pdb.get")
			c.roundTrip("get pdb", pdbGot, pdbWant)
			c.same("get pdb", "create-response", "get", pdbCreated, pdbGot)
			if c.truth("pdb spec.minAvailable", pdbGot.Spec.MinAvailable != nil, "minAvailable is nil") {
				c.eq("pdb spec.minAvailable", *pdbGot.Spec.MinAvailable, intstr.FromInt32(2))
			}
			if jsGot, err := js.PolicyV1().PodDisruptionBudgets(ns).Get(ctx, pdbWant.Name, metav1.GetOptions{}); must(c, "get pdb (json)", err) {
				c.same("pdb "+w.name+" vs json", w.name, "json", pdbGot, jsGot)
			}
			res.PodDisruptionBudget = map[string]any{"name": pdbGot.Name, "minAvailable": pdbGot.Spec.MinAvailable.String()}
		}
	}
	// maxUnavailable as a percentage string (IntOrString type=1).
	pdb2 := &policyv1.PodDisruptionBudget{
		ObjectMeta: metav1.ObjectMeta{Name: "pb-client-pdb-pct", Namespace: ns},
		Spec:       policyv1.PodDisruptionBudgetSpec{MaxUnavailable: ptr(intstr.FromString("25%")), Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "pb-client"}}},
	}
	if _, err := cs.PolicyV1().PodDisruptionBudgets(ns).Create(ctx, pdb2, metav1.CreateOptions{}); must(c, "create pdb pb-client-pdb-pct", err) {
		if got, err := cs.PolicyV1().PodDisruptionBudgets(ns).Get(ctx, pdb2.Name, metav1.GetOptions{}); must(c, "get pdb pb-client-pdb-pct", err) {
			c.roundTrip("get pdb pb-client-pdb-pct", got, pdb2)
			if c.truth("pdb pb-client-pdb-pct maxUnavailable", got.Spec.MaxUnavailable != nil, "maxUnavailable is nil") {
				c.eq("pdb pb-client-pdb-pct maxUnavailable", *got.Spec.MaxUnavailable, intstr.FromString("25%"))
			}
		}
	}

	// --- StatefulSets --------------------------------------------------------------
	stsClient := cs.AppsV1().StatefulSets(ns)
	want := statefulSet("web", "primary", 3)
	created, err := stsClient.Create(ctx, want, metav1.CreateOptions{})
	if !must(c, "create statefulset web", err) {
		return
	}
	step("statefulset.create")
	c.roundTrip("create statefulset response", created, want)
	c.truth("statefulset metadata.uid", created.UID != "", "empty uid")
	c.truth("statefulset metadata.resourceVersion", created.ResourceVersion != "", "empty resourceVersion")
	c.truth("statefulset metadata.creationTimestamp", !created.CreationTimestamp.IsZero(), "zero creationTimestamp")
	c.eq("statefulset metadata.generation", created.Generation, int64(1))

	got, err := stsClient.Get(ctx, "web", metav1.GetOptions{})
	if !must(c, "get statefulset web", err) {
		return
	}
	step("statefulset.get")
	c.roundTrip("get statefulset web", got, want)
	c.same("get statefulset web", "create-response", "get", created, got)
	// Spot checks of fields whose wire form is special (quantities, int-or-string, nested pointers).
	ctr := got.Spec.Template.Spec.Containers
	if c.truth("statefulset containers", len(ctr) == 1, "got %d containers, want 1", len(ctr)) {
		c0 := ctr[0]
		c.eq("container ports", c0.Ports, want.Spec.Template.Spec.Containers[0].Ports)
		q := c0.Resources.Requests[corev1.ResourceCPU]
		c.eq("container requests.cpu", q.String(), "250m")
		q = c0.Resources.Limits[corev1.ResourceMemory]
		c.eq("container limits.memory", q.String(), "1Gi")
		q = c0.Resources.Limits["ephemeral-storage"]
		c.eq("container limits.ephemeral-storage", q.String(), "2G")
		if c.truth("container livenessProbe.httpGet", c0.LivenessProbe != nil && c0.LivenessProbe.HTTPGet != nil, "missing") {
			c.eq("container livenessProbe.httpGet.port", c0.LivenessProbe.HTTPGet.Port, intstr.FromInt32(9187))
		}
		if c.truth("container startupProbe.tcpSocket", c0.StartupProbe != nil && c0.StartupProbe.TCPSocket != nil, "missing") {
			c.eq("container startupProbe.tcpSocket.port", c0.StartupProbe.TCPSocket.Port, intstr.FromString("pg"))
		}
		if c.truth("container env", len(c0.Env) == 5, "got %d env vars, want 5", len(c0.Env)) {
			c.eq("container env[1] (empty value)", c0.Env[1], corev1.EnvVar{Name: "EMPTY"})
			if c.truth("container env[3].valueFrom.resourceFieldRef", c0.Env[3].ValueFrom != nil && c0.Env[3].ValueFrom.ResourceFieldRef != nil, "missing") {
				c.eq("container env[3] divisor", c0.Env[3].ValueFrom.ResourceFieldRef.Divisor.String(), "1Mi")
			}
		}
	}
	if c.truth("statefulset volumeClaimTemplates", len(got.Spec.VolumeClaimTemplates) == 1, "got %d, want 1", len(got.Spec.VolumeClaimTemplates)) {
		v := got.Spec.VolumeClaimTemplates[0]
		q := v.Spec.Resources.Requests[corev1.ResourceStorage]
		c.eq("volumeClaimTemplates[0].requests.storage", q.String(), "10Gi")
		c.eq("volumeClaimTemplates[0].name", v.Name, "data")
	}
	if c.truth("statefulset updateStrategy.rollingUpdate", got.Spec.UpdateStrategy.RollingUpdate != nil && got.Spec.UpdateStrategy.RollingUpdate.Partition != nil, "missing") {
		c.eq("updateStrategy.rollingUpdate.partition", *got.Spec.UpdateStrategy.RollingUpdate.Partition, int32(1))
	}
	c.eq("template.spec.securityContext.runAsNonRoot", got.Spec.Template.Spec.SecurityContext != nil && got.Spec.Template.Spec.SecurityContext.RunAsNonRoot != nil && *got.Spec.Template.Spec.SecurityContext.RunAsNonRoot, true)
	if jsGot, err := js.AppsV1().StatefulSets(ns).Get(ctx, "web", metav1.GetOptions{}); must(c, "get statefulset web (json)", err) {
		c.same("statefulset "+w.name+" vs json", w.name, "json", got, jsGot)
	}

	// Update replicas 3 -> 5.
	upd := got.DeepCopy()
	upd.Spec.Replicas = ptr(int32(5))
	updated, err := stsClient.Update(ctx, upd, metav1.UpdateOptions{})
	if !must(c, "update statefulset web replicas=5", err) {
		return
	}
	step("statefulset.update")
	c.eq("update response spec.replicas", deref(updated.Spec.Replicas), int32(5))
	c.eq("update response metadata.generation", updated.Generation, int64(2))
	c.eq("update response metadata.uid", updated.UID, created.UID)
	c.truth("update response metadata.resourceVersion", updated.ResourceVersion != got.ResourceVersion, "resourceVersion did not change (%s)", updated.ResourceVersion)
	if got2, err := stsClient.Get(ctx, "web", metav1.GetOptions{}); must(c, "get statefulset web after update", err) {
		c.eq("get after update spec.replicas", deref(got2.Spec.Replicas), int32(5))
		c.same("get after update", "update-response", "get", updated, got2)
	}

	// More StatefulSets for the label-selector lists.
	replica := statefulSet("web-replica", "replica", 2)
	if _, err := stsClient.Create(ctx, replica, metav1.CreateOptions{}); !must(c, "create statefulset web-replica", err) {
		return
	}
	other := statefulSet("other", "primary", 1)
	other.Labels = map[string]string{"app": "other", "role": "primary"}
	if _, err := stsClient.Create(ctx, other, metav1.CreateOptions{}); !must(c, "create statefulset other", err) {
		return
	}
	step("statefulset.create-more")

	for _, tc := range []struct {
		selector string
		want     []string
	}{
		{"", []string{"other", "web", "web-replica"}},
		{"app=pb-client", []string{"web", "web-replica"}},
		{"app=pb-client,role=primary", []string{"web"}},
		{"role in (primary,replica)", []string{"other", "web", "web-replica"}},
		{"app!=pb-client", []string{"other"}},
		{"app.kubernetes.io/managed-by", []string{"web", "web-replica"}},
		{"!app.kubernetes.io/managed-by", []string{"other"}},
		{"app=nothing", []string{}},
	} {
		l, err := stsClient.List(ctx, metav1.ListOptions{LabelSelector: tc.selector})
		where := fmt.Sprintf("list statefulsets labelSelector=%q", tc.selector)
		if !must(c, where, err) {
			continue
		}
		names := []string{}
		for _, it := range l.Items {
			names = append(names, it.Name)
			if it.Name == "web" {
				c.eq(where+" web spec.replicas", deref(it.Spec.Replicas), int32(5))
				c.same(where+" item web", "update-response", "list-item", updated, &it)
			}
		}
		sort.Strings(names)
		c.eq(where+" names", names, tc.want)
		c.truth(where+" metadata.resourceVersion", l.ResourceVersion != "", "empty list resourceVersion")
		res.ListCounts[tc.selector] = len(l.Items)
	}
	step("statefulset.list")

	// Watch from a list's resourceVersion (label selector: only role=primary,app=pb-client, i.e. "web").
	sel := "app=pb-client,role=primary"
	l, err := stsClient.List(ctx, metav1.ListOptions{LabelSelector: sel})
	if !must(c, "list for watch", err) {
		return
	}
	watcher, err := stsClient.Watch(ctx, metav1.ListOptions{LabelSelector: sel, ResourceVersion: l.ResourceVersion, AllowWatchBookmarks: false})
	if !must(c, "watch statefulsets", err) {
		return
	}
	defer watcher.Stop()
	step("statefulset.watch")

	// A write the watch must NOT see (other label set), then the watched update and delete.
	rep, err := stsClient.Get(ctx, "web-replica", metav1.GetOptions{})
	if must(c, "get web-replica", err) {
		rep.Spec.Replicas = ptr(int32(4))
		_, err = stsClient.Update(ctx, rep, metav1.UpdateOptions{})
		must(c, "update web-replica", err)
	}
	cur, err := stsClient.Get(ctx, "web", metav1.GetOptions{})
	if !must(c, "get web before second update", err) {
		return
	}
	cur.Spec.Replicas = ptr(int32(7))
	cur.Spec.Template.Spec.Containers[0].Image = "postgres:16.3"
	updated2, err := stsClient.Update(ctx, cur, metav1.UpdateOptions{})
	if !must(c, "update statefulset web replicas=7", err) {
		return
	}
	step("statefulset.update2")
	if err := stsClient.Delete(ctx, "web", metav1.DeleteOptions{}); !must(c, "delete statefulset web", err) {
		return
	}
	step("statefulset.delete")

	var sawModified, sawDeleted bool
	timeout := time.NewTimer(15 * time.Second)
	defer timeout.Stop()
loop:
	for !(sawModified && sawDeleted) {
		select {
		case ev, ok := <-watcher.ResultChan():
			if !ok {
				c.fail("watch", "result channel closed early after %v", res.WatchEvents)
				break loop
			}
			if ev.Type == watch.Error {
				c.fail("watch", "ERROR event: %s", show(ev.Object))
				res.WatchEvents = append(res.WatchEvents, string(ev.Type))
				continue
			}
			s, isSts := ev.Object.(*appsv1.StatefulSet)
			if !c.truth("watch "+string(ev.Type)+" object type", isSts, "event object is %T, want *v1.StatefulSet", ev.Object) {
				continue
			}
			res.WatchEvents = append(res.WatchEvents, string(ev.Type)+" "+s.Name+" replicas="+fmt.Sprint(deref(s.Spec.Replicas)))
			c.eq("watch "+string(ev.Type)+" object name", s.Name, "web")
			switch ev.Type {
			case watch.Modified:
				if sawModified {
					continue
				}
				sawModified = true
				c.eq("watch MODIFIED spec.replicas", deref(s.Spec.Replicas), int32(7))
				c.same("watch MODIFIED object", "update-response", "event", updated2, s)
			case watch.Deleted:
				sawDeleted = true
				c.truth("watch order", sawModified, "DELETED arrived before MODIFIED")
				c.eq("watch DELETED spec.replicas", deref(s.Spec.Replicas), int32(7))
				c.eq("watch DELETED metadata.uid", s.UID, created.UID)
				c.eq("watch DELETED image", s.Spec.Template.Spec.Containers[0].Image, "postgres:16.3")
				c.roundTrip("watch DELETED object (fields sent at create)", s, withImageReplicas(want, "postgres:16.3", 7))
			default:
				c.fail("watch", "unexpected %s event for %s (list RV %s)", ev.Type, s.Name, l.ResourceVersion)
			}
		case <-timeout.C:
			c.fail("watch", "timed out after 15s waiting for MODIFIED and DELETED; saw %v", res.WatchEvents)
			break loop
		}
	}
	step("statefulset.watch-events")

	// After the delete: GET is a NotFound carried in a Status of the wire's type.
	_, err = stsClient.Get(ctx, "web", metav1.GetOptions{})
	c.truth("get deleted statefulset", apierrors.IsNotFound(err), "want NotFound, got %v", err)
	if err != nil {
		res.Errors["getDeleted"] = string(apierrors.ReasonForError(err))
		if se, ok := err.(apierrors.APIStatus); ok {
			st := se.Status()
			c.eq("NotFound status.code", st.Code, int32(404))
			c.eq("NotFound status.details.name", detailsName(st), "web")
			c.truth("NotFound status.message", strings.Contains(st.Message, "not found"), "message %q", st.Message)
		}
	}
	// Creating an existing name: AlreadyExists in a Status of the wire's type.
	_, err = stsClient.Create(ctx, statefulSet("web-replica", "replica", 1), metav1.CreateOptions{})
	c.truth("create duplicate statefulset", apierrors.IsAlreadyExists(err), "want AlreadyExists, got %v", err)
	if err != nil {
		res.Errors["createDuplicate"] = string(apierrors.ReasonForError(err))
	}
	l2, err := stsClient.List(ctx, metav1.ListOptions{})
	if must(c, "list after delete", err) {
		names := []string{}
		for _, it := range l2.Items {
			names = append(names, it.Name)
		}
		sort.Strings(names)
		c.eq("list after delete names", names, []string{"other", "web-replica"})
	}
	step("errors")

	// Every served kind: create, get, list, watch, status, delete (and, in protobuf, the bytes).
	everyKind(ctx, runEnv{c: c, res: res, cs: cs, js: js, bytes: w.name == "protobuf"})
	step("kinds")
	scaleRoundTrip(ctx, c, res, cs, "web-replica")
	step("scale")

	switch w.name {
	case "cbor":
		sameEncodings(ctx, c, cs, js)
		step("encoding")
	case "protobuf":
		sameProtobufEncodings(ctx, c, res, cs, js)
		step("encoding")
	}

	res.StatefulSet = map[string]any{
		"uid":                  string(created.UID),
		"createdRV":            created.ResourceVersion,
		"replicasAfterWatch":   deref(updated2.Spec.Replicas),
		"generation":           updated2.Generation,
		"containers":           len(got.Spec.Template.Spec.Containers),
		"ports":                len(got.Spec.Template.Spec.Containers[0].Ports),
		"env":                  len(got.Spec.Template.Spec.Containers[0].Env),
		"volumeClaimTemplates": len(got.Spec.VolumeClaimTemplates),
	}
}

func withImageReplicas(s *appsv1.StatefulSet, image string, replicas int32) *appsv1.StatefulSet {
	o := s.DeepCopy()
	o.Spec.Replicas = ptr(replicas)
	o.Spec.Template.Spec.Containers[0].Image = image
	return o
}

func detailsName(st metav1.Status) string {
	if st.Details == nil {
		return ""
	}
	return st.Details.Name
}

func deref(p *int32) int32 {
	if p == nil {
		return -1
	}
	return *p
}
