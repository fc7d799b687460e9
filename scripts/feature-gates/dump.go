// Prints kube-apiserver v1.33.13's feature gates at emulation version 1.33, one per line:
// name, stage (empty for GA), default, lockToDefault, version of that spec.
package main

import (
	"fmt"
	"sort"

	_ "k8s.io/kubernetes/cmd/kube-apiserver/app"
	"k8s.io/apiserver/pkg/util/feature"
	"k8s.io/component-base/featuregate"
	"k8s.io/apimachinery/pkg/util/version"
)

func main() {
	all := feature.DefaultMutableFeatureGate.GetAllVersioned()
	names := []string{}
	for k := range all {
		names = append(names, string(k))
	}
	sort.Strings(names)
	v133 := version.MustParse("1.33")
	for _, n := range names {
		specs := all[featuregate.Feature(n)]
		var cur *featuregate.FeatureSpec
		for i := range specs {
			if specs[i].Version == nil || !specs[i].Version.GreaterThan(v133) {
				cur = &specs[i]
			}
		}
		if cur == nil {
			fmt.Printf("%s\tPREALPHA\tfalse\tfalse\t\n", n)
			continue
		}
		ver := ""
		if cur.Version != nil { ver = cur.Version.String() }
		fmt.Printf("%s\t%s\t%t\t%t\t%s\n", n, cur.PreRelease, cur.Default, cur.LockToDefault, ver)
	}
}
