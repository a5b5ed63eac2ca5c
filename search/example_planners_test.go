package search_test

import (
	"fmt"

	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/htn"
	"github.com/ploy-ai/ploy/resolver"
	"github.com/ploy-ai/ploy/search"
	"github.com/ploy-ai/ploy/strips"
)

// The four planners called side by side with the same Limits, their
// outcomes read through the same Status, Stats and errors.
func Example_fourPlanners() {
	limits := search.Limits{Budget: 1000, MaxSteps: 1000}
	show := func(planner string, status search.Status, stats search.Stats, err error) {
		fmt.Printf("%-8s %s, %d steps, %d expanded, error %v\n", planner, status, stats.Depth, stats.Expanded, err)
	}

	g, _ := goap.NewDomain(domains.BattleMage())
	gres, err := goap.NewPlanner(g).Plan(nil, g.Initial(), g.Goal("Kill"), goap.Options{Limits: limits})
	show("goap", gres.Status, gres.Stats, err)

	h, _ := htn.NewDomain(g, domains.BattleMageHTN())
	var hres htn.Result
	err = htn.NewPlanner(h).Plan(&hres, g.Initial(), htn.Options{Limits: limits})
	show("htn", hres.Status, hres.Stats, err)

	r, _ := resolver.NewDomain(domains.Survivor())
	snap, _ := r.SnapshotOf(map[string]int64{"hunger": 80}, resolver.Point{},
		map[string]resolver.Point{"fireplace": {Y: 2}, "wood_north": {Y: 10}, "wood_south": {Y: -4}, "berries": {X: 5}, "deer": {X: 2}})
	rres, err := resolver.NewResolver(r).Resolve(nil, snap, r.Goal("Fed"), resolver.Options{Limits: limits})
	show("resolver", rres.Status, rres.Stats, err)

	task := &strips.Task{Name: "lamp", Facts: []string{"(plugged)", "(lit)"}, Goal: []strips.Fact{1},
		Ops: []strips.Op{
			{Name: "(plug)", PreNot: []strips.Fact{0}, Add: []strips.Fact{0}, Cost: 1},
			{Name: "(switch-on)", Pre: []strips.Fact{0}, Add: []strips.Fact{1}, Cost: 1},
		}}
	s, _ := strips.NewSearcher(task)
	sres, err := s.Search(strips.Options{Heuristic: strips.LMCut, Limits: limits})
	show("strips", sres.Status, sres.Stats, err)
	// Output:
	// goap     found, 4 steps, 7 expanded, error <nil>
	// htn      found, 4 steps, 7 expanded, error <nil>
	// resolver found, 2 steps, 2 expanded, error <nil>
	// strips   found, 2 steps, 2 expanded, error <nil>
}
