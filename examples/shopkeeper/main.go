// Command shopkeeper is the engine model's shopkeeper, "who fetches a
// ladder because the thing you asked for is on a high shelf", in the
// runtime. Customers come one at a time and ask for an item. The world's
// sensor decides whether the shopkeeper can reach it: a low shelf always, a
// high one only with the ladder standing under the item. Nobody wrote
// "fetch the ladder for high items": on a low shelf the chain is TakeItem →
// HandOver; on a high one TakeItem cannot be the head, and the resolver
// puts FetchLadder → PlaceLadder in front. A ladder left standing under the
// shelf is fetched from there next time, and an item the ladder already
// stands under needs no fetching at all.
//
// The shop runs on a fixed-step clock; the mover walks a metre a tick.
package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"strings"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/resolver"
)

// Item is something on a shelf.
type Item struct {
	Name string
	At   resolver.Point
	High bool
}

// Shop is the world: the counter, the shelves' items, the ladder, the
// queue of customers and the shopkeeper.
type Shop struct {
	Domain  *resolver.Domain
	Keeper  *agent.ResolverAgent
	Events  agent.Recorder
	Counter resolver.Point
	Items   map[string]*Item
	Ladder  resolver.Point // where it stands, when not carried
	// LadderUnder is the item the ladder stands under, if any.
	LadderUnder string
	Carrying    bool // the ladder
	Holding     bool // the asked-for item
	At          resolver.Point
	Asks        []string // customers still to come, in order
	Wanted      string   // the waiting customer's item, "" if nobody waits
	Served      int
	Tick        int
	nextAt      int // tick the next customer comes in
	busy        int
	out         io.Writer
	queue       *agent.Queue
}

// NewShop builds the shop; customers will ask for asks, in order.
func NewShop(asks []string, out io.Writer) (*Shop, error) {
	return NewShopWith(asks, out, Setup{})
}

// Setup changes how the shop runs its keeper, for the tests: a queue its
// chains are resolved through (nil: each on its own tick) and a sink for
// its decision records.
type Setup struct {
	Queue     *agent.Queue
	Decisions agent.DecisionSink
}

// NewShopWith builds the shop as NewShop does, set up as setup says.
func NewShopWith(asks []string, out io.Writer, setup Setup) (*Shop, error) {
	d, err := resolver.NewDomain(domains.Shopkeeper())
	if err != nil {
		return nil, err
	}
	s := &Shop{
		Domain: d,
		Items: map[string]*Item{
			"tea":  {Name: "tea", At: resolver.Point{X: 3, Y: 1}},
			"soap": {Name: "soap", At: resolver.Point{X: 2, Y: -2}},
			"lamp": {Name: "lamp", At: resolver.Point{X: 5, Y: 3}, High: true},
			"vase": {Name: "vase", At: resolver.Point{X: 5, Y: 3}, High: true},
			"rope": {Name: "rope", At: resolver.Point{X: -4, Y: 3}, High: true},
		},
		Ladder: resolver.Point{X: -2, Y: 4},
		Asks:   asks,
		nextAt: 1,
		out:    out,
		queue:  setup.Queue,
	}
	for _, a := range asks {
		if s.Items[a] == nil {
			return nil, fmt.Errorf("the shop has no %q", a)
		}
	}
	key := func(name string) resolver.KeyID {
		k, _ := d.Key(name)
		return k
	}
	served, holding, reach, ladder := key("customer_served"), key("holding_item"), key("can_reach_item"), key("has_ladder")
	s.Keeper, err = agent.NewResolverAgent(agent.ResolverConfig{
		Name:   "keeper",
		Domain: d,
		Goals: []agent.ResolverGoal{{
			Goal: d.Goal("ServeCustomer"), Priority: 1,
			When: func(*agent.ResolverAgent) bool { return s.Wanted != "" },
		}},
		Sensor: func(_ *agent.ResolverAgent, snap *resolver.Snapshot) {
			snap.Values[served] = b(s.Wanted == "")
			snap.Values[holding] = b(s.Holding)
			snap.Values[reach] = b(s.Wanted != "" && s.reachable(s.Items[s.Wanted]))
			snap.Values[ladder] = b(s.Carrying)
			snap.At = s.At
		},
		Targets: map[string]agent.TargetSensor{
			"counter": func(*agent.ResolverAgent) agent.Where { return agent.AtPoint(s.Counter) },
			"item": func(*agent.ResolverAgent) agent.Where {
				if s.Wanted == "" {
					return agent.Where{}
				}
				return agent.AtPoint(s.Items[s.Wanted].At)
			},
			"ladder": func(*agent.ResolverAgent) agent.Where {
				if s.Carrying {
					return agent.AtPoint(s.At)
				}
				return agent.AtPoint(s.Ladder)
			},
		},
		Behaviours: s.behaviours(),
		Mover:      agent.MoverFunc(s.moveToward),
		Policy:     agent.Policy{Kind: agent.Reactive},
		Queue:      setup.Queue,
		Decisions:  setup.Decisions,
		OnEvent: func(e agent.Event) {
			s.Events.Record(e)
			s.narrate(e)
		},
	})
	return s, err
}

func b(v bool) int64 {
	if v {
		return 1
	}
	return 0
}

// reachable is the sensor's rule: a low shelf is in reach; a high one only
// from the ladder standing under the item.
func (s *Shop) reachable(it *Item) bool {
	return !it.High || (!s.Carrying && s.Ladder == it.At)
}

func (s *Shop) moveToward(target resolver.Point, stop float64) agent.MoveStatus {
	dist := math.Hypot(target.X-s.At.X, target.Y-s.At.Y)
	if dist <= stop+1e-9 {
		return agent.Arrived
	}
	step := math.Min(1, dist-stop)
	s.At.X += (target.X - s.At.X) / dist * step
	s.At.Y += (target.Y - s.At.Y) / dist * step
	if dist-step <= stop+1e-9 {
		return agent.Arrived
	}
	return agent.Moving
}

func (s *Shop) behaviours() map[string]agent.ResolverBehaviour {
	timed := func(ticks int, done func()) agent.ResolverBehaviour {
		return agent.ResolverFuncs{
			StartFunc: func(*agent.ResolverAgent) { s.busy = 0 },
			TickFunc: func(*agent.ResolverAgent) agent.Status {
				if s.busy++; s.busy < ticks {
					return agent.Running
				}
				done()
				return agent.Success
			},
		}
	}
	return map[string]agent.ResolverBehaviour{
		"FetchLadder": timed(1, func() { s.Carrying = true }),
		"PlaceLadder": timed(2, func() { s.Carrying, s.Ladder = false, s.Items[s.Wanted].At }),
		"TakeItem":    timed(1, func() { s.Holding = true }),
		"HandOver": timed(1, func() {
			s.say("the customer leaves with the %s", s.Wanted)
			s.Holding, s.Wanted = false, ""
			s.Served++
			s.nextAt = s.Tick + 3
		}),
	}
}

// Step advances the shop by one tick: a customer may come in, and the
// shopkeeper ticks.
func (s *Shop) Step() {
	s.Tick++
	if s.Wanted == "" && len(s.Asks) > 0 && s.Tick >= s.nextAt {
		s.Wanted, s.Asks = s.Asks[0], s.Asks[1:]
		it := s.Items[s.Wanted]
		shelf := "a low shelf"
		if it.High {
			shelf = "a high shelf"
		}
		s.say("a customer asks for the %s, on %s at %s", it.Name, shelf, at(it.At))
	}
	s.Keeper.Tick()
	if s.queue != nil {
		s.queue.Frame()
	}
}

func (s *Shop) say(format string, args ...any) {
	fmt.Fprintf(s.out, "%3d   %s\n", s.Tick, fmt.Sprintf(format, args...))
}

func (s *Shop) narrate(e agent.Event) {
	var line string
	switch e.Kind {
	case agent.PlanMade:
		line = fmt.Sprintf("chain %s, cost %.1f", strings.Join(e.Plan, " → "), e.Cost)
	case agent.NoPlanFound:
		line = "finds no chain (" + e.Reason + ")"
	case agent.MoveStarted:
		line = fmt.Sprintf("walks from %s for %s", at(s.At), e.Action)
	case agent.TargetReached:
		line = fmt.Sprintf("reaches %s", at(s.At))
	case agent.StepDone:
		line = "does " + e.Action
	case agent.ActionFailed:
		line = fmt.Sprintf("drops %s: %s", e.Action, e.Reason)
	default:
		return
	}
	fmt.Fprintf(s.out, "%3d %s\n", s.Tick, line)
}

func at(p resolver.Point) string { return fmt.Sprintf("(%.1f,%.1f)", p.X, p.Y) }

// Run serves every customer (or gives up after limit ticks), writing the
// story to out.
func Run(asks []string, limit int, out io.Writer) (*Shop, error) {
	s, err := NewShop(asks, out)
	if err != nil {
		return nil, err
	}
	for (s.Wanted != "" || len(s.Asks) > 0) && s.Tick < limit {
		s.Step()
	}
	st := s.Keeper.Stats()
	fmt.Fprintf(out, "%d customers served in %d ticks; %d resolves, %d steps\n", s.Served, s.Tick, st.Plans, st.StepsDone)
	return s, nil
}

func main() {
	if _, err := Run([]string{"tea", "lamp", "soap", "vase", "rope"}, 500, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
