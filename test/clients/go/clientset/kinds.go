package main

import (
	"context"
	"fmt"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	storagev1 "k8s.io/api/storage/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
)

// object is what every served kind's typed struct is.
type object interface {
	runtime.Object
	metav1.Object
}

// kindClient is the part of a typed client every served kind has.
type kindClient[T object, L runtime.Object] interface {
	Create(ctx context.Context, obj T, opts metav1.CreateOptions) (T, error)
	Get(ctx context.Context, name string, opts metav1.GetOptions) (T, error)
	List(ctx context.Context, opts metav1.ListOptions) (L, error)
	Watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error)
	Delete(ctx context.Context, name string, opts metav1.DeleteOptions) error
}

// kindResult is what the run reports per resource.
type kindResult struct {
	Created  bool     `json:"created"`
	Got      bool     `json:"got"`
	Listed   int      `json:"listed"`
	Status   bool     `json:"status,omitempty"`
	Watched  []string `json:"watched"`
	Deleted  bool     `json:"deleted"`
	Encoding []string `json:"encoding,omitempty"`
}

// kindCase round-trips one object of one kind: watch from the list's resourceVersion, create,
// get, list, an optional status update, delete; every read is compared with what was sent, with
// the other reads and with a JSON read of the same object; the watch must deliver ADDED (and
// MODIFIED for a status update) then DELETED carrying the same object.
type kindCase[T object, L runtime.Object] struct {
	resource string
	// path and listPath are the object's and its list's URL paths, for the byte comparison.
	path, listPath string
	client         kindClient[T, L]
	json           kindClient[T, L]
	want           T
	// status, if set, sets the status on a copy of the created object and sends it to /status.
	// checkGet, if set, spot-checks the object read back.
	checkGet     func(got T, bytes bool)
	status       func(created T) (T, error)
	checkStatus  func(got T) // spot checks after the status update
	deleteEvents []watch.EventType
}

// runEnv is what every kind's round trip shares.
type runEnv struct {
	c      *checker
	res    *results
	cs, js kubernetes.Interface
	// bytes: also compare kapi's protobuf bytes with apimachinery's (protobuf mode).
	bytes bool
}

func roundTripKind[T object, L runtime.Object](ctx context.Context, e runEnv, k kindCase[T, L]) {
	c, res := e.c, e.res
	r := &kindResult{Watched: []string{}}
	res.Kinds[k.resource] = r
	name := k.want.GetName()
	where := func(s string) string { return k.resource + " " + s }
	l, err := k.client.List(ctx, metav1.ListOptions{})
	if !must(c, where("list before create"), err) {
		return
	}
	lm, err := meta.ListAccessor(l)
	if !must(c, where("list metadata"), err) {
		return
	}
	w, err := k.client.Watch(ctx, metav1.ListOptions{ResourceVersion: lm.GetResourceVersion(), FieldSelector: "metadata.name=" + name})
	if !must(c, where("watch"), err) {
		return
	}
	defer w.Stop()

	created, err := k.client.Create(ctx, k.want, metav1.CreateOptions{})
	if !must(c, where("create"), err) {
		return
	}
	r.Created = true
	c.roundTrip(where("create response"), created, k.want)
	got, err := k.client.Get(ctx, name, metav1.GetOptions{})
	if !must(c, where("get"), err) {
		return
	}
	r.Got = true
	c.roundTrip(where("get"), got, k.want)
	c.same(where("get"), "create-response", "get", created, got)
	if k.checkGet != nil {
		k.checkGet(got, e.bytes)
	}
	if jsGot, err := k.json.Get(ctx, name, metav1.GetOptions{}); must(c, where("get (json)"), err) {
		c.same(where("protobuf vs json"), "protobuf", "json", got, jsGot)
	}
	want := []watch.EventType{watch.Added}
	latest := got
	if k.status != nil {
		updated, err := k.status(got.DeepCopyObject().(T))
		if must(c, where("update status"), err) {
			r.Status = true
			latest = updated
			want = append(want, watch.Modified)
			if again, err := k.client.Get(ctx, name, metav1.GetOptions{}); must(c, where("get after status"), err) {
				c.same(where("get after status"), "status-response", "get", updated, again)
				k.checkStatus(again)
			}
		}
	}
	items, err := listItems[T](ctx, k.client)
	if must(c, where("list"), err) {
		for _, it := range items {
			if it.GetName() == name && it.GetNamespace() == k.want.GetNamespace() {
				r.Listed++
				c.same(where("list item"), "get", "list-item", latest, it)
			}
		}
	}
	if k.status != nil && r.Status {
		// The status round trip in JSON terms too.
		if jsGot, err := k.json.Get(ctx, name, metav1.GetOptions{}); must(c, where("get after status (json)"), err) {
			c.same(where("protobuf vs json after status"), "protobuf", "json", latest, jsGot)
		}
	}
	if e.bytes {
		for _, path := range []string{k.path, k.listPath} {
			if sameProtobufEncoding(ctx, c, e.cs, e.js, path) {
				r.Encoding = append(r.Encoding, path)
			}
		}
	}
	if !must(c, where("delete"), k.client.Delete(ctx, name, metav1.DeleteOptions{GracePeriodSeconds: ptr(int64(0))})) {
		return
	}
	r.Deleted = true
	want = append(want, k.deleteEvents...)

	timeout := time.NewTimer(15 * time.Second)
	defer timeout.Stop()
	for len(r.Watched) < len(want) {
		select {
		case ev, ok := <-w.ResultChan():
			if !ok {
				c.fail(where("watch"), "closed after %v", r.Watched)
				return
			}
			r.Watched = append(r.Watched, string(ev.Type))
			obj, isT := ev.Object.(T)
			if !c.truth(where("watch "+string(ev.Type)), isT, "event object is %T", ev.Object) {
				continue
			}
			c.eq(where("watch "+string(ev.Type)+" name"), obj.GetName(), name)
			switch ev.Type {
			case watch.Added:
				c.same(where("watch ADDED"), "create-response", "event", created, obj)
			case watch.Modified:
				if r.Status && len(r.Watched) == 2 {
					c.same(where("watch MODIFIED"), "status-response", "event", latest, obj)
				}
			case watch.Deleted:
				c.roundTrip(where("watch DELETED"), obj, k.want)
			}
		case <-timeout.C:
			c.fail(where("watch"), "timed out waiting for %v; saw %v", want, r.Watched)
			return
		}
	}
	c.eq(where("watch events"), r.Watched, eventNames(want))
}

func eventNames(ts []watch.EventType) []string {
	out := []string{}
	for _, t := range ts {
		out = append(out, string(t))
	}
	return out
}

// listItems lists with the client under test and returns the items as T.
func listItems[T object, L runtime.Object](ctx context.Context, client kindClient[T, L]) ([]T, error) {
	l, err := client.List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, err
	}
	objs, err := meta.ExtractList(l)
	if err != nil {
		return nil, err
	}
	out := make([]T, 0, len(objs))
	for _, o := range objs {
		t, ok := o.(T)
		if !ok {
			return nil, fmt.Errorf("list item is %T", o)
		}
		out = append(out, t)
	}
	return out, nil
}

var (
	tStart = metav1.NewTime(time.Date(2025, 3, 4, 5, 6, 7, 0, time.UTC))
	tOld   = metav1.NewTime(time.Date(1969, 7, 20, 20, 17, 40, 0, time.UTC))
)

// everyKind round-trips one object of every served resource through the clientset.
func everyKind(ctx context.Context, e runEnv) {
	c, cs, js := e.c, e.cs, e.js
	gone := []watch.EventType{watch.Deleted}
	core := "/api/v1/namespaces/" + ns
	apps := "/apis/apps/v1/namespaces/" + ns

	// namespaces: deleting one marks it Terminating (MODIFIED); the namespace controller then removes it.
	roundTripKind(ctx, e, kindCase[*corev1.Namespace, *corev1.NamespaceList]{
		resource: "namespaces", path: "/api/v1/namespaces/" + ns + "-rt", listPath: "/api/v1/namespaces", client: cs.CoreV1().Namespaces(), json: js.CoreV1().Namespaces(),
		want: &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns + "-rt", Labels: map[string]string{"kapi.dev/kind": "namespace"},
			Annotations: map[string]string{"kapi.dev/z": "\u2713 \U0001F600", "kapi.dev/a": "", "A": "x"}}},
		deleteEvents: []watch.EventType{watch.Modified, watch.Deleted},
	})

	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "pb-pod", Namespace: ns, Labels: map[string]string{"app": "pb-client"},
			Annotations: map[string]string{"kapi.dev/b": "2", "kapi.dev/a": "1"}},
		Spec: *statefulSet("pod-spec", "primary", 1).Spec.Template.Spec.DeepCopy(),
	}
	pod.Spec.Hostname = "pb-pod"
	// DefaultTolerationSeconds adds the not-ready toleration; sending it makes the round trip exact.
	pod.Spec.Tolerations = append(pod.Spec.Tolerations, corev1.Toleration{Key: "node.kubernetes.io/not-ready", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: ptr(int64(300))})
	// the template mounts "data", a claim template's volume in the StatefulSet
	pod.Spec.Volumes = append(pod.Spec.Volumes, corev1.Volume{Name: "data", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{SizeLimit: ptr(resource.MustParse("1Gi"))}}})
	pod.Spec.Containers[0].Resources.Requests[corev1.ResourceCPU] = resource.MustParse("0.25")
	// The ServiceAccount admission plugin's API access volume, sent as the plugin would add it
	// (a volume of its name prefix is taken as its own): the round trip stays exact, and the
	// projected sources cross the wire in this codec.
	const tokenPath = "/var/run/secrets/kubernetes.io/serviceaccount"
	pod.Spec.Volumes = append(pod.Spec.Volumes, corev1.Volume{Name: "kube-api-access-pbcli", VolumeSource: corev1.VolumeSource{Projected: &corev1.ProjectedVolumeSource{
		DefaultMode: ptr(int32(420)),
		Sources: []corev1.VolumeProjection{
			{ServiceAccountToken: &corev1.ServiceAccountTokenProjection{Path: "token", ExpirationSeconds: ptr(int64(3607))}},
			{ConfigMap: &corev1.ConfigMapProjection{LocalObjectReference: corev1.LocalObjectReference{Name: "kube-root-ca.crt"}, Items: []corev1.KeyToPath{{Key: "ca.crt", Path: "ca.crt"}}}},
			{DownwardAPI: &corev1.DownwardAPIProjection{Items: []corev1.DownwardAPIVolumeFile{{Path: "namespace", FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.namespace"}}}}},
		},
	}}})
	for i := range pod.Spec.InitContainers {
		pod.Spec.InitContainers[i].VolumeMounts = append(pod.Spec.InitContainers[i].VolumeMounts, corev1.VolumeMount{Name: "kube-api-access-pbcli", ReadOnly: true, MountPath: tokenPath})
	}
	for i := range pod.Spec.Containers {
		pod.Spec.Containers[i].VolumeMounts = append(pod.Spec.Containers[i].VolumeMounts, corev1.VolumeMount{Name: "kube-api-access-pbcli", ReadOnly: true, MountPath: tokenPath})
	}
	roundTripKind(ctx, e, kindCase[*corev1.Pod, *corev1.PodList]{
		resource: "pods", path: core + "/pods/pb-pod", listPath: core + "/pods", client: cs.CoreV1().Pods(ns), json: js.CoreV1().Pods(ns), want: pod,
		status: func(p *corev1.Pod) (*corev1.Pod, error) {
			p.Status.Phase = corev1.PodRunning
			p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: tStart, LastProbeTime: tOld}}
			p.Status.HostIP = "10.0.0.1"
			p.Status.HostIPs = []corev1.HostIP{{IP: "10.0.0.1"}}
			p.Status.PodIP = "10.1.0.5"
			p.Status.PodIPs = []corev1.PodIP{{IP: "10.1.0.5"}, {IP: "fd00::5"}}
			p.Status.StartTime = &tStart
			p.Status.ContainerStatuses = []corev1.ContainerStatus{{Name: "db", Ready: true, RestartCount: 3, Image: "postgres:16.2", ImageID: "sha256:1", Started: ptr(true),
				State:                corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: tStart}},
				LastTerminationState: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: -1, Signal: 9, Reason: "OOMKilled", StartedAt: tOld, FinishedAt: tStart}},
				AllocatedResources:   corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("250m")}}}
			return cs.CoreV1().Pods(ns).UpdateStatus(ctx, p, metav1.UpdateOptions{})
		},
		checkStatus: func(p *corev1.Pod) {
			c.eq("pods status.phase", p.Status.Phase, corev1.PodRunning)
			c.eq("pods status.startTime", p.Status.StartTime != nil && p.Status.StartTime.Equal(&tStart), true)
			if c.truth("pods status.containerStatuses", len(p.Status.ContainerStatuses) == 1, "got %d", len(p.Status.ContainerStatuses)) {
				s := p.Status.ContainerStatuses[0]
				c.eq("pods lastState.terminated.exitCode", s.LastTerminationState.Terminated != nil && s.LastTerminationState.Terminated.ExitCode == -1, true)
				c.eq("pods lastState.terminated.startedAt (before 1970)", s.LastTerminationState.Terminated != nil && s.LastTerminationState.Terminated.StartedAt.Equal(&tOld), true)
				q := s.AllocatedResources[corev1.ResourceCPU]
				c.eq("pods allocatedResources.cpu", q.String(), "250m")
			}
		},
		// A pod's delete sets deletionTimestamp first (MODIFIED), as kube does, then removes it.
		deleteEvents: []watch.EventType{watch.Modified, watch.Deleted},
	})

	pvc := &corev1.PersistentVolumeClaim{
		ObjectMeta: metav1.ObjectMeta{Name: "pb-pvc", Namespace: ns},
		Spec: corev1.PersistentVolumeClaimSpec{AccessModes: []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce, corev1.ReadOnlyMany},
			Resources:        corev1.VolumeResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceStorage: resource.MustParse("5Gi")}},
			StorageClassName: ptr(""), VolumeMode: ptr(corev1.PersistentVolumeBlock),
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"disk": "ssd"}}},
	}
	roundTripKind(ctx, e, kindCase[*corev1.PersistentVolumeClaim, *corev1.PersistentVolumeClaimList]{
		resource: "persistentvolumeclaims", path: core + "/persistentvolumeclaims/pb-pvc", listPath: core + "/persistentvolumeclaims", client: cs.CoreV1().PersistentVolumeClaims(ns), json: js.CoreV1().PersistentVolumeClaims(ns), want: pvc,
		status: func(p *corev1.PersistentVolumeClaim) (*corev1.PersistentVolumeClaim, error) {
			p.Status.Phase = corev1.ClaimBound
			p.Status.AccessModes = []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce}
			p.Status.Capacity = corev1.ResourceList{corev1.ResourceStorage: resource.MustParse("5Gi")}
			p.Status.Conditions = []corev1.PersistentVolumeClaimCondition{{Type: corev1.PersistentVolumeClaimResizing, Status: corev1.ConditionTrue, LastTransitionTime: tStart}}
			return cs.CoreV1().PersistentVolumeClaims(ns).UpdateStatus(ctx, p, metav1.UpdateOptions{})
		},
		checkStatus: func(p *corev1.PersistentVolumeClaim) {
			q := p.Status.Capacity[corev1.ResourceStorage]
			c.eq("persistentvolumeclaims status.capacity.storage", q.String(), "5Gi")
		},
		// The pvc-protection finalizer: the delete marks the claim, the protection controller then lets it go.
		deleteEvents: []watch.EventType{watch.Modified, watch.Deleted},
	})

	roundTripKind(ctx, e, kindCase[*appsv1.ControllerRevision, *appsv1.ControllerRevisionList]{
		resource: "controllerrevisions", path: apps + "/controllerrevisions/pb-rev-1", listPath: apps + "/controllerrevisions", client: cs.AppsV1().ControllerRevisions(ns), json: js.AppsV1().ControllerRevisions(ns),
		want: &appsv1.ControllerRevision{ObjectMeta: metav1.ObjectMeta{Name: "pb-rev-1", Namespace: ns, Labels: map[string]string{"controller.kubernetes.io/hash": "1"}},
			Data:     runtime.RawExtension{Raw: []byte(`{"spec":{"template":{"$patch":"replace","spec":{"containers":[{"name":"c","command":["sh","-c","a && b"]}]}}},"n":[1,2.5,true]}`)},
			Revision: 4},
		checkGet: func(got *appsv1.ControllerRevision, bytes bool) {
			// In protobuf the JSON text travels as it was sent (CBOR transcodes it).
			if bytes {
				c.eq("controllerrevisions data (protobuf raw)", string(got.Data.Raw), `{"spec":{"template":{"$patch":"replace","spec":{"containers":[{"name":"c","command":["sh","-c","a && b"]}]}}},"n":[1,2.5,true]}`)
			}
		},
		deleteEvents: gone,
	})

	roundTripKind(ctx, e, kindCase[*appsv1.StatefulSet, *appsv1.StatefulSetList]{
		resource: "statefulsets", path: apps + "/statefulsets/pb-sts", listPath: apps + "/statefulsets", client: cs.AppsV1().StatefulSets(ns), json: js.AppsV1().StatefulSets(ns), want: statefulSet("pb-sts", "replica", 2),
		status: func(s *appsv1.StatefulSet) (*appsv1.StatefulSet, error) {
			s.Status = appsv1.StatefulSetStatus{ObservedGeneration: 1, Replicas: 2, ReadyReplicas: 1, CurrentReplicas: 2, UpdatedReplicas: 2, AvailableReplicas: 1,
				CurrentRevision: "pb-sts-1", UpdateRevision: "pb-sts-1", CollisionCount: ptr(int32(0)),
				Conditions: []appsv1.StatefulSetCondition{{Type: "Progressing", Status: corev1.ConditionTrue, LastTransitionTime: tStart, Reason: "r"}}}
			return cs.AppsV1().StatefulSets(ns).UpdateStatus(ctx, s, metav1.UpdateOptions{})
		},
		checkStatus: func(s *appsv1.StatefulSet) {
			c.eq("statefulsets status.readyReplicas", s.Status.ReadyReplicas, int32(1))
			c.eq("statefulsets status.collisionCount", s.Status.CollisionCount != nil && *s.Status.CollisionCount == 0, true)
		},
		deleteEvents: gone,
	})

	roundTripKind(ctx, e, kindCase[*policyv1.PodDisruptionBudget, *policyv1.PodDisruptionBudgetList]{
		resource: "poddisruptionbudgets", path: "/apis/policy/v1/namespaces/" + ns + "/poddisruptionbudgets/pb-pdb-rt", listPath: "/apis/policy/v1/namespaces/" + ns + "/poddisruptionbudgets", client: cs.PolicyV1().PodDisruptionBudgets(ns), json: js.PolicyV1().PodDisruptionBudgets(ns),
		want: &policyv1.PodDisruptionBudget{ObjectMeta: metav1.ObjectMeta{Name: "pb-pdb-rt", Namespace: ns},
			Spec: policyv1.PodDisruptionBudgetSpec{MaxUnavailable: ptr(intstr.FromString("30%")),
				Selector: &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "app", Operator: metav1.LabelSelectorOpIn, Values: []string{"a", "b"}}}}}},
		status: func(p *policyv1.PodDisruptionBudget) (*policyv1.PodDisruptionBudget, error) {
			p.Status = policyv1.PodDisruptionBudgetStatus{ObservedGeneration: 1, DisruptionsAllowed: 1, CurrentHealthy: 3, DesiredHealthy: 2, ExpectedPods: 3,
				DisruptedPods: map[string]metav1.Time{"pod-b": tStart, "pod-a": tOld},
				Conditions:    []metav1.Condition{{Type: "DisruptionAllowed", Status: metav1.ConditionTrue, ObservedGeneration: 1, LastTransitionTime: tStart, Reason: "SufficientPods", Message: ""}}}
			return cs.PolicyV1().PodDisruptionBudgets(ns).UpdateStatus(ctx, p, metav1.UpdateOptions{})
		},
		checkStatus: func(p *policyv1.PodDisruptionBudget) {
			t := p.Status.DisruptedPods["pod-a"]
			c.eq("poddisruptionbudgets status.disruptedPods[pod-a]", t.Equal(&tOld), true)
		},
		deleteEvents: gone,
	})

	roundTripKind(ctx, e, kindCase[*schedulingv1.PriorityClass, *schedulingv1.PriorityClassList]{
		resource: "priorityclasses", path: "/apis/scheduling.k8s.io/v1/priorityclasses/pb-client-rt", listPath: "/apis/scheduling.k8s.io/v1/priorityclasses", client: cs.SchedulingV1().PriorityClasses(), json: js.SchedulingV1().PriorityClasses(),
		want:         &schedulingv1.PriorityClass{ObjectMeta: metav1.ObjectMeta{Name: "pb-client-rt"}, Value: -1000, Description: "round trip", PreemptionPolicy: ptr(corev1.PreemptLowerPriority)},
		deleteEvents: gone,
	})

	rbac := "/apis/rbac.authorization.k8s.io/v1"
	rules := []rbacv1.PolicyRule{{Verbs: []string{"get", "list"}, APIGroups: []string{"apps", "policy"}, Resources: []string{"statefulsets/scale", "poddisruptionbudgets"}, ResourceNames: []string{"a"}}}
	roundTripKind(ctx, e, kindCase[*rbacv1.Role, *rbacv1.RoleList]{
		resource: "roles", path: rbac + "/namespaces/" + ns + "/roles/pb-role", listPath: rbac + "/namespaces/" + ns + "/roles", client: cs.RbacV1().Roles(ns), json: js.RbacV1().Roles(ns),
		want: &rbacv1.Role{ObjectMeta: metav1.ObjectMeta{Name: "pb-role", Namespace: ns}, Rules: rules}, deleteEvents: gone,
	})
	roundTripKind(ctx, e, kindCase[*rbacv1.ClusterRole, *rbacv1.ClusterRoleList]{
		resource: "clusterroles", path: rbac + "/clusterroles/pb-client-aggregated", listPath: rbac + "/clusterroles", client: cs.RbacV1().ClusterRoles(), json: js.RbacV1().ClusterRoles(),
		want: &rbacv1.ClusterRole{ObjectMeta: metav1.ObjectMeta{Name: "pb-client-aggregated"},
			// Nothing carries the label: the aggregation controller leaves the rules empty.
			AggregationRule: &rbacv1.AggregationRule{ClusterRoleSelectors: []metav1.LabelSelector{{MatchLabels: map[string]string{"kapi.dev/aggregate-to-nothing": "true"}}}}},
		deleteEvents: gone,
	})
	subjects := []rbacv1.Subject{{Kind: "User", APIGroup: "rbac.authorization.k8s.io", Name: "alice"}, {Kind: "ServiceAccount", Name: "default", Namespace: ns}}
	roundTripKind(ctx, e, kindCase[*rbacv1.RoleBinding, *rbacv1.RoleBindingList]{
		resource: "rolebindings", path: rbac + "/namespaces/" + ns + "/rolebindings/pb-binding", listPath: rbac + "/namespaces/" + ns + "/rolebindings", client: cs.RbacV1().RoleBindings(ns), json: js.RbacV1().RoleBindings(ns),
		want:         &rbacv1.RoleBinding{ObjectMeta: metav1.ObjectMeta{Name: "pb-binding", Namespace: ns}, Subjects: subjects, RoleRef: rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "ClusterRole", Name: "view"}},
		deleteEvents: gone,
	})
	roundTripKind(ctx, e, kindCase[*rbacv1.ClusterRoleBinding, *rbacv1.ClusterRoleBindingList]{
		resource: "clusterrolebindings", path: rbac + "/clusterrolebindings/pb-client-binding", listPath: rbac + "/clusterrolebindings", client: cs.RbacV1().ClusterRoleBindings(), json: js.RbacV1().ClusterRoleBindings(),
		want:         &rbacv1.ClusterRoleBinding{ObjectMeta: metav1.ObjectMeta{Name: "pb-client-binding"}, Subjects: subjects, RoleRef: rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "ClusterRole", Name: "view"}},
		deleteEvents: gone,
	})
	roundTripKind(ctx, e, kindCase[*corev1.ServiceAccount, *corev1.ServiceAccountList]{
		resource: "serviceaccounts", path: core + "/serviceaccounts/pb-sa", listPath: core + "/serviceaccounts", client: cs.CoreV1().ServiceAccounts(ns), json: js.CoreV1().ServiceAccounts(ns),
		want: &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "pb-sa", Namespace: ns}, ImagePullSecrets: []corev1.LocalObjectReference{{Name: "regcred"}},
			Secrets: []corev1.ObjectReference{{Name: "old-token"}}, AutomountServiceAccountToken: ptr(false)},
		deleteEvents: gone,
	})
	renew := metav1.NewMicroTime(time.Date(2025, 6, 7, 8, 9, 10, 123456000, time.UTC))
	roundTripKind(ctx, e, kindCase[*coordinationv1.Lease, *coordinationv1.LeaseList]{
		resource: "leases", path: "/apis/coordination.k8s.io/v1/namespaces/" + ns + "/leases/pb-lease-rt", listPath: "/apis/coordination.k8s.io/v1/namespaces/" + ns + "/leases", client: cs.CoordinationV1().Leases(ns), json: js.CoordinationV1().Leases(ns),
		want: &coordinationv1.Lease{ObjectMeta: metav1.ObjectMeta{Name: "pb-lease-rt", Namespace: ns},
			Spec: coordinationv1.LeaseSpec{HolderIdentity: ptr("pb-client"), LeaseDurationSeconds: ptr(int32(15)), AcquireTime: &renew, RenewTime: &renew, LeaseTransitions: ptr(int32(2))}},
		deleteEvents: gone,
	})
	workflowKinds(ctx, e)
}

// workflowKinds round-trips the kinds the controllers' workflow uses: Service, Node, Event (core
// and events.k8s.io), PersistentVolume, StorageClass and IPAddress, then binds a pod.
func workflowKinds(ctx context.Context, e runEnv) {
	c, cs, js := e.c, e.cs, e.js
	gone := []watch.EventType{watch.Deleted}
	core := "/api/v1/namespaces/" + ns
	micro := metav1.NewMicroTime(time.Date(2025, 3, 4, 5, 6, 7, 123456000, time.UTC))

	single := corev1.IPFamilyPolicySingleStack
	svc := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: "pb-svc", Namespace: ns, Labels: map[string]string{"app": "web"}},
		Spec: corev1.ServiceSpec{Type: corev1.ServiceTypeNodePort, Selector: map[string]string{"app": "web"}, IPFamilyPolicy: &single,
			Ports: []corev1.ServicePort{{Name: "http", Port: 80, TargetPort: intstr.FromString("web"), Protocol: corev1.ProtocolTCP, AppProtocol: ptr("http")},
				{Name: "dns", Port: 53, TargetPort: intstr.FromInt32(5353), Protocol: corev1.ProtocolUDP}},
			SessionAffinity: corev1.ServiceAffinityClientIP, SessionAffinityConfig: &corev1.SessionAffinityConfig{ClientIP: &corev1.ClientIPConfig{TimeoutSeconds: ptr(int32(600))}},
			PublishNotReadyAddresses: true}}
	roundTripKind(ctx, e, kindCase[*corev1.Service, *corev1.ServiceList]{
		resource: "services", path: core + "/services/pb-svc", listPath: core + "/services", client: cs.CoreV1().Services(ns), json: js.CoreV1().Services(ns), want: svc,
		checkGet: func(got *corev1.Service, _ bool) {
			c.truth("services clusterIP allocated", got.Spec.ClusterIP != "" && len(got.Spec.ClusterIPs) == 1 && got.Spec.ClusterIPs[0] == got.Spec.ClusterIP, "clusterIP %q clusterIPs %v", got.Spec.ClusterIP, got.Spec.ClusterIPs)
			c.truth("services nodePorts allocated", got.Spec.Ports[0].NodePort >= 30000 && got.Spec.Ports[1].NodePort >= 30000, "nodePorts %d %d", got.Spec.Ports[0].NodePort, got.Spec.Ports[1].NodePort)
		},
		status: func(s *corev1.Service) (*corev1.Service, error) {
			s.Status.Conditions = []metav1.Condition{{Type: "Ready", Status: metav1.ConditionTrue, ObservedGeneration: 1, LastTransitionTime: tStart, Reason: "Ok", Message: ""}}
			return cs.CoreV1().Services(ns).UpdateStatus(ctx, s, metav1.UpdateOptions{})
		},
		checkStatus: func(s *corev1.Service) {
			c.eq("services status.conditions", len(s.Status.Conditions), 1)
		},
		deleteEvents: gone,
	})

	node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: ns + "-node", Labels: map[string]string{"kubernetes.io/hostname": ns + "-node", "node-role.kubernetes.io/worker": ""}},
		Spec: corev1.NodeSpec{PodCIDR: "10.244.7.0/24", PodCIDRs: []string{"10.244.7.0/24"}, ProviderID: "kapi://" + ns,
			// The TaintNodesByCondition admission adds the not-ready taint to every new node.
			Taints: []corev1.Taint{{Key: "node.kubernetes.io/not-ready", Effect: corev1.TaintEffectNoSchedule}}},
		Status: corev1.NodeStatus{Capacity: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("4"), corev1.ResourceMemory: resource.MustParse("8Gi"), corev1.ResourcePods: resource.MustParse("110")},
			Addresses:       []corev1.NodeAddress{{Type: corev1.NodeInternalIP, Address: "10.0.0.7"}, {Type: corev1.NodeHostName, Address: ns + "-node"}},
			DaemonEndpoints: corev1.NodeDaemonEndpoints{KubeletEndpoint: corev1.DaemonEndpoint{Port: 10250}},
			NodeInfo:        corev1.NodeSystemInfo{KubeletVersion: "v1.33.0", OSImage: "kapi", OperatingSystem: "linux", Architecture: "amd64", ContainerRuntimeVersion: "kapi://0.1"}}}
	roundTripKind(ctx, e, kindCase[*corev1.Node, *corev1.NodeList]{
		resource: "nodes", path: "/api/v1/nodes/" + node.Name, listPath: "/api/v1/nodes", client: cs.CoreV1().Nodes(), json: js.CoreV1().Nodes(), want: node,
		checkGet: func(got *corev1.Node, _ bool) {
			q := got.Status.Allocatable[corev1.ResourceCPU]
			c.eq("nodes allocatable defaults to capacity", q.String(), "4")
		},
		status: func(n *corev1.Node) (*corev1.Node, error) {
			n.Status.Conditions = []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue, LastHeartbeatTime: tStart, LastTransitionTime: tOld, Reason: "KubeletReady", Message: "ready"}}
			return cs.CoreV1().Nodes().UpdateStatus(ctx, n, metav1.UpdateOptions{})
		},
		checkStatus: func(n *corev1.Node) {
			c.eq("nodes Ready", len(n.Status.Conditions) == 1 && n.Status.Conditions[0].Status == corev1.ConditionTrue, true)
		},
		deleteEvents: gone,
	})

	roundTripKind(ctx, e, kindCase[*corev1.Event, *corev1.EventList]{
		resource: "events", path: core + "/events/pb-ev", listPath: core + "/events", client: cs.CoreV1().Events(ns), json: js.CoreV1().Events(ns),
		want: &corev1.Event{ObjectMeta: metav1.ObjectMeta{Name: "pb-ev", Namespace: ns},
			InvolvedObject: corev1.ObjectReference{Kind: "Pod", Namespace: ns, Name: "pb-pod", UID: "u", APIVersion: "v1", FieldPath: "spec.containers{db}"},
			Reason:         "Started", Message: "Started container db", Source: corev1.EventSource{Component: "kubelet", Host: "n1"}, FirstTimestamp: tOld, LastTimestamp: tStart, Count: 2, Type: corev1.EventTypeNormal},
		deleteEvents: gone,
	})

	roundTripKind(ctx, e, kindCase[*eventsv1.Event, *eventsv1.EventList]{
		resource: "events.events.k8s.io", path: "/apis/events.k8s.io/v1/namespaces/" + ns + "/events/pb-ev1", listPath: "/apis/events.k8s.io/v1/namespaces/" + ns + "/events",
		client: cs.EventsV1().Events(ns), json: js.EventsV1().Events(ns),
		want: &eventsv1.Event{ObjectMeta: metav1.ObjectMeta{Name: "pb-ev1", Namespace: ns}, EventTime: micro, ReportingController: "kapi.io/scheduler", ReportingInstance: "kapi-0",
			Action: "Binding", Reason: "Scheduled", Regarding: corev1.ObjectReference{Kind: "Pod", Namespace: ns, Name: "pb-pod"}, Related: &corev1.ObjectReference{Kind: "Node", Name: "n1"},
			Note: "Successfully assigned", Type: "Normal", Series: &eventsv1.EventSeries{Count: 2, LastObservedTime: micro}},
		checkGet: func(got *eventsv1.Event, _ bool) {
			// The same object read through core/v1.
			if core, err := cs.CoreV1().Events(ns).Get(ctx, "pb-ev1", metav1.GetOptions{}); must(c, "events.k8s.io event as core/v1", err) {
				c.eq("core/v1 view message", core.Message, "Successfully assigned")
				c.eq("core/v1 view reportingComponent", core.ReportingController, "kapi.io/scheduler")
				c.eq("core/v1 view involvedObject.name", core.InvolvedObject.Name, "pb-pod")
			}
		},
		deleteEvents: gone,
	})

	fs := corev1.PersistentVolumeFilesystem
	roundTripKind(ctx, e, kindCase[*corev1.PersistentVolume, *corev1.PersistentVolumeList]{
		resource: "persistentvolumes", path: "/api/v1/persistentvolumes/" + ns + "-pv", listPath: "/api/v1/persistentvolumes", client: cs.CoreV1().PersistentVolumes(), json: js.CoreV1().PersistentVolumes(),
		want: &corev1.PersistentVolume{ObjectMeta: metav1.ObjectMeta{Name: ns + "-pv", Labels: map[string]string{"disk": "ssd"}},
			Spec: corev1.PersistentVolumeSpec{Capacity: corev1.ResourceList{corev1.ResourceStorage: resource.MustParse("5Gi")},
				PersistentVolumeSource: corev1.PersistentVolumeSource{CSI: &corev1.CSIPersistentVolumeSource{Driver: "csi.kapi.io", VolumeHandle: "h1", FSType: "ext4", VolumeAttributes: map[string]string{"k": "v"}}},
				AccessModes:            []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce}, PersistentVolumeReclaimPolicy: corev1.PersistentVolumeReclaimDelete, StorageClassName: "standard", VolumeMode: &fs,
				ClaimRef:     &corev1.ObjectReference{Kind: "PersistentVolumeClaim", Namespace: ns, Name: "data", APIVersion: "v1"},
				NodeAffinity: &corev1.VolumeNodeAffinity{Required: &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchExpressions: []corev1.NodeSelectorRequirement{{Key: "kubernetes.io/hostname", Operator: corev1.NodeSelectorOpIn, Values: []string{"n1"}}}}}}}}},
		status: func(pv *corev1.PersistentVolume) (*corev1.PersistentVolume, error) {
			pv.Status.Phase = corev1.VolumeBound
			return cs.CoreV1().PersistentVolumes().UpdateStatus(ctx, pv, metav1.UpdateOptions{})
		},
		checkStatus: func(pv *corev1.PersistentVolume) {
			c.eq("persistentvolumes status.phase", pv.Status.Phase, corev1.VolumeBound)
			c.truth("persistentvolumes lastPhaseTransitionTime", pv.Status.LastPhaseTransitionTime != nil, "unset")
		},
		// A Bound volume keeps its pv-protection finalizer: the delete only marks it (MODIFIED),
		// as on kube, whose protection controller lets a volume go once nothing is bound to it.
		deleteEvents: []watch.EventType{watch.Modified},
	})

	wait := storagev1.VolumeBindingWaitForFirstConsumer
	retain := corev1.PersistentVolumeReclaimRetain
	roundTripKind(ctx, e, kindCase[*storagev1.StorageClass, *storagev1.StorageClassList]{
		resource: "storageclasses", path: "/apis/storage.k8s.io/v1/storageclasses/" + ns + "-sc", listPath: "/apis/storage.k8s.io/v1/storageclasses", client: cs.StorageV1().StorageClasses(), json: js.StorageV1().StorageClasses(),
		want: &storagev1.StorageClass{ObjectMeta: metav1.ObjectMeta{Name: ns + "-sc"}, Provisioner: "kapi.io/simulated", Parameters: map[string]string{"type": "fast"}, ReclaimPolicy: &retain,
			MountOptions: []string{"noatime"}, AllowVolumeExpansion: ptr(true), VolumeBindingMode: &wait,
			AllowedTopologies: []corev1.TopologySelectorTerm{{MatchLabelExpressions: []corev1.TopologySelectorLabelRequirement{{Key: "zone", Values: []string{"a"}}}}}},
		deleteEvents: gone,
	})

	roundTripKind(ctx, e, kindCase[*networkingv1.IPAddress, *networkingv1.IPAddressList]{
		resource: "ipaddresses", path: "/apis/networking.k8s.io/v1/ipaddresses/10.96.200.1", listPath: "/apis/networking.k8s.io/v1/ipaddresses", client: cs.NetworkingV1().IPAddresses(), json: js.NetworkingV1().IPAddresses(),
		want:         &networkingv1.IPAddress{ObjectMeta: metav1.ObjectMeta{Name: "10.96.200.1"}, Spec: networkingv1.IPAddressSpec{ParentRef: &networkingv1.ParentReference{Resource: "services", Namespace: ns, Name: "reserved"}}},
		deleteEvents: gone,
	})

	bindPod(ctx, c, cs)
}

// bindPod binds a pod through pods/binding (as a scheduler does) and checks the second bind is a Conflict.
func bindPod(ctx context.Context, c *checker, cs kubernetes.Interface) {
	pods := cs.CoreV1().Pods(ns)
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "pb-bind", Namespace: ns}, Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "nginx"}}}}
	if _, err := pods.Create(ctx, pod, metav1.CreateOptions{}); !must(c, "bind: create pod", err) {
		return
	}
	b := &corev1.Binding{ObjectMeta: metav1.ObjectMeta{Name: "pb-bind", Namespace: ns, Annotations: map[string]string{"kapi.dev/bound-by": "client-go"}}, Target: corev1.ObjectReference{Kind: "Node", Name: "n1"}}
	if must(c, "bind", pods.Bind(ctx, b, metav1.CreateOptions{})) {
		if got, err := pods.Get(ctx, "pb-bind", metav1.GetOptions{}); must(c, "bind: get", err) {
			c.eq("bind: spec.nodeName", got.Spec.NodeName, "n1")
			c.eq("bind: annotation", got.Annotations["kapi.dev/bound-by"], "client-go")
			scheduled := false
			for _, cond := range got.Status.Conditions {
				if cond.Type == corev1.PodScheduled && cond.Status == corev1.ConditionTrue {
					scheduled = true
				}
			}
			c.eq("bind: PodScheduled", scheduled, true)
		}
		err := pods.Bind(ctx, b, metav1.CreateOptions{})
		c.truth("bind again: Conflict", apierrors.IsConflict(err), "got %v", err)
	}
	must(c, "bind: delete pod", pods.Delete(ctx, "pb-bind", metav1.DeleteOptions{GracePeriodSeconds: ptr(int64(0))}))
}

// scaleRoundTrip reads and writes a StatefulSet's autoscaling/v1 Scale through the clientset.
func scaleRoundTrip(ctx context.Context, c *checker, res *results, cs kubernetes.Interface, name string) {
	sts := cs.AppsV1().StatefulSets(ns)
	s, err := sts.GetScale(ctx, name, metav1.GetOptions{})
	if !must(c, "get scale", err) {
		return
	}
	c.eq("scale name", s.Name, name)
	c.truth("scale status.selector", s.Status.Selector != "", "empty selector")
	upd := &autoscalingv1.Scale{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, ResourceVersion: s.ResourceVersion}, Spec: autoscalingv1.ScaleSpec{Replicas: 6}}
	got, err := sts.UpdateScale(ctx, name, upd, metav1.UpdateOptions{})
	if !must(c, "update scale", err) {
		return
	}
	c.eq("update scale spec.replicas", got.Spec.Replicas, int32(6))
	if after, err := sts.Get(ctx, name, metav1.GetOptions{}); must(c, "get after scale", err) {
		c.eq("statefulset spec.replicas after scale", deref(after.Spec.Replicas), int32(6))
	}
	res.Scale = map[string]any{"before": s.Spec.Replicas, "after": got.Spec.Replicas}
}
