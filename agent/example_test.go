package agent_test

import (
	"fmt"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/goap"
)

// An agent senses its facts from the world, chooses a goal, plans, and runs
// the plan through the game's behaviours. Here the "world" is a state the
// behaviours change directly.
func ExampleNew() {
	d, _ := goap.NewDomain(domains.BattleMage())
	world := d.Initial()
	behaviours := map[string]agent.Behaviour{}
	for a := goap.ActionID(0); int(a) < d.NumActions(); a++ {
		id := a
		behaviours[d.ActionName(a)] = agent.Funcs{TickFunc: func(*agent.Agent) agent.Status {
			d.Apply(id, world) // the game's code would take time and could fail
			return agent.Success
		}}
	}
	mage, err := agent.New(agent.Config{
		Name:       "mage",
		Domain:     d,
		Goals:      []agent.GoalOption{{Goal: d.Goal("Kill"), Priority: 1}},
		Behaviours: behaviours,
		Sensor:     func(_ *agent.Agent, facts goap.State) { facts.CopyFrom(world) },
		OnEvent: func(e agent.Event) {
			switch e.Kind {
			case agent.PlanMade:
				fmt.Println(e.Tick, "plan", e.Plan, "cost", e.Cost)
			case agent.StepDone:
				fmt.Println(e.Tick, "done", e.Action)
			}
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for range 5 {
		mage.Tick()
	}
	// Output:
	// 1 plan [Approach TakeCover Recharge CastBolt] cost 7
	// 1 done Approach
	// 2 done TakeCover
	// 3 done Recharge
	// 4 done CastBolt
}

// A behaviour tree over the same behaviours: a selector that only checks
// conditions now.
func ExampleSelector() {
	d, _ := goap.NewDomain(domains.BattleMage())
	world := d.Initial()
	behaviours := map[string]agent.Behaviour{}
	for a := goap.ActionID(0); int(a) < d.NumActions(); a++ {
		id := a
		behaviours[d.ActionName(a)] = agent.Funcs{TickFunc: func(*agent.Agent) agent.Status {
			d.Apply(id, world)
			return agent.Success
		}}
	}
	tree := agent.Selector(
		agent.FactIs(d, "enemy_dead", true),
		agent.Sequence(
			agent.FactIs(d, "staff_charged", true),
			agent.Selector(agent.FactIs(d, "in_range", true), agent.Action(d, "Approach")),
			agent.Action(d, "CastBolt"),
		),
		agent.Action(d, "Recharge"),
	)
	bt, _ := agent.New(agent.Config{Name: "bt", Domain: d, Tree: tree, Behaviours: behaviours,
		Sensor: func(_ *agent.Agent, facts goap.State) { facts.CopyFrom(world) },
		OnEvent: func(e agent.Event) {
			if e.Kind == agent.StepDone {
				fmt.Println(e.Tick, e.Action)
			}
		}})
	for range 4 {
		bt.Tick()
	}
	// Output:
	// 1 Recharge
	// 2 Approach
	// 2 CastBolt
}

// A plan queue resolves a bounded number of requests per frame on worker
// goroutines; the agents and the queue stay on the game loop's goroutine.
// Cancel withdraws a request: that agent asks again on its next tick.
func ExampleQueue() {
	d, _ := goap.NewDomain(domains.BattleMage())
	behaviours := map[string]agent.Behaviour{}
	for a := goap.ActionID(0); int(a) < d.NumActions(); a++ {
		behaviours[d.ActionName(a)] = agent.Funcs{} // succeeds at once
	}
	q := agent.NewQueue(2, 2) // two workers, two requests a frame
	var mages []*agent.Agent
	for _, name := range []string{"ada", "bo", "cy"} {
		m, err := agent.New(agent.Config{Name: name, Domain: d, Behaviours: behaviours, Queue: q,
			Goals: []agent.GoalOption{{Goal: d.Goal("Kill"), Priority: 1}}})
		if err != nil {
			fmt.Println(err)
			return
		}
		mages = append(mages, m)
	}
	for _, m := range mages {
		m.Tick() // each submits a request and waits
	}
	fmt.Println("waiting:", q.Len())
	q.Cancel(mages[0])
	fmt.Println("after a cancel:", q.Len())
	fmt.Println("resolved:", q.Frame())
	for _, m := range mages {
		m.Tick()
	}
	fmt.Println("waiting:", q.Len(), "(ada asked again)")
	// Output:
	// waiting: 3
	// after a cancel: 2
	// resolved: 2
	// waiting: 1 (ada asked again)
}
