package main

import (
	"bytes"
	"context"
	"reflect"

	fxcbor "github.com/fxamacker/cbor/v2"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	kcbor "k8s.io/apimachinery/pkg/runtime/serializer/cbor"
	"k8s.io/client-go/kubernetes"
)

const cborMT = "application/cbor"

// sameEncodings compares kapi's CBOR bytes with apimachinery's encoder for objects the run
// left behind.
func sameEncodings(ctx context.Context, c *checker, cs, js kubernetes.Interface) {
	for _, path := range []string{
		"/api/v1/namespaces/" + ns,
		"/apis/scheduling.k8s.io/v1/priorityclasses/pb-client-high",
		"/apis/policy/v1/namespaces/" + ns + "/poddisruptionbudgets/pb-client-pdb",
		"/apis/apps/v1/namespaces/" + ns + "/statefulsets/web-replica",
	} {
		sameEncoding(ctx, c, cs, js, path)
	}
}

// sameEncoding reads `path` in CBOR (kapi's bytes) and in JSON, encodes the JSON object
// with apimachinery's CBOR serializer as kube-apiserver does for a response
// (nondeterministic map order), and compares the two after putting both in one canonical
// form (maps sorted; each string keeps its major type, each number its kind).
func sameEncoding(ctx context.Context, c *checker, cs, js kubernetes.Interface, path string) {
	raw, err := cs.CoreV1().RESTClient().Get().AbsPath(path).SetHeader("Accept", cborMT).DoRaw(ctx)
	if !must(c, "encoding get cbor "+path, err) {
		return
	}
	jsonRaw, err := js.CoreV1().RESTClient().Get().AbsPath(path).SetHeader("Accept", "application/json").DoRaw(ctx)
	if !must(c, "encoding get json "+path, err) {
		return
	}
	// Unstructured, so that only the CBOR layer is compared: a typed round trip would also
	// add the Go zero values kube's JSON shows, which is the JSON layer's business.
	obj := &unstructured.Unstructured{}
	if !must(c, "encoding decode json "+path, obj.UnmarshalJSON(jsonRaw)) {
		return
	}
	var want bytes.Buffer
	if !must(c, "encoding encode "+path, kcbor.NewSerializer(nil, nil).EncodeNondeterministic(obj, &want)) {
		return
	}
	c.truth("encoding prefix "+path, bytes.HasPrefix(raw, []byte{0xd9, 0xd9, 0xf7}), "kapi's CBOR does not start with the self-described tag: %x", raw[:min(len(raw), 8)])
	a, errA := canonicalCBOR(raw)
	b, errB := canonicalCBOR(want.Bytes())
	if !must(c, "encoding canonical kapi "+path, errA) || !must(c, "encoding canonical kube "+path, errB) {
		return
	}
	if !bytes.Equal(a, b) {
		da, _ := fxcbor.Diagnose(a)
		db, _ := fxcbor.Diagnose(b)
		i := 0
		for i < len(da) && i < len(db) && da[i] == db[i] {
			i++
		}
		from := max(0, i-200)
		c.truth("encoding "+path, false, "kapi's CBOR differs from apimachinery's (canonical diagnostic notation, from the first difference):\n kapi ...%s\n kube ...%s", da[from:min(len(da), i+200)], db[from:min(len(db), i+200)])
		return
	}
	c.count()
}

var canonicalDec, _ = fxcbor.DecOptions{DefaultByteStringType: reflect.TypeOf([]byte(nil)), IntDec: fxcbor.IntDecConvertNone}.DecMode()
var canonicalEnc, _ = fxcbor.EncOptions{Sort: fxcbor.SortBytewiseLexical, ShortestFloat: fxcbor.ShortestFloat16}.EncMode()

func canonicalCBOR(b []byte) ([]byte, error) {
	var v any
	if err := canonicalDec.Unmarshal(b, &v); err != nil {
		return nil, err
	}
	return canonicalEnc.Marshal(v)
}
