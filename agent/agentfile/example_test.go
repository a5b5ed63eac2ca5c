package agentfile_test

import (
	"fmt"
	"io/fs"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/agent/agentfile"
	"github.com/ploy-ai/ploy/domain"
	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/goap"
)

// Agents as data: the soldier file's defensive personality, one of two
// over the same actions, takes cover first, then fights with the axe,
// since shooting costs it more. The game supplies only the behaviours.
func ExampleConfigure() {
	src, _ := fs.ReadFile(domains.Files, "soldier.yaml")
	f, err := domain.Parse("soldier.yaml", src)
	if err != nil {
		fmt.Println(err)
		return
	}
	d := f.GOAP
	behaviours := map[string]agent.Behaviour{}
	for a := range d.NumActions() {
		behaviours[d.ActionName(goap.ActionID(a))] = agent.Funcs{} // succeeds at once
	}
	cfg := agent.Config{
		Name:       "defensive",
		Domain:     d,
		Behaviours: behaviours,
		OnEvent: func(e agent.Event) {
			switch e.Kind {
			case agent.GoalChosen:
				if e.Goal == "" {
					fmt.Println(e.Tick, "idle: its goals hold")
					return
				}
				fmt.Println(e.Tick, "goal", e.Goal)
			case agent.PlanMade:
				fmt.Println(e.Tick, "plan", e.Plan, "cost", e.Cost)
			}
		},
	}
	kind, _ := f.Agent("defensive")
	if err := agentfile.Configure(&cfg, kind, nil); err != nil {
		fmt.Println(err)
		return
	}
	soldier, err := agent.New(cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	for range 6 {
		soldier.Tick()
	}
	// Output:
	// 1 goal GetSafe
	// 1 plan [TakeCover] cost 1
	// 2 goal KillPlayer
	// 2 plan [PickUpAxe ApproachPlayer AttackMelee] cost 10
	// 5 idle: its goals hold
}
