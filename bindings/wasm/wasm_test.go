//go:build !js

package main

// The tests of the WebAssembly build run on the machine's own GOOS: they
// build ploy.wasm with GOOS=js GOARCH=wasm, then drive it through
// ploy.mjs in Node (here) and in Chromium (browser_test.go), and check
// what it answers against package host run natively.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/ploy-ai/ploy/bindings/host"
	"github.com/ploy-ai/ploy/internal/testkit/buildonce"
)

// RequireNodeEnv, set to "1", makes a missing Node fail TestNode instead of
// skipping it: .ci/run sets it.
const RequireNodeEnv = "PLOY_REQUIRE_NODE"

// built is ploy.wasm and wasm_exec.js, built once per test run in a
// directory removed when it ends.
var built = buildonce.Dir{Pattern: "ploy-wasm-"}

func TestMain(m *testing.M) {
	code := m.Run()
	built.Remove()
	os.Exit(code)
}

// buildWasm builds ploy.wasm into a directory, once for all the tests, and
// copies Go's wasm_exec.js beside it. -short skips the tests that need it:
// the build takes a while.
func buildWasm(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds ploy.wasm: -short skips it")
	}
	return built.Get(t, func(dir string) error {
		build := exec.Command("go", "build", "-o", filepath.Join(dir, "ploy.wasm"), ".")
		build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
		if out, err := build.CombinedOutput(); err != nil {
			return fmt.Errorf("GOOS=js GOARCH=wasm go build ./bindings/wasm: %v\n%s", err, out)
		}
		goroot, err := exec.Command("go", "env", "GOROOT").Output()
		if err != nil {
			return fmt.Errorf("go env GOROOT: %v", err)
		}
		support, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec.js"))
		if err != nil {
			return fmt.Errorf("Go's wasm_exec.js: %v", err)
		}
		return os.WriteFile(filepath.Join(dir, "wasm_exec.js"), support, 0o644)
	})
}

// findNode returns Node's path, or skips the test (fails it with
// PLOY_REQUIRE_NODE=1).
func findNode(t testing.TB) string {
	t.Helper()
	if path, err := findNodePath(); err == nil {
		return path
	}
	msg := "runs ploy.wasm in Node, and no node on the PATH: install it with\n\tsudo apt-get install -y nodejs   (Debian, Ubuntu)"
	if os.Getenv(RequireNodeEnv) == "1" {
		t.Fatalf("%s; %s=1 requires it", msg, RequireNodeEnv)
	}
	t.Skip(msg)
	return ""
}

func findNodePath() (string, error) {
	path, err := exec.LookPath("node")
	if err != nil {
		path, err = exec.LookPath("nodejs")
	}
	return path, err
}

func node(t *testing.T, args ...string) []byte {
	t.Helper()
	return nodeOutput(t, findNode(t), args...)
}

func nodeOutput(t testing.TB, path string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(path, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node %s: %v\n%s\n%.4000s", strings.Join(args, " "), err, stderr.Bytes(), out)
	}
	return out
}

func shipped(t testing.TB, name string) string {
	return filepath.Join("..", "..", "domains", name)
}

func loadNative(t testing.TB, name string) host.Handle {
	t.Helper()
	src, err := os.ReadFile(shipped(t, name))
	if err != nil {
		t.Fatal(err)
	}
	d, err := host.Load(src, name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { host.Release(d) })
	return d
}

// nodeRun is what testdata/node_test.mjs prints.
type nodeRun struct {
	MissingWasm    thrown
	SameAgain      bool
	Version        string
	PlanText       string
	Plan           planAnswer
	Kinds, Methods []string
	Events         map[string]json.RawMessage
	Decisions      string
	Survivor       struct {
		Lost, North bool
		Warmth      float64
		Events      []struct{ Kind, Action, Target, Reason string }
	}
	Sliced struct {
		Slice         int
		Whole, Sliced slicedCamp
	}
	PDDL            planAnswer
	Errors          map[string]thrown
	ReleasedText    string
	PlanAfterErrors planAnswer
	Leaked          *int
}

type planAnswer struct {
	Status string
	Plan   []string
	Cost   float64
}

// slicedCamp is a camp of survivors node_test.mjs ran: each frame's
// plans made and stats, and each agent's plan_made and no_plan events.
type slicedCamp struct {
	Stats []struct {
		Made int
		host.FrameStatsJSON
	}
	Plans [][]string
}

// thrown is an error the script caught (or a raw function returned).
type thrown struct {
	Thrown        string
	Message       string
	PloyError     bool
	IsError       bool
	Field         string
	Status        int
	ReturnedError string
	Returned      any
}

// TestNode drives ploy.wasm from Node through ploy.mjs: the battle mage's
// Kill planned at cost 7, byte for byte the native answer; an agent of
// each of the file's kinds making exactly the native agent's decisions;
// a recording as the native one; a resolver agent walking; a PDDL plan;
// every error thrown as a PloyError that says what is wrong, with no
// handle leaked and ploy working after them.
func TestNode(t *testing.T) {
	findNode(t) // skips before the build when there is no Node
	dir := buildWasm(t)
	out := node(t, filepath.Join("testdata", "node_test.mjs"), dir, shipped(t, "battlemage.yaml"), shipped(t, "survivor.yaml"))
	var got nodeRun
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("the script's output: %v\n%.2000s", err, out)
	}
	mage := loadNative(t, "battlemage.yaml")

	if m := got.MissingWasm; !m.PloyError || !strings.Contains(m.Message, "cannot read ploy.wasm at "+filepath.Join(dir, "missing.wasm")) || !strings.Contains(m.Message, "GOOS=js GOARCH=wasm go build") {
		t.Errorf("a missing ploy.wasm: %+v", m)
	}
	if !got.SameAgain {
		t.Error("a second ploy.load() made another ploy")
	}
	if got.Version == "" {
		t.Error("version() is empty")
	}
	if want := string(host.Call(mage, "plan", []byte(`{"goal":"Kill"}`))); got.PlanText != want {
		t.Errorf("plan Kill's text: %q\nnatively %q", got.PlanText, want)
	}
	if p := got.Plan; p.Status != "found" || p.Cost != 7 || !slices.Equal(p.Plan, []string{"Approach", "TakeCover", "Recharge", "CastBolt"}) {
		t.Errorf("plan Kill: %+v, want Approach, TakeCover, Recharge, CastBolt at cost 7", p)
	}
	kinds, _ := host.Kinds(mage)
	if !slices.Equal(got.Kinds, kinds) {
		t.Errorf("kinds %q, natively %q", got.Kinds, kinds)
	}
	methods, _ := host.Methods(mage)
	if !slices.Equal(got.Methods, methods) {
		t.Errorf("methods %q, natively %q", got.Methods, methods)
	}

	for _, kind := range kinds {
		want := nativeEvents(t, mage, kind)
		if !sameJSON(t, got.Events[kind], want) {
			t.Errorf("%s: the agent's events in Node:\n%s\nnatively:\n%s", kind, got.Events[kind], want)
		}
	}
	if want := nativeRecording(t, mage); got.Decisions != want {
		t.Errorf("the recording in Node:\n%s\nnatively:\n%s", got.Decisions, want)
	}

	s := got.Survivor
	lostEvent := slices.ContainsFunc(s.Events, func(e struct{ Kind, Action, Target, Reason string }) bool {
		return e.Kind == "target_lost" && e.Action == "GatherWoodSouth" && e.Target == "wood_south" && e.Reason == "not found"
	})
	if !s.Lost || !s.North || s.Warmth < 50 || !lostEvent {
		t.Errorf("the survivor: lost %v, walked north %v, warmth %v, a target_lost event %v: %+v", s.Lost, s.North, s.Warmth, lostEvent, s.Events)
	}
	if p := got.PDDL; p.Status != "found" || p.Cost != 2 || !slices.Equal(p.Plan, []string{"(flip a)", "(flip b)"}) {
		t.Errorf("the PDDL plan: %+v", p)
	}

	for label, want := range map[string]struct {
		says          string
		field         string
		status        int
		returnedError bool
	}{
		"bad yaml":                  {says: `mine.yaml:5:15: unknown fact "b"`},
		"source a number":           {says: "load: source must be a string or a Uint8Array, not 42"},
		"source too large":          {says: "load: big.yaml is 9437184 bytes or more, more than the 8388608 a domain file may have"},
		"bad pddl":                  {says: "p.pddl:1:1: "},
		"unknown goal":              {says: `unknown goal "Kil"; did you mean "Kill"?`, field: "goal", status: 400},
		"unknown method":            {says: `unknown method "walk"`, field: "method", status: 404},
		"malformed request":         {says: "malformed JSON", status: 400},
		"request too large":         {says: "the request body is larger than 1048576 bytes", status: 413},
		"a source in the request":   {says: "send no source", field: "source", status: 400},
		"handle a string":           {says: `call: domain must be a handle (a Number), not the string "1"`},
		"handle a fraction":         {says: "agentAction: agent must be a handle (a whole Number from 0), not 1.5"},
		"handle negative":           {says: "release: handle must be a handle (a whole Number from 0), not -1"},
		"world of a world":          {says: "is a world, not a domain"},
		"no workers":                {says: "workers must be from 1 to 64, not 0"},
		"unknown kind":              {says: `did you mean "goap"?`},
		"unknown fact":              {says: `battlemage.yaml has no fact or input "in_rnge"; did you mean "in_range"?`},
		"NaN":                       {says: "health = NaN: a value must be a finite number"},
		"value a string":            {says: `agentSet: value must be a number or a boolean, not the string "full"`},
		"report idle":               {says: `agent "goap-1" runs no action`},
		"report a bad status":       {says: `agentReport: status must be "running", "success", "failure" or their numbers 0, 1, 2, not the string "done"`},
		"report a bad number":       {says: "status 7: report 0 (running), 1 (success) or 2 (failure)"},
		"position of a GOAP agent":  {says: "positions are for an engine-model file's agents"},
		"found not a boolean":       {says: `agentSetTarget: found must be true or false, not the string "yes"`},
		"record late":               {says: "call Record before adding agents"},
		"slice negative":            {says: "slice -1: a slice is 0 (none) or a number of chain expansions"},
		"slice a fraction":          {says: "worldSetSlice: expansions must be a whole number, not 1.5"},
		"slice a string":            {says: `worldSetSlice: expansions must be a whole number, not the string "4"`},
		"slice of a domain":         {says: "is a domain, not a world"},
		"share zero":                {says: "share 0: a share is at least 1 plan a worker"},
		"share a fraction":          {says: "worldSetMinShare: share must be a whole number, not 1.5"},
		"stats of a domain":         {says: "is a domain, not a world"},
		"decisions unrecorded":      {says: "records no decisions"},
		"raw too many arguments":    {says: "version takes 0 arguments, not 1", returnedError: true},
		"handle a BigInt":           {says: "worldFrame: argument 1 is a BigInt, which ploy takes nowhere (a handle or a number is a Number)"},
		"request a cycle":           {says: "call: the request cannot be sent as JSON: Converting circular structure to JSON"},
		"request a BigInt":          {says: "call: the request cannot be sent as JSON: Do not know how to serialize a BigInt"},
		"request a function":        {says: "call: the request must be an object or its JSON text, not a function"},
		"agent of a released world": {says: "no such handle"},
		"released domain":           {says: "no such handle", status: 404},
	} {
		e, ok := got.Errors[label]
		switch {
		case !ok:
			t.Errorf("%s: not tried", label)
		case want.returnedError:
			if !strings.Contains(e.ReturnedError, want.says) {
				t.Errorf("%s: %+v, want an Error returned saying %q", label, e, want.says)
			}
		case !e.PloyError || !e.IsError || e.Thrown != "PloyError" || !strings.Contains(e.Message, want.says):
			t.Errorf("%s: %+v, want a PloyError saying %q", label, e, want.says)
		case e.Field != want.field || e.Status != want.status:
			t.Errorf("%s: field %q, status %d; want %q, %d", label, e.Field, e.Status, want.field, want.status)
		}
	}
	if len(got.Errors) != 39 {
		t.Errorf("%d errors tried, the test checks 39", len(got.Errors))
	}
	checkSlicedCamps(t, got.Sliced.Slice, got.Sliced.Whole, got.Sliced.Sliced)
	if !strings.Contains(got.ReleasedText, "no such handle") || !strings.HasSuffix(got.ReleasedText, `"status":404}`+"\n") {
		t.Errorf("callText on a released domain: %q", got.ReleasedText)
	}
	if p := got.PlanAfterErrors; p.Status != "found" || p.Cost != 7 {
		t.Errorf("plan Kill after the errors: %+v", p)
	}
	if got.Leaked == nil || *got.Leaked != 0 {
		t.Errorf("handles leaked: %v", got.Leaked)
	}
}

// checkSlicedCamps checks the survivors' camp node_test.mjs ran sliced
// against the one it ran whole: each agent's plans are the same, in the
// same order (the sliced camp ran three times the frames, and caught
// up); no sliced frame expanded more than PlansPerFrame × slice chains,
// though a whole frame did; searches were suspended, and the first
// sliced frame made fewer plans.
func checkSlicedCamps(t *testing.T, slice int, whole, sliced slicedCamp) {
	t.Helper()
	if len(whole.Stats) == 0 || len(sliced.Stats) == 0 || len(whole.Plans) != len(sliced.Plans) || slice < 1 {
		t.Fatalf("the sliced camps: %d and %d frames, %d and %d agents, slice %d", len(whole.Stats), len(sliced.Stats), len(whole.Plans), len(sliced.Plans), slice)
	}
	bound := host.PlansPerFrame * slice
	mostWhole, suspended := 0, 0
	for _, st := range whole.Stats {
		mostWhole = max(mostWhole, st.Chains)
		if st.Slice != 0 || st.Suspended != 0 {
			t.Fatalf("a whole frame: %+v", st)
		}
	}
	if whole.Stats[0].Workers != 2 {
		t.Errorf("the whole camp's first frame, every agent asking: ran on %d workers, want its 2", whole.Stats[0].Workers)
	}
	for f, st := range sliced.Stats {
		if st.Workers != 1 {
			t.Fatalf("sliced frame %d ran on %d workers; its share keeps every frame on one", f, st.Workers)
		}
		if st.Slice != slice || st.Chains > bound || st.Ended+st.Suspended != st.Taken {
			t.Fatalf("sliced frame %d: %+v, want slice %d and at most %d chains", f, st, slice, bound)
		}
		suspended += st.Suspended
	}
	if mostWhole <= bound || suspended == 0 || sliced.Stats[0].Made >= whole.Stats[0].Made {
		t.Fatalf("whole frames up to %d chains (bound %d); %d suspensions; first frames made %d sliced, %d whole",
			mostWhole, bound, suspended, sliced.Stats[0].Made, whole.Stats[0].Made)
	}
	plans := 0
	for i := range whole.Plans {
		w, s := whole.Plans[i], sliced.Plans[i]
		if len(s) < len(w) || !slices.Equal(w, s[:len(w)]) {
			t.Fatalf("agent s%d's plans: whole\n%s\nsliced\n%s", i, strings.Join(w, "\n"), strings.Join(s, "\n"))
		}
		plans += len(w)
	}
	if plans < len(whole.Plans) {
		t.Fatalf("only %d plans compared", plans)
	}
	t.Logf("sliced camp in Node: %d plans compared, %d suspensions, whole frames up to %d chains", plans, suspended, mostWhole)
}

// nativeEvents runs an agent of kind natively as node_test.mjs runs it in
// Node: each action runs two frames, then succeeds.
func nativeEvents(t *testing.T, d host.Handle, kind string) []byte {
	t.Helper()
	w, err := host.NewWorld(d, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer host.Release(w)
	a, err := host.NewAgent(w, kind, "mage")
	if err != nil {
		t.Fatal(err)
	}
	running := 0
	var events []json.RawMessage
	for range 40 {
		if _, err := host.Frame(w); err != nil {
			t.Fatal(err)
		}
		_, doing, err := host.Action(a)
		if err != nil {
			t.Fatal(err)
		}
		if doing != host.Acting {
			running = 0
		} else {
			running++
			status := host.Running
			if running >= 2 {
				status, running = host.Success, 0
			}
			if err := host.Report(a, status); err != nil {
				t.Fatal(err)
			}
		}
		raw, err := host.Events(a)
		if err != nil {
			t.Fatal(err)
		}
		var batch struct{ Events []json.RawMessage }
		if err := json.Unmarshal(raw, &batch); err != nil {
			t.Fatal(err)
		}
		events = append(events, batch.Events...)
	}
	if len(events) == 0 {
		t.Fatalf("%s: the native agent made no decision", kind)
	}
	b, _ := json.Marshal(events)
	return b
}

// nativeRecording records a GOAP agent as node_test.mjs does.
func nativeRecording(t *testing.T, d host.Handle) string {
	t.Helper()
	w, err := host.NewWorld(d, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer host.Release(w)
	if err := host.Record(w, 0, 0); err != nil {
		t.Fatal(err)
	}
	a, err := host.NewAgent(w, "goap", "recorded")
	if err != nil {
		t.Fatal(err)
	}
	if err := host.TraceDecisions(a, true); err != nil {
		t.Fatal(err)
	}
	for range 10 {
		host.Frame(w)
		if _, doing, _ := host.Action(a); doing == host.Acting {
			host.Report(a, host.Success)
		}
	}
	b, err := host.Decisions(w)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Count(b, []byte("\n")) < 2 {
		t.Fatalf("the native recording has no decision: %s", b)
	}
	return string(b)
}

func sameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Errorf("%v: %.200s", err, a)
		return false
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Errorf("%v: %.200s", err, b)
		return false
	}
	return reflect.DeepEqual(x, y)
}

var example struct {
	once sync.Once
	out  string
}

// nodeExample is examples/wasm/node.mjs's output, run once for the tests
// that read it ("" when there is no Node).
func nodeExample(t *testing.T) string {
	t.Helper()
	dir := buildWasm(t)
	example.once.Do(func() {
		t.Run("node.mjs", func(t *testing.T) {
			example.out = string(node(t, filepath.Join("..", "..", "examples", "wasm", "node.mjs"), dir))
		})
	})
	return example.out
}

// kindLine is a line of examples/wasm/node.mjs's output about one kind.
var kindLine = regexp.MustCompile(`(?m)^([a-z-]+): (\d+) agents, (\d+) kills, (\d+) potions drunk, (\d+) actions, (\d+) plans, lowest health (\d+)$`)

// TestNodeExample runs examples/wasm/node.mjs, the Node script docs/wasm.md
// shows: it plans Kill at cost 7, and ten agents of every kind of the
// file fight in its tiny world, each kind killing enemies.
func TestNodeExample(t *testing.T) {
	findNode(t)
	out := nodeExample(t)
	if !strings.Contains(out, "plan Kill: Approach → TakeCover → Recharge → CastBolt (cost 7, 11 states expanded)\n") {
		t.Errorf("no Kill plan at cost 7:\n%s", out)
	}
	if !strings.Contains(out, "battle: 50 agents for 300 frames, ") {
		t.Errorf("no battle of 50 agents:\n%s", out)
	}
	mage := loadNative(t, "battlemage.yaml")
	kinds, _ := host.Kinds(mage)
	var seen []string
	for _, m := range kindLine.FindAllStringSubmatch(out, -1) {
		seen = append(seen, m[1])
		agents, _ := strconv.Atoi(m[2])
		kills, _ := strconv.Atoi(m[3])
		actions, _ := strconv.Atoi(m[5])
		if agents != 10 || kills < agents || actions < kills {
			t.Errorf("%s: %d agents killed %d enemies in %d actions; want 10 agents, each killing", m[1], agents, kills, actions)
		}
	}
	if !slices.Equal(seen, kinds) {
		t.Errorf("kinds reported %q, the file's %q:\n%s", seen, kinds, out)
	}
}
