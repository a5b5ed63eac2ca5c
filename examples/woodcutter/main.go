// Command woodcutter is the ECS module's example (see docs/background.md):
// several woodcutters and a few trees. Each woodcutter plans a trip
// (ChopTree{i}, then Deliver) with ChopTree's cost the walk to that tree,
// so that "go to the nearest free tree" falls out of the planner. A tree
// claimed by another woodcutter is not free in the planner's facts
// (plan-time avoidance); one claimed after the plan was made makes ChopTree
// fail and the woodcutter replan (replan-on-failure). When every tree is
// taken there is no plan: the woodcutter idles and retries, a normal
// outcome.
package main

import (
	"fmt"
	"math"
	"os"
	"strings"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/goap"
)

const (
	speed    = 2.0 // metres per tick
	chopTime = 5   // ticks per log
)

type tree struct {
	x        float64
	logs     int
	occupant int // woodcutter chopping it, or -1
}

type cutter struct {
	x         float64
	carrying  bool
	delivered bool // this trip's delivery is done
	timer     int
	agent     *agent.Agent
}

// Forest is the world: trees along a line, a stockpile at x = 0.
type Forest struct {
	d       *goap.Domain
	trees   []*tree
	cutters []*cutter
	stock   int
	tick    int
	// Violations counts ticks on which two woodcutters chopped one tree.
	Violations int
	Log        strings.Builder
	setup      Setup
}

func treeFact(i int) string { return fmt.Sprintf("tree%d_free", i) }

// NewForest builds the domain and the world: trees at the given distances
// with the given logs each, and n woodcutters at the stockpile.
func NewForest(distances []float64, logs, n int) (*Forest, error) {
	return NewForestWith(distances, logs, n, Setup{})
}

// Setup changes how the forest runs its woodcutters, for the tests: a
// queue their plans are made on (nil: each plans on its own tick) and a
// sink for their decision records.
type Setup struct {
	Queue     *agent.Queue
	Decisions agent.DecisionSink
}

// NewForestWith builds the forest as NewForest does, set up as setup says.
func NewForestWith(distances []float64, logs, n int, setup Setup) (*Forest, error) {
	spec := goap.Spec{Name: "woodcutter", Facts: []string{"has_wood", "delivered"}}
	for i := range distances {
		spec.Facts = append(spec.Facts, treeFact(i))
		spec.Actions = append(spec.Actions, goap.ActionSpec{
			Name:          fmt.Sprintf("ChopTree%d", i),
			Preconditions: map[string]bool{treeFact(i): true, "has_wood": false},
			Effects:       map[string]bool{"has_wood": true},
			Cost:          goap.Const(1), // each woodcutter prices its own walk: see Step
		})
	}
	spec.Actions = append(spec.Actions, goap.ActionSpec{
		Name: "Deliver", Preconditions: map[string]bool{"has_wood": true},
		Effects: map[string]bool{"has_wood": false, "delivered": true}, Cost: goap.Const(1),
	})
	spec.Goals = []goap.GoalSpec{{Name: "DeliverWood", Conditions: map[string]bool{"delivered": true}}}
	d, err := goap.NewDomain(spec)
	if err != nil {
		return nil, err
	}
	f := &Forest{d: d, setup: setup}
	for _, x := range distances {
		f.trees = append(f.trees, &tree{x: x, logs: logs, occupant: -1})
	}
	for i := 0; i < n; i++ {
		if err := f.addCutter(i); err != nil {
			return nil, err
		}
	}
	return f, nil
}

func (f *Forest) addCutter(i int) error {
	c := &cutter{}
	f.cutters = append(f.cutters, c)
	behaviours := map[string]agent.Behaviour{"Deliver": agent.Funcs{TickFunc: func(*agent.Agent) agent.Status {
		if !f.walk(c, 0) {
			return agent.Running
		}
		c.carrying, c.delivered = false, true
		f.stock++
		fmt.Fprintf(&f.Log, "%4d cutter %d delivers (stock %d)\n", f.tick, i, f.stock)
		return agent.Success
	}}}
	for t, tr := range f.trees {
		behaviours[fmt.Sprintf("ChopTree%d", t)] = agent.Funcs{
			StartFunc: func(*agent.Agent) { c.timer, c.delivered = chopTime, false },
			TickFunc: func(*agent.Agent) agent.Status {
				if !f.walk(c, tr.x) {
					return agent.Running
				}
				if tr.logs == 0 || (tr.occupant >= 0 && tr.occupant != i) {
					fmt.Fprintf(&f.Log, "%4d cutter %d finds tree %d taken\n", f.tick, i, t)
					return agent.Failure // taken since the plan was made
				}
				tr.occupant = i
				if c.timer--; c.timer > 0 {
					return agent.Running
				}
				tr.logs--
				tr.occupant = -1
				c.carrying = true
				return agent.Success
			},
			StopFunc: func(*agent.Agent) {
				if tr.occupant == i {
					tr.occupant = -1
				}
			},
		}
	}
	a, err := agent.New(agent.Config{
		Name:       fmt.Sprintf("cutter%d", i),
		Domain:     f.d,
		Goals:      []agent.GoalOption{{Goal: f.d.Goal("DeliverWood"), Priority: 1}},
		Behaviours: behaviours,
		Sensor:     func(_ *agent.Agent, facts goap.State) { f.sense(i, facts) },
		RetryAfter: 10,
		Queue:      f.setup.Queue,
		Decisions:  f.setup.Decisions,
	})
	c.agent = a
	return err
}

// sense maps the world to one woodcutter's facts: a tree is free if it has
// logs and nobody else is chopping it.
func (f *Forest) sense(i int, facts goap.State) {
	c := f.cutters[i]
	set := func(name string, v bool) {
		fact, _ := f.d.Fact(name)
		facts.Set(fact, v)
	}
	set("has_wood", c.carrying)
	set("delivered", c.delivered)
	for t, tr := range f.trees {
		set(treeFact(t), tr.logs > 0 && (tr.occupant < 0 || tr.occupant == i))
	}
}

// walks prices each ChopTree by the walk from where the woodcutter stands
// to the tree and back to the stockpile, in ticks, plus the chopping.
func (f *Forest) walks(c *cutter) *goap.Profile {
	costs := map[string]goap.Cost{}
	for t, tr := range f.trees {
		costs[fmt.Sprintf("ChopTree%d", t)] = goap.Const(math.Abs(tr.x-c.x)/speed + tr.x/speed + chopTime)
	}
	p, err := f.d.NewProfile(goap.ProfileSpec{Costs: costs})
	if err != nil {
		panic(err) // the names are the domain's own
	}
	return p
}

func (f *Forest) walk(c *cutter, x float64) bool {
	d := x - c.x
	if math.Abs(d) <= speed {
		c.x = x
		return true
	}
	c.x += math.Copysign(speed, d)
	return false
}

// Step advances every woodcutter by one tick. A woodcutter whose trip is
// over starts the next: its delivered fact goes back to false, and its
// ChopTree costs become the walks from where it stands.
func (f *Forest) Step() {
	f.tick++
	for _, c := range f.cutters {
		if c.agent.Plan() == nil {
			c.delivered = false
			c.agent.SetProfile(f.walks(c))
		}
		c.agent.Tick()
	}
	if q := f.setup.Queue; q != nil {
		q.Frame()
	}
	chopping := map[int]int{}
	for i, c := range f.cutters {
		if id, ok := c.agent.Current(); ok && strings.HasPrefix(f.d.ActionName(id), "ChopTree") {
			var t int
			fmt.Sscanf(f.d.ActionName(id), "ChopTree%d", &t)
			if f.trees[t].occupant == i {
				chopping[t]++
			}
		}
	}
	for _, n := range chopping {
		if n > 1 {
			f.Violations++
		}
	}
}

// Stock returns the logs delivered so far; Left the logs still on trees.
func (f *Forest) Stock() int { return f.stock }

func (f *Forest) Left() int {
	n := 0
	for _, t := range f.trees {
		n += t.logs
	}
	return n
}

func main() {
	f, err := NewForest([]float64{10, 14, 30}, 2, 4)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for f.Left() > 0 || anyCarrying(f) {
		f.Step()
		if f.tick > 2000 {
			break
		}
	}
	fmt.Print(f.Log.String())
	for i, c := range f.cutters {
		s := c.agent.Stats()
		fmt.Printf("cutter %d: %d plans, %d replans %v, %d times no free tree\n", i, s.Plans, s.Replans, s.ReplanReasons, s.NoPlan)
	}
	fmt.Printf("%d logs delivered in %d ticks; never two woodcutters on one tree: %v\n", f.Stock(), f.tick, f.Violations == 0)
}

func anyCarrying(f *Forest) bool {
	for _, c := range f.cutters {
		if c.carrying {
			return true
		}
	}
	return false
}
