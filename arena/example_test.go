package arena_test

import (
	"os"

	"github.com/ploy-ai/ploy/arena"
	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/htn"
)

// Run fights a batch: every agent kind fights the same fights, drawn from
// the seed, and the table compares them. The same seed gives the same
// table.
func ExampleRun() {
	g, _ := goap.NewDomain(domains.BattleMage())
	h, _ := htn.NewDomain(g, domains.BattleMageHTN())
	goapKind, _ := arena.KindByName("goap")
	htnKind, _ := arena.KindByName("htn")
	table, err := arena.Run(arena.Config{GOAP: g, HTN: h, Fights: 4, Seed: 1, Kinds: []arena.Kind{goapKind, htnKind}})
	if err != nil {
		panic(err)
	}
	table.WriteText(os.Stdout)
	// Output:
	// 4 fights per agent kind, seed 1; per fight unless noted
	//
	// agent  survived  killed  health  plans  replans  expanded/plan  steps/plan  interrupts  top-level  work/tick
	// goap        4/4    11.5    73.7   36.8     35.8            4.8           -         0.0        0.0       0.10
	// htn         4/4    11.5    80.2   97.5     63.2              -        12.1        25.0        4.8       0.65
	//
	// replans per fight, by reason:
	//   goap       effects did not hold 15.2, goal changed 15.2, action failed 5.2
	//   htn        interruption 25.0, effects did not hold 21.0, plan done 6.0, action failed 5.5, facts changed 5.5, preconditions failed 0.2
}
