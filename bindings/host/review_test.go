package host_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/ploy-ai/ploy/bindings/host"
)

// TestHuntReportIsTheAction: a perform_while_moving step (the survivor's
// Hunt) is Acting while the agent walks. The engine's Success is the
// hunt's, not an arrival: the agent far from the deer must not "reach"
// it, and the step completes once the engine's position is within reach,
// with no second report.
func TestHuntReportIsTheAction(t *testing.T) {
	d := load(t, "survivor.yaml")
	w, _ := host.NewWorld(d, 1)
	defer host.Release(w)
	a, _ := host.NewAgent(w, "survivor", "")
	// Warm enough, starving, no berries: the survivor hunts the deer,
	// 20 m east, its stopping distance 10.
	for k, v := range map[string]float64{"warmth": 100, "hunger": 100} {
		if err := host.Set(a, k, v); err != nil {
			t.Fatal(err)
		}
	}
	if err := host.SetTarget(a, "berries", 0, 0, false); err != nil {
		t.Fatal(err)
	}
	if err := host.SetTarget(a, "deer", 20, 0, true); err != nil {
		t.Fatal(err)
	}
	hunting := false
	for range 5 {
		host.Frame(w)
		if name, doing, _ := host.Action(a); name == "Hunt" && doing == host.Acting {
			hunting = true
			break
		}
	}
	if !hunting {
		st, _ := host.State(a)
		t.Fatalf("the survivor does not hunt: %s", st)
	}
	if x, y, walking, _ := host.Destination(a); !walking || x != 20 || y != 0 {
		t.Fatalf("hunting, headed to (%v, %v), walking %v: want the deer at (20, 0)", x, y, walking)
	}
	host.Events(a)
	if err := host.Set(a, "has_food", 1); err != nil {
		t.Fatal(err)
	}
	if err := host.Report(a, host.Success); err != nil {
		t.Fatal(err)
	}
	host.Frame(w)
	ev, _ := host.Events(a)
	if strings.Contains(string(ev), `"target_reached"`) {
		t.Fatalf("the hunt's success was taken for an arrival 20 m from the deer: %s", ev)
	}
	if err := host.SetPosition(a, 11, 0); err != nil { // 9 m from the deer
		t.Fatal(err)
	}
	host.Frame(w)
	ev, _ = host.Events(a)
	if !strings.Contains(string(ev), `"kind":"step_done","goal":"Fed","action":"Hunt"`) {
		st, _ := host.State(a)
		t.Fatalf("within reach after the hunt succeeded, the step is not done: %s\n%s", ev, st)
	}
}

// TestDefaultNamesAreNotReused: an agent named by default (KIND-N) keeps
// a name no other agent of its world has had, after others leave, so
// that its events and its decisions in a recording are its own.
func TestDefaultNamesAreNotReused(t *testing.T) {
	d := load(t, "battlemage.yaml")
	w, _ := host.NewWorld(d, 1)
	defer host.Release(w)
	var agents []host.Handle
	for range 3 {
		a := newAgent(t, w, "goap", "")
		agents = append(agents, a)
	}
	host.Release(agents[0])
	a := newAgent(t, w, "goap", "")
	names := map[string]bool{}
	for _, h := range append(agents[1:], a) {
		raw, err := host.State(h)
		if err != nil {
			t.Fatal(err)
		}
		var st struct{ Name string }
		if err := json.Unmarshal(raw, &st); err != nil {
			t.Fatal(err)
		}
		if names[st.Name] {
			t.Fatalf("two agents of the world are named %q", st.Name)
		}
		names[st.Name] = true
	}
}

// TestWrongKindOfHandle: a handle of another kind says what it is and
// what was wanted, in English.
func TestWrongKindOfHandle(t *testing.T) {
	d := load(t, "battlemage.yaml")
	w, _ := host.NewWorld(d, 1)
	defer host.Release(w)
	err := host.Set(w, "in_range", 1)
	if err == nil || !strings.Contains(err.Error(), "is a world, not an agent") {
		t.Fatalf("a world given for an agent: %v", err)
	}
	a, _ := host.NewAgent(w, "goap", "")
	if _, err := host.Frame(a); err == nil || !strings.Contains(err.Error(), "is an agent, not a world") {
		t.Fatalf("an agent given for a world: %v", err)
	}
}

// TestNamesAreBounded: a name the caller passes (a kind, an agent's
// name, a fact, key or target, a file's name) is refused past MaxName
// bytes, with an error of a few lines: an answer never echoes megabytes.
func TestNamesAreBounded(t *testing.T) {
	d := load(t, "battlemage.yaml")
	w, _ := host.NewWorld(d, 1)
	defer host.Release(w)
	a, _ := host.NewAgent(w, "goap", "")
	survivor := load(t, "survivor.yaml")
	sw, _ := host.NewWorld(survivor, 1)
	defer host.Release(sw)
	s, _ := host.NewAgent(sw, "survivor", "")
	long := strings.Repeat("x", host.MaxName+1)
	before := host.Held()
	_, loadErr := host.Load(shipped(t, "battlemage.yaml"), long)
	_, pddlErr := host.LoadPDDL([]byte("(define (domain d))"), long, []byte("(define (problem p))"), "p.pddl")
	_, kindErr := host.NewAgent(w, long, "")
	_, nameErr := host.NewAgent(w, "goap", long)
	for what, err := range map[string]error{
		"a file's name":  loadErr,
		"a PDDL name":    pddlErr,
		"a kind":         kindErr,
		"an agent name":  nameErr,
		"a fact":         host.Set(a, long, 1),
		"a key":          host.Set(s, long, 1),
		"a target":       host.SetTarget(s, long, 1, 1, true),
		"a fact (1 MiB)": host.Set(a, strings.Repeat("y", 1<<20), 1),
	} {
		if err == nil || !strings.Contains(err.Error(), "bytes long, more than the") || len(err.Error()) > 300 {
			t.Errorf("%s of %d bytes: %.300v (%d bytes)", what, len(long), err, len(fmt_(err)))
		}
	}
	if got := host.Held() - before; got != 0 {
		t.Errorf("%d handles held after the refusals", got)
	}
	// MaxName bytes are taken.
	if _, err := host.NewAgent(w, "goap", strings.Repeat("n", host.MaxName)); err != nil {
		t.Errorf("an agent name of MaxName bytes: %v", err)
	}
}

func fmt_(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestEverythingAtOnce drives two worlds (one state-space, one
// engine-model) from many goroutines at once, for the race detector and
// for lock order: agents added and released while frames run, a world
// recorded and read, a domain released while calls use it, the worlds
// released at the end while calls still come. Every call works or says
// the handle is gone; nothing is left held.
func TestEverythingAtOnce(t *testing.T) {
	before := host.Held()
	mage, err := host.Load(shipped(t, "battlemage.yaml"), "battlemage.yaml")
	if err != nil {
		t.Fatal(err)
	}
	surv, err := host.Load(shipped(t, "survivor.yaml"), "survivor.yaml")
	if err != nil {
		t.Fatal(err)
	}
	mw, _ := host.NewWorld(mage, 4)
	sw, _ := host.NewWorld(surv, 3)
	if err := host.Record(mw, 500, 1<<20); err != nil {
		t.Fatal(err)
	}
	gone := func(err error) {
		if err != nil && !errors.Is(err, host.ErrNoHandle) {
			t.Error(err)
		}
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	type driven struct {
		h        host.Handle
		resolver bool // a survivor: keys and positions, not facts
	}
	var agents []driven
	add := func(w host.Handle, kind string) {
		a, err := host.NewAgent(w, kind, "")
		gone(err)
		if err == nil {
			mu.Lock()
			agents = append(agents, driven{a, w == sw})
			mu.Unlock()
		}
	}
	pick := func(i int) driven {
		mu.Lock()
		defer mu.Unlock()
		return agents[i%len(agents)]
	}
	set := func(a driven, i int) error {
		if a.resolver {
			return host.Set(a.h, "hunger", float64(i%100))
		}
		return host.Set(a.h, "in_range", float64(i%2))
	}
	for i := range 6 {
		add(mw, []string{"goap", "htn", "bt", "utility"}[i%4])
		add(sw, []string{"survivor", "wounded"}[i%2])
	}
	for _, w := range []host.Handle{mw, sw} {
		wg.Go(func() {
			for range 60 {
				_, err := host.Frame(w)
				gone(err)
			}
		})
	}
	for g := range 4 {
		wg.Go(func() {
			for i := range 60 {
				a := pick(g*7 + i)
				switch i % 6 {
				case 0:
					gone(set(a, i))
				case 1:
					if _, doing, err := host.Action(a.h); err == nil && doing != host.Idle {
						gone(host.Report(a.h, []int{host.Success, host.Failure}[i%2]))
					}
				case 2:
					_, err := host.Events(a.h)
					gone(err)
					_, err = host.State(a.h)
					gone(err)
				case 3:
					if a.resolver {
						gone(host.SetPosition(a.h, float64(i), 0))
						gone(host.SetTarget(a.h, "deer", float64(i), 1, i%3 != 0))
					}
				case 4:
					host.Release(a.h)
				case 5:
					add([]host.Handle{mw, sw}[i%2], []string{"goap", "survivor"}[i%2])
				}
			}
		})
	}
	wg.Go(func() {
		for range 20 {
			_, err := host.Decisions(mw)
			gone(err)
			host.Call(mage, "plan", []byte(`{"goal":"Kill"}`))
			host.Call(surv, "resolve", []byte(`{"goal":"Warm"}`))
		}
		host.Release(mage) // its world goes on
	})
	wg.Wait()
	if _, err := host.Frame(mw); err != nil {
		t.Fatalf("the world after its domain was released: %v", err)
	}
	// The worlds released while their agents are still driven.
	wg.Go(func() { host.Release(mw) })
	wg.Go(func() { host.Release(sw) })
	for g := range 3 {
		wg.Go(func() {
			for i := range 30 {
				gone(set(pick(g+i), i))
				_, err := host.Frame([]host.Handle{mw, sw}[i%2])
				gone(err)
			}
		})
	}
	wg.Wait()
	host.Release(surv)
	if got := host.Held() - before; got != 0 {
		t.Fatalf("%d handles left held", got)
	}
}

// TestFramesOfAStep pins the frames docs/wasm.md and Action's comment
// give: a report is read at the next Frame, until which Action names the
// same action; a step that ends there leaves the agent Idle for that
// frame, and the next step starts at the frame after.
func TestFramesOfAStep(t *testing.T) {
	d := load(t, "battlemage.yaml")
	w, _ := host.NewWorld(d, 1)
	defer host.Release(w)
	a, _ := host.NewAgent(w, "goap", "")
	var seen []string
	for range 8 {
		host.Frame(w)
		name, doing, _ := host.Action(a)
		if doing != host.Acting {
			seen = append(seen, "idle")
			continue
		}
		seen = append(seen, name)
		host.Report(a, host.Success)
		if again, doing, _ := host.Action(a); again != name || doing != host.Acting {
			t.Fatalf("after reporting %s's success, before the next frame: %q %d, want %s still", name, again, doing, name)
		}
	}
	want := "idle Approach idle TakeCover idle Recharge idle CastBolt"
	if got := strings.Join(seen, " "); got != want {
		t.Fatalf("frame by frame: %s\nwant %s", got, want)
	}
}

// TestSuccessNeedsItsPushedEffects: on an engine-model file the engine
// pushes every key; a success reported without the step's effect pushed
// fails the step, as Report's comment and docs/wasm.md say, and one with
// it pushed is done.
func TestSuccessNeedsItsPushedEffects(t *testing.T) {
	for _, push := range []bool{false, true} {
		d := load(t, "survivor.yaml")
		w, _ := host.NewWorld(d, 1)
		a, _ := host.NewAgent(w, "survivor", "")
		host.SetPosition(a, 0, -4) // at the south pile
		host.Frame(w)
		host.Frame(w)
		if name, doing, _ := host.Action(a); name != "GatherWoodSouth" || doing != host.Acting {
			t.Fatalf("%q %d, want acting GatherWoodSouth", name, doing)
		}
		if push {
			host.Set(a, "has_wood", 1)
		}
		host.Report(a, host.Success)
		host.Frame(w)
		ev, _ := host.Events(a)
		failed := strings.Contains(string(ev), `"kind":"action_failed","goal":"Warm","action":"GatherWoodSouth","reason":"effects did not hold"`)
		done := strings.Contains(string(ev), `"kind":"step_done","goal":"Warm","action":"GatherWoodSouth"`)
		if failed == push || done != push {
			t.Errorf("has_wood pushed %v: failed %v, done %v: %s", push, failed, done, ev)
		}
		host.Release(w)
	}
}

// TestPDDLWorkBounded: a PDDL problem of 400 bytes whose million states
// each have 380 successors took minutes within the states' budget alone;
// a PDDL search is bounded in work too (the request's work, at most
// MaxPDDLWork), and says so.
func TestPDDLWorkBounded(t *testing.T) {
	var objs, goal, init []string
	for i := range 20 {
		objs = append(objs, fmt.Sprintf("o%d", i))
		goal = append(goal, fmt.Sprintf("(a o%d)", i))
		init = append(init, fmt.Sprintf("(obj o%d)", i))
	}
	ds := "(define (domain d) (:predicates (a ?x) (obj ?x)) (:action set :parameters (?x ?y) :precondition (and (obj ?x) (obj ?y) (not (= ?x ?y))) :effect (and (a ?x) (not (a ?y)))))"
	ps := "(define (problem p) (:domain d) (:objects " + strings.Join(objs, " ") + ") (:init " + strings.Join(init, " ") + ") (:goal (and " + strings.Join(goal, " ") + ")))"
	d, err := host.LoadPDDL([]byte(ds), "d.pddl", []byte(ps), "p.pddl")
	if err != nil {
		t.Fatal(err)
	}
	defer host.Release(d)
	got := string(host.Call(d, "plan", []byte(`{"heuristic":"blind","work":100000}`)))
	if !strings.Contains(got, `"status":"budget_exhausted"`) || !strings.Contains(got, `"bound":"work"`) {
		t.Fatalf("a search of 100000 units of work: %.300s", got)
	}
	for _, body := range []string{`{"work":-1}`, fmt.Sprintf(`{"work":%d}`, host.MaxPDDLWork+1)} {
		if got := string(host.Call(d, "plan", []byte(body))); !strings.Contains(got, `"field":"work"`) || !strings.Contains(got, `"status":400`) {
			t.Errorf("%s: %s", body, got)
		}
	}
}

// TestTraceDecisionsNeedsARecording: tracing an agent's decisions in a
// world that records none would do nothing; it says so instead.
func TestTraceDecisionsNeedsARecording(t *testing.T) {
	d := load(t, "battlemage.yaml")
	w, _ := host.NewWorld(d, 1)
	defer host.Release(w)
	a, _ := host.NewAgent(w, "goap", "")
	if err := host.TraceDecisions(a, true); err == nil || !strings.Contains(err.Error(), "records no decisions") {
		t.Errorf("trace in a world that records nothing: %v", err)
	}
	rw, _ := host.NewWorld(d, 1)
	defer host.Release(rw)
	host.Record(rw, 0, 0)
	ra, _ := host.NewAgent(rw, "goap", "")
	if err := host.TraceDecisions(ra, true); err != nil {
		t.Errorf("trace in a recorded world: %v", err)
	}
}
