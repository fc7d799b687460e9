// Command checker decides whether a kapi chaos history is linearizable, with porcupine (the
// checker etcd's robustness tests use). Each object is a register with compare-and-swap on its
// resourceVersion: create, update (with or without a resourceVersion precondition), delete
// (with or without one) and consistent reads. An operation whose outcome is unknown (a timeout,
// a reset connection, a 5xx) may or may not have taken effect: it has no return time (it is
// concurrent with everything after its call) and the model lets it either apply or not, as
// porcupine's models of ambiguous operations do.
//
// An update with a precondition is a compare-and-swap (a PUT carrying a resourceVersion: 409
// when the object changed or is missing); one without is unconditional (a merge patch: 404
// when the object is missing).
//
// Input (a JSON file, argv[1]): {"ops": [{"client": 0, "key": "k1", "call": 10, "return": 20,
// "input": {"op": "update", "value": "v7", "precondition": 12}, "output": {"status": "ok",
// "rv": 15}}]} where return -1 means unknown, times are nanoseconds, and a status is ok,
// exists, conflict, notfound or unknown. Output (stdout, JSON): the overall result and each
// key's (ok, illegal or unknown for a check that timed out), and for an illegal key the
// longest linearizable prefix found and the operations right after it. With -html DIR, the
// visualization of every illegal key is written to DIR/<key>.html.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/anishathalye/porcupine"
)

type input struct {
	Op           string `json:"op"` // create, update, delete, read
	Value        string `json:"value,omitempty"`
	Precondition int64  `json:"precondition,omitempty"` // 0: none
}

type output struct {
	Status string `json:"status"` // ok, exists, conflict, notfound, unknown
	Value  string `json:"value,omitempty"`
	Rv     int64  `json:"rv,omitempty"` // 0: not known
}

type op struct {
	ID     int    `json:"id"`
	Client int    `json:"client"`
	Key    string `json:"key"`
	Call   int64  `json:"call"`
	Return int64  `json:"return"`
	Input  input  `json:"input"`
	Output output `json:"output"`
}

type history struct {
	Ops []op `json:"ops"`
}

// state is one object: absent, or present with a value and the resourceVersion that wrote it
// (0 while not known: an ambiguous write whose revision nobody observed).
type state struct {
	Exists bool
	Value  string
	Rv     int64
}

func (s state) String() string {
	if !s.Exists {
		return "absent"
	}
	if s.Rv == 0 {
		return fmt.Sprintf("%s@?", s.Value)
	}
	return fmt.Sprintf("%s@%d", s.Value, s.Rv)
}

// preconditionHolds: no precondition, or it names the current resourceVersion (or that is unknown).
func preconditionHolds(s state, pre int64) bool {
	return pre == 0 || s.Rv == 0 || s.Rv == pre
}

// newerRv: a write's resourceVersion is later than the one it replaced (when both are known).
func newerRv(s state, rv int64) bool {
	return rv == 0 || s.Rv == 0 || rv > s.Rv
}

func step(st interface{}, in interface{}, out interface{}) []interface{} {
	s := st.(state)
	i := in.(input)
	o := out.(output)
	applied := func() state {
		switch i.Op {
		case "create", "update":
			return state{Exists: true, Value: i.Value, Rv: o.Rv}
		default:
			return state{}
		}
	}
	switch i.Op {
	case "create":
		switch o.Status {
		case "ok":
			if !s.Exists {
				return []interface{}{applied()}
			}
		case "exists":
			if s.Exists {
				return []interface{}{s}
			}
		case "unknown":
			if !s.Exists {
				return []interface{}{s, applied()}
			}
			return []interface{}{s}
		}
	case "update":
		// With a precondition (a PUT carrying a resourceVersion) a missing object is a
		// conflict; without one (a patch) it is not found.
		canApply := s.Exists && preconditionHolds(s, i.Precondition) && newerRv(s, o.Rv)
		switch o.Status {
		case "notfound":
			if !s.Exists && i.Precondition == 0 {
				return []interface{}{s}
			}
		case "ok":
			if canApply {
				return []interface{}{applied()}
			}
		case "conflict":
			if i.Precondition != 0 && (!s.Exists || s.Rv == 0 || s.Rv != i.Precondition) {
				return []interface{}{s}
			}
		case "unknown":
			if canApply {
				return []interface{}{s, applied()}
			}
			return []interface{}{s}
		}
	case "delete":
		canApply := s.Exists && preconditionHolds(s, i.Precondition)
		switch o.Status {
		case "ok":
			if canApply {
				return []interface{}{applied()}
			}
		case "conflict":
			if s.Exists && i.Precondition != 0 && (s.Rv == 0 || s.Rv != i.Precondition) {
				return []interface{}{s}
			}
		case "notfound":
			if !s.Exists {
				return []interface{}{s}
			}
		case "unknown":
			if canApply {
				return []interface{}{s, applied()}
			}
			return []interface{}{s}
		}
	case "read":
		switch o.Status {
		case "ok":
			if s.Exists && s.Value == o.Value && (s.Rv == 0 || s.Rv == o.Rv) {
				// A read learns the revision of an ambiguous write.
				return []interface{}{state{Exists: true, Value: o.Value, Rv: o.Rv}}
			}
		case "notfound":
			if !s.Exists {
				return []interface{}{s}
			}
		}
	}
	return nil
}

func describe(in interface{}, out interface{}) string {
	i := in.(input)
	o := out.(output)
	res := o.Status
	if o.Status == "ok" && o.Rv != 0 {
		res = fmt.Sprintf("ok@%d", o.Rv)
	}
	if o.Status == "ok" && i.Op == "read" {
		res = fmt.Sprintf("%s@%d", o.Value, o.Rv)
	}
	switch i.Op {
	case "create":
		return fmt.Sprintf("create(%s) -> %s", i.Value, res)
	case "update":
		if i.Precondition != 0 {
			return fmt.Sprintf("update(%s, if rv=%d) -> %s", i.Value, i.Precondition, res)
		}
		return fmt.Sprintf("update(%s) -> %s", i.Value, res)
	case "delete":
		if i.Precondition != 0 {
			return fmt.Sprintf("delete(if rv=%d) -> %s", i.Precondition, res)
		}
		return fmt.Sprintf("delete() -> %s", res)
	default:
		return fmt.Sprintf("read() -> %s", res)
	}
}

var model = porcupine.NondeterministicModel{
	Init:              func() []interface{} { return []interface{}{state{}} },
	Step:              step,
	Equal:             func(a, b interface{}) bool { return a.(state) == b.(state) },
	DescribeOperation: describe,
	DescribeState:     func(s interface{}) string { return s.(state).String() },
}

type keyResult struct {
	Key    string `json:"key"`
	Result string `json:"result"`
	Ops    int    `json:"ops"`
	// For an illegal key: how many operations the longest linearization found covers, and the
	// operations (ids) that none of the longest linearizations could place next.
	Linearized int      `json:"linearized,omitempty"`
	Stuck      []int    `json:"stuck,omitempty"`
	Path       []string `json:"linearization,omitempty"`
	HTML       string   `json:"html,omitempty"`
}

type report struct {
	Result string      `json:"result"`
	Ops    int         `json:"ops"`
	Keys   []keyResult `json:"keys"`
}

func main() {
	htmlDir := flag.String("html", "", "write the visualization of each illegal key here")
	timeout := flag.Duration("timeout", 2*time.Minute, "give up on one key after this long (result unknown)")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: checker [-html DIR] [-timeout D] history.json")
		os.Exit(2)
	}
	data, err := os.ReadFile(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	var h history
	if err := json.Unmarshal(data, &h); err != nil {
		fmt.Fprintln(os.Stderr, "bad history:", err)
		os.Exit(2)
	}
	byKey := map[string][]porcupine.Operation{}
	ids := map[string][]int{}
	for _, o := range h.Ops {
		ret := o.Return
		if ret < 0 {
			ret = math.MaxInt64
		}
		byKey[o.Key] = append(byKey[o.Key], porcupine.Operation{ClientId: o.Client, Input: o.Input, Call: o.Call, Output: o.Output, Return: ret, Metadata: o.ID})
		ids[o.Key] = append(ids[o.Key], o.ID)
	}
	keys := make([]string, 0, len(byKey))
	for k := range byKey {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	m := model.ToModel()
	m.DescribeOperationMetadata = func(info interface{}) string { return fmt.Sprintf("op %v", info) }
	rep := report{Result: "ok", Ops: len(h.Ops)}
	for _, k := range keys {
		ops := byKey[k]
		res, info := porcupine.CheckOperationsVerbose(m, ops, *timeout)
		kr := keyResult{Key: k, Ops: len(ops)}
		switch res {
		case porcupine.Ok:
			kr.Result = "ok"
		case porcupine.Illegal:
			kr.Result = "illegal"
			rep.Result = "illegal"
			explain(&kr, ops, info)
			if *htmlDir != "" {
				path := filepath.Join(*htmlDir, fmt.Sprintf("%s.html", k))
				if err := porcupine.VisualizePath(m, info, path); err == nil {
					kr.HTML = path
				}
			}
		default:
			kr.Result = "unknown"
			if rep.Result == "ok" {
				rep.Result = "unknown"
			}
		}
		rep.Keys = append(rep.Keys, kr)
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	_ = enc.Encode(rep)
}

// explain finds the longest partial linearization and the operations that could not follow it.
func explain(kr *keyResult, ops []porcupine.Operation, info porcupine.LinearizationInfo) {
	best := []int{}
	for _, partition := range info.PartialLinearizations() {
		for _, lin := range partition {
			if len(lin) > len(best) {
				best = lin
			}
		}
	}
	kr.Linearized = len(best)
	done := map[int]bool{}
	s := []interface{}{state{}}
	for _, i := range best {
		done[i] = true
		o := ops[i]
		var next []interface{}
		for _, st := range s {
			next = append(next, step(st, o.Input, o.Output)...)
		}
		s = next
		kr.Path = append(kr.Path, fmt.Sprintf("op %v %s", o.Metadata, describe(o.Input, o.Output)))
	}
	// The operations that must come next: those not linearized whose call is earliest.
	minReturn := int64(math.MaxInt64)
	for i, o := range ops {
		if !done[i] && o.Return < minReturn {
			minReturn = o.Return
		}
	}
	for i, o := range ops {
		if !done[i] && o.Call <= minReturn {
			kr.Stuck = append(kr.Stuck, o.Metadata.(int))
		}
	}
}
