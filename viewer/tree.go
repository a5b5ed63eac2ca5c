package viewer

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/goap"
)

// maxTreeTicks bounds a tree's run: each tick that does not idle runs at
// least one action, and the soldier's tree kills the player in at most
// four ticks from any state, so this is many times what it needs.
const maxTreeTicks = 32

// treeGoal is the goal the soldier's tree pursues, and figure 5's GOAP
// plans for.
const treeGoal = "KillPlayer"

// soldierBranch is one branch of the soldier's tree: its name, what it
// does in words, and its nodes.
type soldierBranch struct {
	Name string `json:"name"`
	Does string `json:"does"`
	node func(d *goap.Domain) agent.Node
}

// soldierTree is the behaviour tree a designer would write for the
// soldier lesson's soldier (see docs/background.md), derived from the
// lesson's text:
//
//   - it spells out the soldier's two attack moves, approachPlayer and
//     attackRanged (needs hasGun), so the main branch is the gun's: pick
//     up the gun, close to range, shoot. The author expects the gun lying
//     nearby, as the lesson's default state has it ("✓ arma cerca").
//   - the state's other toggles are "hp alto" and "en cobertura", and the
//     lesson has soldiers take cover when hurt: a hurt soldier takes cover,
//     then heals, before anything else.
//   - the axe (melee) is the close-quarters weapon: the author uses it
//     when the player is already in melee range, as a fallback to the gun.
//   - a selector over those, in priority order, the player dead first.
//
// So the tree covers the typical cases, and the lesson's point about
// trees beside GOAP follows: on a combination the author did not
// anticipate it falls into idle. With
// the gun gone and the player out of melee range, no branch applies,
// while GOAP picks up the axe, approaches and strikes (cost 10).
var soldierTree = []soldierBranch{
	{"player down", "player_alive is false: nothing to do", func(d *goap.Domain) agent.Node {
		return agent.FactIs(d, "player_alive", false)
	}},
	{"hurt: take cover", "hp_high false and not at_cover: TakeCover", func(d *goap.Domain) agent.Node {
		return agent.Sequence(agent.FactIs(d, "hp_high", false), agent.FactIs(d, "at_cover", false), agent.Action(d, "TakeCover"))
	}},
	{"hurt: heal", "hp_high false: Heal", func(d *goap.Domain) agent.Node {
		return agent.Sequence(agent.FactIs(d, "hp_high", false), agent.Action(d, "Heal"))
	}},
	{"shoot", "has_gun, else PickUpGun; player_in_ranged, else ApproachPlayer; AttackRanged", func(d *goap.Domain) agent.Node {
		return agent.Sequence(
			agent.Selector(agent.FactIs(d, "has_gun", true), agent.Action(d, "PickUpGun")),
			agent.Selector(agent.FactIs(d, "player_in_ranged", true), agent.Action(d, "ApproachPlayer")),
			agent.Action(d, "AttackRanged"))
	}},
	{"axe up close", "player_in_melee; has_axe, else PickUpAxe; AttackMelee", func(d *goap.Domain) agent.Node {
		return agent.Sequence(
			agent.FactIs(d, "player_in_melee", true),
			agent.Selector(agent.FactIs(d, "has_axe", true), agent.Action(d, "PickUpAxe")),
			agent.Action(d, "AttackMelee"))
	}},
}

// The facts and actions the soldier's tree names: a domain must define
// them all (the agent package's nodes panic on an unknown name).
var (
	treeFacts   = []string{"player_alive", "hp_high", "at_cover", "has_gun", "player_in_ranged", "player_in_melee", "has_axe"}
	treeActions = []string{"TakeCover", "Heal", "PickUpGun", "ApproachPlayer", "AttackRanged", "PickUpAxe", "AttackMelee"}
)

// branchNode records which branch of the tree ran at a tick.
type branchNode struct {
	name  string
	child agent.Node
	ran   *string
}

func (b branchNode) Tick(a *agent.Agent) agent.Status {
	st := b.child.Tick(a)
	if st != agent.Failure {
		*b.ran = b.name
	}
	return st
}

func (b branchNode) Halt(a *agent.Agent) { b.child.Halt(a) }

// treeRequest is the body of tree: a domain and a start state.
type treeRequest struct {
	source
	startRequest
}

type treeTick struct {
	Tick    int      `json:"tick"`
	Branch  string   `json:"branch"` // empty: no branch applied, the tree idles
	Actions []string `json:"actions"`
}

type treeAnswer struct {
	Goal   string          `json:"goal"`
	Status string          `json:"status"` // done, idle or ticks_out
	Steps  []string        `json:"steps"`
	Ticks  []treeTick      `json:"ticks"`
	Facts  []string        `json:"facts"`
	Tree   []soldierBranch `json:"tree"`
}

// tree answers POST /api/v1/tree: the soldier's behaviour tree ticked by
// the agent runtime from the request's start state, in a world where each
// action does what its effects say, until the goal holds, a tick in which
// no branch applies (idle), or maxTreeTicks.
func (s *Server) tree(body []byte) ([]byte, error) {
	var q treeRequest
	if err := decode(body, &q); err != nil {
		return nil, err
	}
	f, err := s.stateSpace(q.source, "tree")
	if err != nil {
		return nil, err
	}
	d := f.GOAP
	var missing []string
	for _, name := range treeFacts {
		if _, ok := d.Fact(name); !ok {
			missing = append(missing, "fact "+name)
		}
	}
	for _, name := range treeActions {
		if _, ok := d.ActionByName(name); !ok {
			missing = append(missing, "action "+name)
		}
	}
	goal := d.Goal(treeGoal)
	if goal == nil {
		missing = append(missing, "goal "+treeGoal)
	}
	if len(missing) > 0 {
		return nil, &apiError{Status: http.StatusUnprocessableEntity, Field: "domain", Message: fmt.Sprintf("%s: the tree is the soldier's and needs its %s", f.Path, strings.Join(missing, ", "))}
	}
	world, err := q.state(d)
	if err != nil {
		return nil, err
	}
	var ran string
	children := make([]agent.Node, len(soldierTree))
	for i, b := range soldierTree {
		children[i] = branchNode{name: b.Name, child: b.node(d), ran: &ran}
	}
	behaviours := map[string]agent.Behaviour{}
	for id := goap.ActionID(0); int(id) < d.NumActions(); id++ {
		behaviours[d.ActionName(id)] = agent.Funcs{TickFunc: func(*agent.Agent) agent.Status {
			d.Apply(id, world)
			return agent.Success
		}}
	}
	ans := treeAnswer{Goal: treeGoal, Status: "ticks_out", Steps: []string{}, Ticks: []treeTick{}, Tree: soldierTree}
	var done []string
	a, err := agent.New(agent.Config{Name: "soldier-bt", Domain: d, Tree: agent.Selector(children...), Behaviours: behaviours,
		Sensor: func(_ *agent.Agent, facts goap.State) { facts.CopyFrom(world) },
		OnEvent: func(e agent.Event) {
			if e.Kind == agent.StepDone {
				done = append(done, e.Action)
			}
		}})
	if err != nil {
		return nil, err
	}
	for tick := 1; tick <= maxTreeTicks; tick++ {
		if goal.Holds(world) {
			ans.Status = "done"
			break
		}
		ran, done = "", []string{}
		a.Tick()
		ans.Ticks = append(ans.Ticks, treeTick{Tick: tick, Branch: ran, Actions: done})
		ans.Steps = append(ans.Steps, done...)
		if ran == "" {
			ans.Status = "idle"
			break
		}
	}
	if ans.Status == "ticks_out" && goal.Holds(world) {
		ans.Status = "done"
	}
	ans.Facts = []string{}
	for i, name := range d.Facts() {
		if world.Has(goap.Fact(i)) {
			ans.Facts = append(ans.Facts, name)
		}
	}
	return line(ans)
}
