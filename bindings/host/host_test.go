package host_test

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/agent/agentfile"
	"github.com/ploy-ai/ploy/bindings/host"
	"github.com/ploy-ai/ploy/domain"
	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/pddl"
)

func shipped(t testing.TB, name string) []byte {
	t.Helper()
	src, err := fs.ReadFile(domains.Files, name)
	if err != nil {
		t.Fatal(err)
	}
	return src
}

func load(t testing.TB, name string) host.Handle {
	t.Helper()
	d, err := host.Load(shipped(t, name), name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { host.Release(d) })
	return d
}

// newWorld makes a world of domain d with the workers given, released
// when the test ends.
func newWorld(t testing.TB, d host.Handle, workers int) host.Handle {
	t.Helper()
	w, err := host.NewWorld(d, workers)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { host.Release(w) })
	return w
}

// newAgent adds an agent of kind to world w.
func newAgent(t testing.TB, w host.Handle, kind, name string) host.Handle {
	t.Helper()
	a, err := host.NewAgent(w, kind, name)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestCallPlansKill(t *testing.T) {
	d := load(t, "battlemage.yaml")
	got := string(host.Call(d, "plan", []byte(`{"goal":"Kill"}`)))
	want := `{"status":"found","plan":["Approach","TakeCover","Recharge","CastBolt"],"cost":7,"expanded":11,"generated":36}` + "\n"
	if got != want {
		t.Fatalf("plan Kill:\n%s\nwant\n%s", got, want)
	}
	// An error is the API's error object with its status.
	got = string(host.Call(d, "plan", []byte(`{"goal":"Kil"}`)))
	if !strings.Contains(got, `"field":"goal"`) || !strings.HasSuffix(got, `,"status":404}`+"\n") && !strings.HasSuffix(got, `,"status":400}`+"\n") {
		t.Fatalf("plan Kil: %s", got)
	}
	if got := string(host.Call(d, "plan", []byte(`{"goal":"Kill","source":"x"}`))); !strings.Contains(got, `"status":400`) || !strings.Contains(got, "send no source") {
		t.Fatalf("a source: %s", got)
	}
	if got := string(host.Call(d, "walk", nil)); !strings.Contains(got, `unknown method \"walk\"`) || !strings.Contains(got, `"status":404`) {
		t.Fatalf("an unknown method: %s", got)
	}
	if got := string(host.Call(12345678, "plan", nil)); !strings.Contains(got, "no such handle 12345678") {
		t.Fatalf("a bad handle: %s", got)
	}
}

func TestLoadErrorsArePositioned(t *testing.T) {
	_, err := host.Load([]byte("name: x\nfacts: [a]\nactions:\n  - name: A\n    effects: {b: true}\n    cost: 1\n"), "mine.yaml")
	if err == nil || !strings.Contains(err.Error(), `mine.yaml:5:15: unknown fact "b"`) {
		t.Fatalf("err = %v", err)
	}
	big := make([]byte, domain.MaxFileSize+1)
	if _, err := host.Load(big, "big.yaml"); err == nil || !strings.Contains(err.Error(), "more than the") {
		t.Fatalf("a file past the limit: %v", err)
	}
	_, err = host.LoadPDDL([]byte("(define (domain d) (:predicates (p)) (:action a :parameters () :effect (p)))"), "d.pddl", []byte("(define (problem p)"), "p.pddl")
	if err == nil || !strings.Contains(err.Error(), "p.pddl:1:") {
		t.Fatalf("a bad problem: %v", err)
	}
}

// TestPDDLPlan plans a shared competition instance through Call and
// checks the cost against the optimum its directory records.
func TestPDDLPlan(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "shared", "pddl")
	domainFile := filepath.Join(dir, "gripper", "domain.pddl")
	problemFile := filepath.Join(dir, "gripper", "prob01.pddl")
	ds, err := os.ReadFile(domainFile)
	if err != nil {
		t.Skipf("the shared PDDL instances are not beside the repository: %v", err)
	}
	ps, err := os.ReadFile(problemFile)
	if err != nil {
		t.Fatal(err)
	}
	d, err := host.LoadPDDL(ds, "domain.pddl", ps, "prob01.pddl")
	if err != nil {
		t.Fatal(err)
	}
	defer host.Release(d)
	var ans struct {
		Status string
		Cost   int
		Plan   []string
	}
	raw := host.Call(d, "plan", []byte(`{"heuristic":"lmcut"}`))
	if err := json.Unmarshal(raw, &ans); err != nil || ans.Status != "found" || ans.Cost != 11 || len(ans.Plan) != 11 {
		t.Fatalf("gripper prob01: %s (%v)", raw, err)
	}
	if got := string(host.Call(d, "plan", []byte(`{"heuristic":"fast"}`))); !strings.Contains(got, `"field":"heuristic"`) {
		t.Fatalf("a bad heuristic: %s", got)
	}
	if got := string(host.Call(d, "resolve", nil)); !strings.Contains(got, "it answers plan") {
		t.Fatalf("resolve on PDDL: %s", got)
	}
}

// engine is a tiny world in Go standing for a game engine: every action
// the agents ask for succeeds after it has run for ticks frames.
func runEngine(t *testing.T, agents []host.Handle, frames, ticks int, w host.Handle) {
	t.Helper()
	running := map[host.Handle]int{}
	for range frames {
		if _, err := host.Frame(w); err != nil {
			t.Fatal(err)
		}
		for _, a := range agents {
			name, doing, err := host.Action(a)
			if err != nil {
				t.Fatal(err)
			}
			if doing != host.Acting {
				delete(running, a)
				continue
			}
			running[a]++
			status := host.Running
			if running[a] >= ticks {
				status, running[a] = host.Success, 0
			}
			if err := host.Report(a, status); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
	}
}

// TestAgentsMatchTheGoRuntime is the oracle test: an agent of each of the
// battle mage's kinds driven through handles, with an engine whose
// actions succeed after two frames, makes exactly the decisions of the
// same kind built in Go with behaviours that do the same.
func TestAgentsMatchTheGoRuntime(t *testing.T) {
	src := shipped(t, "battlemage.yaml")
	f, err := domain.Parse("battlemage.yaml", src)
	if err != nil {
		t.Fatal(err)
	}
	d := load(t, "battlemage.yaml")
	for _, k := range f.Agents {
		t.Run(k.Name, func(t *testing.T) {
			w := newWorld(t, d, 1)
			a := newAgent(t, w, k.Name, "mage")
			runEngine(t, []host.Handle{a}, 40, 2, w)
			ev, err := host.Events(a)
			if err != nil {
				t.Fatal(err)
			}
			var got struct {
				Events  json.RawMessage
				Dropped int
			}
			if err := json.Unmarshal(ev, &got); err != nil {
				t.Fatal(err)
			}

			var want []agent.Event
			q := agent.NewQueue(1, 16)
			cfg := agent.Config{Name: "mage", Domain: f.GOAP, Behaviours: map[string]agent.Behaviour{}, Queue: q,
				OnEvent: func(e agent.Event) {
					e.Plan, e.MTR = slices.Clone(e.Plan), slices.Clone(e.MTR) // the runtime reuses them
					want = append(want, e)
				}}
			for i := range f.GOAP.NumActions() {
				cfg.Behaviours[f.GOAP.ActionName(goap.ActionID(i))] = &twoTicks{}
			}
			inputs := f.InputDefaults()
			if err := agentfile.Configure(&cfg, k, func(*agent.Agent) []float64 { return inputs }); err != nil {
				t.Fatal(err)
			}
			ga, err := agent.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			for range 40 {
				ga.Tick()
				q.Frame()
			}
			if len(want) == 0 {
				t.Fatal("the Go agent made no decision")
			}
			gotJSON := string(got.Events)
			wantJSON, _ := json.Marshal(want)
			if got.Dropped != 0 || gotJSON != string(wantJSON) {
				t.Fatalf("through handles:\n%s\nin Go:\n%s", gotJSON, wantJSON)
			}
		})
	}
}

// twoTicks is a behaviour that does what runEngine's actions do through
// handles. The engine runs an action between frames, after the frame that
// started it, and the agent reads the report at its next frame: an action
// the engine runs for two frames succeeds at the agent's third tick of
// it (the start tick, and the two that read the engine's reports).
type twoTicks struct{ n int }

func (b *twoTicks) Start(*agent.Agent) { b.n = 0 }
func (b *twoTicks) Stop(*agent.Agent)  {}
func (b *twoTicks) Tick(*agent.Agent) agent.Status {
	b.n++
	if b.n >= 3 {
		return agent.Success
	}
	return agent.Running
}

func TestErrorsSayWhatIsWrong(t *testing.T) {
	d := load(t, "battlemage.yaml")
	w := newWorld(t, d, 1)
	a := newAgent(t, w, "goap", "")
	cases := []struct {
		name string
		err  error
		says string
	}{
		{"unknown kind", second(host.NewAgent(w, "gaop", "")), `did you mean "goap"`},
		{"world of a world", second(host.NewWorld(w, 1)), "is a world, not a domain"},
		{"no workers", second(host.NewWorld(d, 0)), "workers must be from 1 to 64, not 0"},
		{"unknown fact", host.Set(a, "in_rnge", 1), `battlemage.yaml has no fact or input "in_rnge"; did you mean "in_range"?`},
		{"NaN", host.Set(a, "health", nan()), "a value must be a finite number"},
		{"report idle", host.Report(a, host.Success), `agent "goap-1" runs no action`},
		{"bad status", host.Report(a, 7), "status 7: report 0 (running), 1 (success) or 2 (failure)"},
		{"position of a GOAP agent", host.SetPosition(a, 1, 2), "positions are for an engine-model file's agents"},
		{"record late", host.Record(w, 0, 0), "call Record before adding agents"},
		{"decisions unrecorded", second(host.Decisions(w)), "records no decisions"},
		{"decisions of no world", second(host.Decisions(999999)), "no such handle 999999"},
		{"released", host.Set(424242, "x", 1), "no such handle 424242"},
	}
	for _, c := range cases {
		if c.err == nil || !strings.Contains(c.err.Error(), c.says) {
			t.Errorf("%s: %v, want %q", c.name, c.err, c.says)
		}
	}
	// A call that fails returns no handle: 0, which is never one.
	for _, h := range []host.Handle{first(host.NewAgent(w, "gaop", "")), first(host.NewWorld(d, 0)), first(host.Load([]byte("x"), "x.yaml"))} {
		if h != 0 {
			t.Errorf("a failed call returned handle %d", h)
		}
	}
	if err := host.Set(a, "health", 30); err != nil {
		t.Errorf("an input: %v", err)
	}
	host.Release(w)
	if err := host.Set(a, "in_range", 1); !errors.Is(err, host.ErrNoHandle) {
		t.Errorf("an agent of a released world: %v", err)
	}
}

func second[T any](_ T, err error) error { return err }

func first[T any](v T, _ error) T { return v }

func nan() float64 {
	var z float64
	return z / z
}

// TestResolverAgentWalks runs a survivor through handles in a tiny world
// written here as an engine would write it: it walks the survivor one unit
// a frame to the destination the agent names, and pushes the keys each
// action changes when it succeeds. The southern wood pile vanishes while
// the survivor walks to it: the agent must say target_lost, walk north
// instead, and still get warm.
func TestResolverAgentWalks(t *testing.T) {
	d := load(t, "survivor.yaml")
	w := newWorld(t, d, 2)
	a := newAgent(t, w, "survivor", "s")
	keys := map[string]float64{"warmth": 20, "hunger": 70}
	push := func(k string, v float64) {
		keys[k] = v
		if err := host.Set(a, k, v); err != nil {
			t.Fatal(err)
		}
	}
	at := [2]float64{0, 0}
	var lost, north bool
	for frame := 0; frame < 300 && keys["warmth"] < 50; frame++ {
		if _, err := host.Frame(w); err != nil {
			t.Fatal(err)
		}
		name, doing, err := host.Action(a)
		if err != nil {
			t.Fatal(err)
		}
		switch doing {
		case host.Walking:
			x, y, _, _ := host.Destination(a)
			if name == "GatherWoodSouth" && !lost {
				lost = true
				if err := host.SetTarget(a, "wood_south", 0, 0, false); err != nil {
					t.Fatal(err)
				}
				continue
			}
			north = north || name == "GatherWoodNorth"
			dx, dy := x-at[0], y-at[1]
			n := max(1, abs(dx)+abs(dy))
			at = [2]float64{at[0] + dx/n, at[1] + dy/n}
			if err := host.SetPosition(a, at[0], at[1]); err != nil {
				t.Fatal(err)
			}
		case host.Acting:
			switch name {
			case "GatherWoodNorth", "GatherWoodSouth":
				push("has_wood", 1)
			case "LightFire":
				push("fire_lit", 1)
				push("has_wood", 0)
			case "WarmUp":
				push("warmth", keys["warmth"]+10)
			case "Forage", "Hunt":
				push("has_food", 1)
			case "Eat":
				push("hunger", keys["hunger"]-40)
				push("has_food", 0)
			}
			if err := host.Report(a, host.Success); err != nil {
				t.Fatal(err)
			}
		}
	}
	ev, _ := host.Events(a)
	if !lost || !north || keys["warmth"] < 50 {
		st, _ := host.State(a)
		t.Fatalf("lost %v, walked north %v, warmth %v: %s\n%.2000s", lost, north, keys["warmth"], st, ev)
	}
	if !strings.Contains(string(ev), `"kind":"target_lost","goal":"Warm","action":"GatherWoodSouth","target":"wood_south","reason":"not found"`) {
		t.Fatalf("no target_lost event for the vanished pile: %.2000s", ev)
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// TestConcurrentCalls drives one world from several goroutines at once,
// for the race detector: every call is safe from any thread.
func TestConcurrentCalls(t *testing.T) {
	d := load(t, "battlemage.yaml")
	w := newWorld(t, d, 2)
	var agents []host.Handle
	for i := range 8 {
		a, err := host.NewAgent(w, []string{"goap", "htn", "bt"}[i%3], "")
		if err != nil {
			t.Fatal(err)
		}
		agents = append(agents, a)
	}
	var wg sync.WaitGroup
	wg.Go(func() {
		for range 50 {
			host.Frame(w)
		}
	})
	for i, a := range agents {
		wg.Go(func() {
			for j := range 50 {
				host.Set(a, "in_range", float64((i+j)%2))
				if _, doing, _ := host.Action(a); doing == host.Acting {
					host.Report(a, host.Success)
				}
				host.Events(a)
			}
		})
	}
	wg.Go(func() {
		for range 20 {
			host.Call(d, "plan", []byte(`{"goal":"Kill"}`))
		}
	})
	wg.Wait()
}

func TestHandlesAreReleased(t *testing.T) {
	before := host.Held()
	d, err := host.Load(shipped(t, "battlemage.yaml"), "battlemage.yaml")
	if err != nil {
		t.Fatal(err)
	}
	w, _ := host.NewWorld(d, 1)
	for range 3 {
		if _, err := host.NewAgent(w, "goap", ""); err != nil {
			t.Fatal(err)
		}
	}
	if got := host.Held() - before; got != 5 {
		t.Fatalf("held %d handles, want 5", got)
	}
	host.Release(w)
	host.Release(d)
	host.Release(d) // twice: nothing
	host.Release(0)
	if got := host.Held() - before; got != 0 {
		t.Fatalf("after release, %d handles still held", got)
	}
}

// TestKinds lists the files' agent kinds, state-space and engine-model,
// in the files' order, and none for a domain without any.
func TestKinds(t *testing.T) {
	for name, want := range map[string][]string{
		"battlemage.yaml": {"goap", "htn", "htn-break", "bt", "utility"},
		"survivor.yaml":   {"survivor", "wounded"},
	} {
		got, err := host.Kinds(load(t, name))
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("%s: kinds %q (%v), want %q", name, got, err, want)
		}
	}
	d, err := host.Load([]byte("name: x\nfacts: [a]\nactions:\n  - name: A\n    effects: {a: true}\n    cost: 1\n"), "x.yaml")
	if err != nil {
		t.Fatal(err)
	}
	defer host.Release(d)
	if got, err := host.Kinds(d); err != nil || got == nil || len(got) != 0 {
		t.Errorf("a file without agents: %q (%v), want []", got, err)
	}
	w := newWorld(t, d, 1)
	if _, err := host.Kinds(w); err == nil || !strings.Contains(err.Error(), "is a world, not a domain") {
		t.Errorf("kinds of a world: %v", err)
	}
}

// TestSizeChecks: the checks a binding makes before copying a caller's
// source say what Load and LoadPDDL say, and take the largest size they
// take.
func TestSizeChecks(t *testing.T) {
	if err := host.SourceTooLarge("a.yaml", domain.MaxFileSize); err != nil {
		t.Errorf("a file of the largest size: %v", err)
	}
	big := make([]byte, domain.MaxFileSize+1)
	_, loadErr := host.Load(big, "a.yaml")
	sizeErr := host.SourceTooLarge("a.yaml", uint64(len(big)))
	if sizeErr == nil || loadErr == nil || sizeErr.Error() != loadErr.Error() {
		t.Errorf("SourceTooLarge %v, Load %v", sizeErr, loadErr)
	}
	if err := host.SourceTooLarge("a.yaml", 1<<63); err == nil || !strings.Contains(err.Error(), "9223372036854775808 bytes") {
		t.Errorf("a huge size: %v", err)
	}
	if err := host.PDDLTooLarge("d.pddl", pddl.MaxSize); err != nil {
		t.Errorf("a PDDL file of the largest size: %v", err)
	}
	big = make([]byte, pddl.MaxSize+1)
	_, loadErr = host.LoadPDDL(big, "d.pddl", nil, "p.pddl")
	sizeErr = host.PDDLTooLarge("d.pddl", uint64(len(big)))
	if sizeErr == nil || loadErr == nil || sizeErr.Error() != loadErr.Error() {
		t.Errorf("PDDLTooLarge %v, LoadPDDL %v", sizeErr, loadErr)
	}
	var got struct {
		Error  string
		Status int
	}
	if err := json.Unmarshal(host.ErrorAnswer(400, `method is "NULL"`), &got); err != nil || got.Error != `method is "NULL"` || got.Status != 400 {
		t.Errorf("ErrorAnswer: %+v, %v", got, err)
	}
}

// TestTreeSwitchKeepsTheNewAction drives a behaviour-tree mage whose
// engine pushes every fact each frame, as examples/c's arena does. When
// Recharge succeeds the pushed facts already show the staff charged, so
// the tree switches branches: it starts CastBolt and only then stops
// Recharge. The engine must be told to cast, not left with an idle agent
// whose tree waits on a running action.
func TestTreeSwitchKeepsTheNewAction(t *testing.T) {
	d := load(t, "battlemage.yaml")
	w := newWorld(t, d, 1)
	a := newAgent(t, w, "bt", "")
	facts := map[string]bool{"spare_crystals": true, "potion_at_shrine": true, "healthy": true}
	names := []string{"in_range", "in_cover", "staff_charged", "spare_crystals", "carrying_potion", "potion_at_shrine", "healthy", "enemy_dead"}
	var did []string
	for range 30 {
		for _, n := range names {
			v := 0.0
			if facts[n] {
				v = 1
			}
			if err := host.Set(a, n, v); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := host.Frame(w); err != nil {
			t.Fatal(err)
		}
		name, doing, err := host.Action(a)
		if err != nil {
			t.Fatal(err)
		}
		if doing != host.Acting {
			continue
		}
		switch name {
		case "Approach":
			facts["in_range"] = true
		case "TakeCover":
			facts["in_cover"] = true
		case "Recharge":
			facts["staff_charged"], facts["spare_crystals"] = true, false
		case "CastBolt":
			facts["enemy_dead"], facts["staff_charged"] = true, false
		}
		did = append(did, name)
		if err := host.Report(a, host.Success); err != nil {
			t.Fatal(err)
		}
		if name == "CastBolt" {
			return
		}
	}
	st, _ := host.State(a)
	t.Fatalf("the mage never cast: it ran %v, and is now %s", did, st)
}

// TestTreeRestartKeepsTheAction: the behaviour tree's Approach is in two
// branches. A mage walking up to recharge (the second) sees its staff
// charged mid-walk: the first branch starts its own Approach, then the
// second's is stopped. The mage must still be told to approach.
func TestTreeRestartKeepsTheAction(t *testing.T) {
	d := load(t, "battlemage.yaml")
	w := newWorld(t, d, 1)
	a := newAgent(t, w, "bt", "")
	if _, err := host.Frame(w); err != nil {
		t.Fatal(err)
	}
	if name, doing, _ := host.Action(a); doing != host.Acting || name != "Approach" {
		t.Fatalf("first frame: %q, %v; want Approach", name, doing)
	}
	for frame := range 3 {
		if err := host.Set(a, "staff_charged", 1); err != nil {
			t.Fatal(err)
		}
		if _, err := host.Frame(w); err != nil {
			t.Fatal(err)
		}
		if name, doing, _ := host.Action(a); doing != host.Acting || name != "Approach" {
			st, _ := host.State(a)
			t.Fatalf("frame %d with the staff charged: %q, %v; want Approach still: %s", frame+2, name, doing, st)
		}
	}
}

// TestEventsDroppedAreTheOldest runs two mages side by side for 1500
// frames: the events of one are read every frame, the other's only at the
// end. The second must get the last MaxEvents of the first's, in order,
// and the count of the others.
func TestEventsDroppedAreTheOldest(t *testing.T) {
	d := load(t, "battlemage.yaml")
	var all []json.RawMessage
	var kept struct {
		Events  []json.RawMessage
		Dropped int
	}
	for _, readEachFrame := range []bool{true, false} {
		w, err := host.NewWorld(d, 1)
		if err != nil {
			t.Fatal(err)
		}
		a := newAgent(t, w, "utility", "mage")
		for frame := range 1500 {
			// A wound every 7 frames keeps the mage busy: it drinks.
			if err := host.Set(a, "health", float64(100-frame%7*10)); err != nil {
				t.Fatal(err)
			}
			runEngine(t, []host.Handle{a}, 1, 2, w)
			if readEachFrame {
				var got struct {
					Events  []json.RawMessage
					Dropped int
				}
				ev, _ := host.Events(a)
				if err := json.Unmarshal(ev, &got); err != nil || got.Dropped != 0 {
					t.Fatalf("%s: %v", ev, err)
				}
				all = append(all, got.Events...)
			}
		}
		if !readEachFrame {
			ev, _ := host.Events(a)
			if err := json.Unmarshal(ev, &kept); err != nil {
				t.Fatal(err)
			}
		}
		host.Release(w)
	}
	if len(all) <= host.MaxEvents+10 {
		t.Fatalf("only %d events in 1500 frames: the test needs more than %d", len(all), host.MaxEvents)
	}
	want := all[len(all)-host.MaxEvents:]
	if len(kept.Events) != host.MaxEvents || kept.Dropped != len(all)-host.MaxEvents {
		t.Fatalf("kept %d events, dropped %d; want %d and %d", len(kept.Events), kept.Dropped, host.MaxEvents, len(all)-host.MaxEvents)
	}
	for i := range want {
		if string(kept.Events[i]) != string(want[i]) {
			t.Fatalf("event %d of those kept: %s, want %s", i, kept.Events[i], want[i])
		}
	}
}

// TestSuccessIsKeptWhenTheTreeSwitches: the engine reports Recharge's
// success and, in the same frame, pushes the staff charged. The
// behaviour tree's next tick takes the casting branch, which starts
// CastBolt before it stops Recharge, whose report is still unread: the
// recharge's other effect (the spare crystals spent) must hold all the
// same.
func TestSuccessIsKeptWhenTheTreeSwitches(t *testing.T) {
	d := load(t, "battlemage.yaml")
	w := newWorld(t, d, 1)
	a := newAgent(t, w, "bt", "")
	for range 40 {
		if _, err := host.Frame(w); err != nil {
			t.Fatal(err)
		}
		name, doing, _ := host.Action(a)
		if doing != host.Acting {
			continue
		}
		if err := host.Report(a, host.Success); err != nil {
			t.Fatal(err)
		}
		if name != "Recharge" {
			continue
		}
		if err := host.Set(a, "staff_charged", 1); err != nil {
			t.Fatal(err)
		}
		if _, err := host.Frame(w); err != nil {
			t.Fatal(err)
		}
		next, _, _ := host.Action(a)
		raw, _ := host.State(a)
		if next != "CastBolt" || strings.Contains(string(raw), "spare_crystals") {
			t.Fatalf("after the recharge: %q, and %s; want CastBolt with the crystals spent", next, raw)
		}
		return
	}
	t.Fatal("the mage never recharged")
}
