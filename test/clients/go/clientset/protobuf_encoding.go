package main

import (
	"bytes"
	"context"
	"encoding/hex"

	pbser "k8s.io/apimachinery/pkg/runtime/serializer/protobuf"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/scheme"
)

const protobufMT = "application/vnd.kubernetes.protobuf"

var protobufSerializer = pbser.NewSerializer(scheme.Scheme, scheme.Scheme)

// sameProtobufEncoding reads `path` in protobuf (kapi's bytes) and in JSON, decodes the JSON
// into its Go type and encodes that with apimachinery's protobuf serializer, as kube-apiserver
// does for a response, and wants the same bytes: Go's field order, zero values, sorted map keys.
func sameProtobufEncoding(ctx context.Context, c *checker, cs, js kubernetes.Interface, path string) bool {
	raw, err := cs.CoreV1().RESTClient().Get().AbsPath(path).SetHeader("Accept", protobufMT).DoRaw(ctx)
	if !must(c, "encoding get protobuf "+path, err) {
		return false
	}
	jsonRaw, err := js.CoreV1().RESTClient().Get().AbsPath(path).SetHeader("Accept", "application/json").DoRaw(ctx)
	if !must(c, "encoding get json "+path, err) {
		return false
	}
	obj, gvk, err := scheme.Codecs.UniversalDeserializer().Decode(jsonRaw, nil, nil)
	if !must(c, "encoding decode json "+path, err) {
		return false
	}
	obj.GetObjectKind().SetGroupVersionKind(*gvk)
	var want bytes.Buffer
	if !must(c, "encoding encode "+path, protobufSerializer.Encode(obj, &want)) {
		return false
	}
	if bytes.Equal(raw, want.Bytes()) {
		c.count()
		return true
	}
	i := 0
	for i < len(raw) && i < len(want.Bytes()) && raw[i] == want.Bytes()[i] {
		i++
	}
	from := max(0, i-48)
	c.fail("encoding "+path, "kapi's protobuf (%d bytes) differs from apimachinery's (%d bytes) at byte %d:\n kapi ...%s\n kube ...%s",
		len(raw), want.Len(), i, hex.EncodeToString(raw[from:min(len(raw), i+48)]), hex.EncodeToString(want.Bytes()[from:min(want.Len(), i+48)]))
	return false
}

// sameProtobufEncodings compares the objects and lists the run left behind.
func sameProtobufEncodings(ctx context.Context, c *checker, res *results, cs, js kubernetes.Interface) {
	for _, path := range []string{
		"/api/v1/namespaces/" + ns,
		"/api/v1/namespaces",
		"/apis/scheduling.k8s.io/v1/priorityclasses/pb-client-high",
		"/apis/scheduling.k8s.io/v1/priorityclasses",
		"/apis/policy/v1/namespaces/" + ns + "/poddisruptionbudgets/pb-client-pdb",
		"/apis/policy/v1/namespaces/" + ns + "/poddisruptionbudgets",
		"/apis/apps/v1/namespaces/" + ns + "/statefulsets/web-replica",
		"/apis/apps/v1/namespaces/" + ns + "/statefulsets",
		"/apis/apps/v1/namespaces/" + ns + "/statefulsets/web-replica/scale",
	} {
		if sameProtobufEncoding(ctx, c, cs, js, path) {
			res.Encodings = append(res.Encodings, path)
		}
	}
}
