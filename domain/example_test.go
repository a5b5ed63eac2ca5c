package domain_test

import (
	"fmt"

	"github.com/ploy-ai/ploy/domain"
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/resolver"
)

// A domain file is parsed into a GOAP domain (and an HTN, if it has one),
// ready to plan with.
func ExampleParse() {
	src := []byte(`
name: guard
facts: [heard_noise, alarm_raised]
initial: {heard_noise: true}
actions:
  - name: RaiseAlarm
    preconditions: {heard_noise: true}
    effects: {alarm_raised: true}
    cost: 1
goals:
  - name: Alert
    conditions: {alarm_raised: true}
`)
	f, err := domain.Parse("guard.yaml", src)
	if err != nil {
		fmt.Print(domain.Format(err, src))
		return
	}
	g := f.GOAP
	res, _ := goap.NewPlanner(g).Plan(nil, g.Initial(), g.Goal("Alert"), goap.Options{})
	fmt.Println(g.ActionName(res.Plan[0]), res.Cost)
	// Output: RaiseAlarm 1
}

// Every error of a file is reported at once, with its position, the
// offending line and a caret.
func ExampleFormat() {
	src := []byte(`name: guard
facts: [heard_noise, alarm_raised]
actions:
  - name: RaiseAlarm
    precondition: {heard_noise: true}
    effects: {alarm_raisd: true}
    cost: 0
`)
	_, err := domain.Parse("guard.yaml", src)
	fmt.Print(domain.Format(err, src))
	// Output:
	// guard.yaml:5:5: unknown key "precondition" in an action; did you mean "preconditions"?
	//     5 |     precondition: {heard_noise: true}
	//       |     ^
	// guard.yaml:6:15: unknown fact "alarm_raisd"; did you mean "alarm_raised"?
	//     6 |     effects: {alarm_raisd: true}
	//       |               ^
	// guard.yaml:7:11: cost is 0; costs must be positive
	//     7 |     cost: 0
	//       |           ^
}

// Lint warns before run time. A fact that only the world changes, such as
// a guard hearing a noise, is listed under sensed: lint then takes both of
// its values as reachable, and says nothing of the actions that need it.
func ExampleLint() {
	src := []byte(`name: guard
facts: [heard_noise, alarm_raised, patrolling]
initial: {patrolling: true}
sensed: [heard_noise]
actions:
  - name: RaiseAlarm
    preconditions: {heard_noise: true}
    effects: {alarm_raised: true}
    cost: 1
  - name: Rest
    preconditions: {patrolling: false}
    effects: {patrolling: true}
    cost: 1
goals:
  - name: Alert
    conditions: {alarm_raised: true}
`)
	f, err := domain.Parse("guard.yaml", src)
	if err != nil {
		fmt.Print(domain.Format(err, src))
		return
	}
	for _, w := range domain.Lint(f) {
		fmt.Println(w)
	}
	// Output:
	// guard.yaml:10:11: warning: action "Rest" can never apply from the initial state: it needs not patrolling (patrolling: it is true and no action makes it false)
}

// A file with keys: instead of facts: is the engine model: it loads
// into a resolver.Domain with a default world to resolve from.
func ExampleParse_engineModel() {
	src := []byte(`
name: camp
keys: {warmth: int, has_wood: bool}
initial: {warmth: 10}
targets: {wood: [3, 4]}
actions:
  - {name: Gather, effects: {has_wood: true}, cost: 2, target: wood}
  - {name: Burn, conditions: {has_wood: true}, effects: {warmth: increase}, cost: 1}
goals:
  - {name: Warm, conditions: {warmth: ">= 50"}}
`)
	f, err := domain.Parse("camp.yaml", src)
	if err != nil {
		fmt.Print(domain.Format(err, src))
		return
	}
	d, w := f.Resolver, f.World
	snap, _ := d.SnapshotOf(w.Values, w.At, w.Targets)
	res, _ := resolver.NewResolver(d).Resolve(nil, snap, d.Goal("Warm"), resolver.Options{})
	fmt.Println(d.FormatChain(res.Chain), res.Cost)
	// Output: Gather → Burn 8
}

// An equality on an integer key has no direction, so no effect could
// serve it: the loader says so, at its position.
func ExampleParse_equality() {
	src := []byte(`name: camp
keys: {warmth: int}
goals:
  - {name: Warm, conditions: {warmth: 50}}
`)
	_, err := domain.Parse("camp.yaml", src)
	fmt.Print(domain.Format(err, src))
	// Output:
	// camp.yaml:4:39: condition warmth: 50 is an equality on an integer key, and an equality has no direction, so no effect could serve it: write ">= 50" or "<= 50", or use a boolean key
	//     4 |   - {name: Warm, conditions: {warmth: 50}}
	//       |                                       ^
}
