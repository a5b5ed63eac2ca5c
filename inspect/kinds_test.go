package inspect_test

import (
	"slices"
	"testing"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/htn"
	"github.com/ploy-ai/ploy/inspect"
	"github.com/ploy-ai/ploy/resolver"
)

// TestEveryKind: GOAP, HTN in both modes, tree and resolver agents are
// watched alike: each is listed with its kind, an HTN agent with its MTR,
// a resolver agent with its keys, targets and position, and a GOAP agent
// with the position Options.Position gives it.
func TestEveryKind(t *testing.T) {
	d, err := goap.NewDomain(domains.BattleMage())
	if err != nil {
		t.Fatal(err)
	}
	h, err := htn.NewDomain(d, domains.BattleMageHTN())
	if err != nil {
		t.Fatal(err)
	}
	ins := inspect.New(inspect.Options{Position: func(a *agent.Agent) (resolver.Point, bool) {
		return resolver.Point{X: 3, Y: 4}, a.Name() == "goap"
	}})
	do(ins, "GET", "/api/v1/state", "", "", nil) // a client about
	var ticks []func()
	mage := func(name string, set func(*agent.Config)) {
		world := d.Initial()
		behaviours := map[string]agent.Behaviour{}
		for id := range goap.ActionID(d.NumActions()) {
			behaviours[d.ActionName(id)] = agent.Funcs{TickFunc: func(*agent.Agent) agent.Status {
				d.Apply(id, world)
				return agent.Success
			}}
		}
		cfg := agent.Config{Name: name, Domain: d, Behaviours: behaviours, Decisions: ins,
			Sensor: func(_ *agent.Agent, facts goap.State) { facts.CopyFrom(world) }}
		set(&cfg)
		a, err := agent.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if err := ins.Watch(a); err != nil {
			t.Fatal(err)
		}
		ticks = append(ticks, a.Tick)
	}
	mage("goap", func(c *agent.Config) { c.Goals = []agent.GoalOption{{Goal: d.Goal("Kill"), Priority: 1}} })
	mage("htn", func(c *agent.Config) { c.HTN = h })
	mage("htn-interrupt", func(c *agent.Config) { c.HTN, c.HTNMode = h, agent.Interrupt })
	mage("tree", func(c *agent.Config) {
		c.Tree = agent.Sequence(agent.Action(d, "Approach"), agent.Action(d, "TakeCover"))
	})

	rd, err := resolver.NewDomain(domains.Shopkeeper())
	if err != nil {
		t.Fatal(err)
	}
	values := map[string]int64{}
	rb := map[string]agent.ResolverBehaviour{}
	for id := range resolver.ActionID(rd.NumActions()) {
		rb[rd.ActionName(id)] = agent.ResolverFuncs{TickFunc: func(*agent.ResolverAgent) agent.Status {
			for _, e := range rd.Effects(id) {
				values[e.Key] = map[resolver.Direction]int64{resolver.SetTrue: 1, resolver.SetFalse: 0}[e.Dir]
			}
			return agent.Success
		}}
	}
	targets := map[string]agent.TargetSensor{}
	for _, name := range rd.Targets() {
		targets[name] = func(*agent.ResolverAgent) agent.Where { return agent.AtPoint(resolver.Point{X: 1}) }
	}
	keeper, err := agent.NewResolverAgent(agent.ResolverConfig{Name: "keeper", Domain: rd, Behaviours: rb, Targets: targets,
		Goals:     []agent.ResolverGoal{{Goal: rd.Goal("ServeCustomer"), Priority: 1}},
		Decisions: ins,
		Sensor: func(_ *agent.ResolverAgent, s *resolver.Snapshot) {
			for name, v := range values {
				k, _ := rd.Key(name)
				s.Values[k] = v
			}
			s.At = resolver.Point{X: 1}
		},
		Mover: agent.MoverFunc(func(resolver.Point, float64) agent.MoveStatus { return agent.Arrived }),
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := ins.WatchResolver(keeper); err != nil {
		t.Fatal(err)
	}
	ticks = append(ticks, keeper.Tick)
	if err := ins.WatchResolver(keeper); err == nil {
		t.Error("a second agent named keeper was watched")
	}

	for tick := 1; tick <= 2; tick++ {
		for _, f := range ticks {
			f()
		}
		ins.Frame(tick)
	}
	var list []struct {
		Name, Kind string
		Plan       []string
		At         *resolver.Point
	}
	if err := jsonDecode(do(ins, "GET", "/api/v1/agents", "", "", nil).Body.Bytes(), &list); err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, a := range list {
		kinds = append(kinds, a.Kind)
	}
	if !slices.Equal(kinds, []string{"goap", "htn", "htn", "tree", "resolver"}) {
		t.Errorf("kinds %v", kinds)
	}
	if list[0].At == nil || *list[0].At != (resolver.Point{X: 3, Y: 4}) || list[1].At != nil {
		t.Errorf("positions: goap %v, htn %v", list[0].At, list[1].At)
	}
	var htnDetail struct {
		MTR  []int32
		Plan []string
	}
	jsonDecode(do(ins, "GET", "/api/v1/agents/htn", "", "", nil).Body.Bytes(), &htnDetail)
	if len(htnDetail.MTR) == 0 || len(htnDetail.Plan) == 0 {
		t.Errorf("htn agent: %+v, want its plan and MTR", htnDetail)
	}
	var kd struct {
		Values  map[string]int64
		Targets map[string]resolver.Point
		At      *resolver.Point
		Plan    []string
	}
	jsonDecode(do(ins, "GET", "/api/v1/agents/keeper", "", "", nil).Body.Bytes(), &kd)
	if len(kd.Values) != len(rd.Keys()) || len(kd.Targets) == 0 || kd.At == nil || *kd.At != (resolver.Point{X: 1}) {
		t.Errorf("resolver agent: %+v", kd)
	}
}
