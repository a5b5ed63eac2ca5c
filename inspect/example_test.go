package inspect_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/inspect"
)

// A game adds the inspector in two lines: one makes it (the agents record
// their decisions into it, and it passes them on to the game's own
// recorder) and serves it, the other calls Frame once per frame. Here the
// handler is mounted in a test server; a game would call
// ins.ListenAndServe("localhost:6060") and open that address.
func Example() {
	d, _ := goap.NewDomain(domains.BattleMage())
	world := d.Initial()
	behaviours := map[string]agent.Behaviour{}
	for id := range goap.ActionID(d.NumActions()) {
		behaviours[d.ActionName(id)] = agent.Funcs{TickFunc: func(*agent.Agent) agent.Status {
			d.Apply(id, world)
			return agent.Success
		}}
	}
	recorder := agent.NewFlightRecorder(10_000, 64<<20) // the game's own

	ins := inspect.New(inspect.Options{Sink: recorder}) // line 1 (and Decisions: ins, Watch)
	srv := httptest.NewServer(ins)
	defer srv.Close()

	mage, _ := agent.New(agent.Config{Name: "mage", Domain: d, Behaviours: behaviours,
		Goals:     []agent.GoalOption{{Goal: d.Goal("Kill"), Priority: 1}},
		Sensor:    func(_ *agent.Agent, facts goap.State) { facts.CopyFrom(world) },
		Decisions: ins})
	ins.Watch(mage)

	http.Get(srv.URL + "/api/v1/state") // a page opens: frames copy from now on
	for tick := 1; tick <= 2; tick++ {
		mage.Tick()
		ins.Frame(tick) // line 2: once per frame, no agent being ticked
	}
	resp, _ := http.Get(srv.URL + "/api/v1/agents")
	body, _ := io.ReadAll(resp.Body)
	fmt.Print(string(body))
	held, _ := recorder.Len()
	fmt.Println("the game's recorder holds", held, "decision")
	// Output:
	// [{"name":"mage","kind":"goap","goal":"Kill","status":"waiting","plan":["Approach","TakeCover","Recharge","CastBolt"],"step":2,"plans":1,"replans":0,"changed":2,"version":3}]
	// the game's recorder holds 1 decision
}
