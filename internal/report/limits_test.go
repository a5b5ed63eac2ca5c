package report

import (
	"fmt"
	"testing"

	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/search"
)

// TestExplainReadsTheLimitsInForce: an explanation given its limits in
// goap.Options.Limits says the same as one given them in the deprecated
// fields, and where both are set it follows Limits, as the search does.
// Its alternatives' searches lower the depth limit step by step: an old
// MaxDepth left set must not override that.
func TestExplainReadsTheLimitsInForce(t *testing.T) {
	d, err := goap.NewDomain(domains.BattleMage())
	if err != nil {
		t.Fatal(err)
	}
	p := goap.NewPlanner(d)
	explain := func(opt goap.Options) string {
		pr := Problem{D: d, Start: d.Initial(), Goal: d.Goal("Kill"), Opt: opt}
		res, _ := p.Plan(nil, pr.Start, pr.Goal, opt)
		x := ExplainGOAP(p, pr, res, 5)
		return fmt.Sprintf("%s %v %v %v cut %v work %d", x.Status, x.Plan, x.Why, x.Alternatives, x.AlternativesCut, x.Work)
	}
	for _, depth := range []int{1, 4, 0} {
		old := explain(goap.Options{Budget: 1000, MaxDepth: depth})
		limits := explain(goap.Options{Limits: search.Limits{Budget: 1000, MaxDepth: int64(depth)}})
		if old != limits {
			t.Errorf("depth %d: the deprecated fields explain\n%s\nLimits\n%s", depth, old, limits)
		}
		both := explain(goap.Options{Budget: 1, MaxDepth: 100, Limits: search.Limits{Budget: 1000, MaxDepth: int64(depth)}})
		if both != limits && depth != 0 {
			t.Errorf("depth %d: with the deprecated fields set too\n%s\nLimits alone\n%s", depth, both, limits)
		}
	}
}
