package walkthrough_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/inspect"
	"github.com/ploy-ai/ploy/replay"
)

// Step 1: load the file. domain.Parse checks it all at once and names
// the file, line and column of each mistake; an engine-model file (keys,
// targets) gives a resolver.Domain and its agent kinds.
func Example_step1Load() {
	f, _, err := load()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("engine model:", f.EngineModel())
	fmt.Println("actions:", f.Resolver.NumActions(), "targets:", f.Resolver.Targets())
	for _, k := range f.EngineAgents {
		fmt.Println("kind:", k.Name)
	}
	// Output:
	// engine model: true
	// actions: 7 targets: [wood_north wood_south fireplace berries deer]
	// kind: survivor
	// kind: wounded
}

// Steps 2 and 3: an agent of a kind, the game's sensors, behaviours and
// mover around it (camp_test.go), ticked in the game loop. Each tick it
// senses, chooses a goal by the kind's utilities, resolves a chain of
// actions, walks to each target and runs the behaviour.
func Example_step2And3Agent() {
	c, err := newCamp(1, func(cfg *agent.ResolverConfig) {
		cfg.OnEvent = func(e agent.Event) {
			switch e.Kind {
			case agent.GoalChosen, agent.PlanMade:
				fmt.Println(e.Tick, e.Kind, e.Goal, e.Plan)
			}
		}
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for range 12 {
		c.drift()
		c.agents[0].Tick()
	}
	// Output:
	// 1 goal_chosen Warm []
	// 1 plan_made Warm [GatherWoodSouth LightFire WarmUp]
	// 11 goal_chosen Fed []
	// 11 plan_made Fed [Forage Eat]
}

// Step 4: many agents on a queue. Agents tick as before; their searches
// run on the queue's workers, and the game calls Frame once a frame, where
// the results are handed back. The same seed and world give the same
// decisions on any number of workers.
func Example_step4Queue() {
	q := agent.NewQueue(2, 8)
	c, err := newCamp(4, func(cfg *agent.ResolverConfig) { cfg.Queue = q })
	if err != nil {
		fmt.Println(err)
		return
	}
	for range 30 {
		c.drift()
		for _, a := range c.agents {
			a.Tick()
		}
		q.Frame()
	}
	for _, a := range c.agents {
		st := a.Stats()
		fmt.Printf("%s: %d resolves, %d steps done\n", a.Name(), st.Plans, st.StepsDone)
	}
	// Output:
	// s0: 4 resolves, 8 steps done
	// s1: 9 resolves, 4 steps done
	// s2: 3 resolves, 4 steps done
	// s3: 8 resolves, 3 steps done
}

// Step 5: the live inspector. The inspector is the agents' decision sink
// and watches them; the game serves it (here on a test server; in a game,
// ins.ListenAndServe("localhost:6060")) and calls Frame once a frame.
// A browser on its address shows every agent and pauses the game on
// breakpoints (docs/inspector.md); a program reads its JSON API.
func Example_step5Inspector() {
	ins := inspect.New(inspect.Options{})
	defer ins.Close()
	c, err := newCamp(2, func(cfg *agent.ResolverConfig) { cfg.Decisions = ins })
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, a := range c.agents {
		ins.WatchResolver(a)
	}
	srv := httptest.NewServer(ins)
	defer srv.Close()
	// Frame copies the agents for the page only while a client is about
	// (a request lately, or an open event stream), so that a game nobody
	// watches pays nothing: this request is one, as a browser's would be.
	if resp, err := http.Get(srv.URL + "/api/v1/state"); err == nil {
		resp.Body.Close()
	}
	for tick := 1; tick <= 5; tick++ {
		c.drift()
		for _, a := range c.agents {
			a.Tick()
		}
		ins.Frame(tick)
	}
	resp, err := http.Get(srv.URL + "/api/v1/agents")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	var list []struct{ Name, Kind, Goal, Status string }
	json.NewDecoder(resp.Body).Decode(&list)
	for _, a := range list {
		fmt.Println(a.Name, a.Kind, a.Goal, a.Status)
	}
	// Output:
	// s0 resolver Warm walking
	// s1 resolver Fed acting
}

// Step 6: a recording. A FlightRecorder as the agents' decision sink
// keeps their last decisions (bounded in count and bytes) and writes them
// as JSON Lines, which `ploy replay` decides again and `ploy why`
// explains, from the file alone.
func Example_step6Record() {
	recorder := agent.NewFlightRecorder(10_000, 16<<20)
	c, err := newCamp(2, func(cfg *agent.ResolverConfig) { cfg.Decisions = recorder })
	if err != nil {
		fmt.Println(err)
		return
	}
	for range 40 {
		c.drift()
		for _, a := range c.agents {
			a.Tick()
		}
	}
	var file bytes.Buffer
	recorder.WriteJSONL(&file, agent.RecordHeader{Domain: "survivor.yaml", DomainHash: agent.DomainHash(c.source)})
	// In a game: os.WriteFile("camp.jsonl", file.Bytes(), 0o644), then
	//   ploy replay camp.jsonl
	//   ploy why camp.jsonl --agent s1 --tick 11
	rec, err := agent.ReadRecording(&file, "camp.jsonl", 0)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(rec.Decisions), "decisions recorded")
	report := replay.New(replay.FromFile(c.file)).Run(rec.Decisions, 10)
	fmt.Println(report.Decisions, "decided again,", report.Changed, "changed")
	// Output:
	// 18 decisions recorded
	// 18 decided again, 0 changed
}

// Step 7: why did it do that? One decision, answered from the recording:
// what the agent sensed, every goal option and its score, the chain it
// took and what it turned down.
func Example_step7Why() {
	recorder := agent.NewFlightRecorder(10_000, 16<<20)
	c, err := newCamp(2, func(cfg *agent.ResolverConfig) { cfg.Decisions = recorder })
	if err != nil {
		fmt.Println(err)
		return
	}
	for range 20 {
		c.drift()
		for _, a := range c.agents {
			a.Tick()
		}
	}
	var file bytes.Buffer
	recorder.WriteJSONL(&file, agent.RecordHeader{Domain: "survivor.yaml"})
	rec, _ := agent.ReadRecording(&file, "camp.jsonl", 0)
	i, err := replay.Find(rec.Decisions, "s1", 11)
	if err != nil {
		fmt.Println(err)
		return
	}
	var text strings.Builder
	replay.New(replay.FromFile(c.file)).Why(rec.Decisions, i).WriteText(&text)
	fmt.Print(text.String())
	// Output:
	// s1 (resolver, kind wounded), tick 10: a plan, because goal changed
	//
	// goal options:
	//   * Warm  utility 6          highest score
	//     Fed   -                  goal holds
	//
	// goal: Warm
	// plan, cost 3.24 (found; 1 expanded):
	//   1. WarmUp  3.24
	//
	// turned down:
	//   nothing
	//
	// since its previous decision (tick 9):
	//   hunger 9 → 10
	//   warmth 21 → 20
	//
	// what it read: warmth 20, hunger 10, has_wood 0, fire_lit 1, has_food 0; at (4, 0); targets berries (5, 0), deer (2, 0), fireplace (0, 2), wood_north (0, 10), wood_south (0, -4)
}
