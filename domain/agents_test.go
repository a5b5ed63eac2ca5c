package domain_test

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ploy-ai/ploy/domain"
	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/goap"
)

// TestSoldierPersonalities checks the two personalities as the soldier file
// ships it: the offensive soldier goes for the kill first and the defensive
// one for cover; given the kill as goal, the offensive one shoots (cost 9)
// and the defensive one, seeing shooting dearer, fights with the axe (cost
// 10, against 11 for its gun plan).
func TestSoldierPersonalities(t *testing.T) {
	f := loadShipped(t, "soldier.yaml")
	g := f.GOAP
	var names []string
	for _, a := range f.Agents {
		names = append(names, a.Name)
	}
	if !slices.Equal(names, []string{"offensive", "defensive"}) {
		t.Fatalf("agents %q, want offensive and defensive", names)
	}
	offensive, _ := f.Agent("offensive")
	defensive, _ := f.Agent("defensive")
	if offensive.Profile != nil {
		t.Error("the offensive soldier changes no cost, yet has a profile")
	}
	state := func(set ...string) goap.State {
		s := g.Initial()
		for _, name := range set {
			neg := strings.HasPrefix(name, "!")
			fact, ok := g.Fact(strings.TrimPrefix(name, "!"))
			if !ok {
				t.Fatalf("no fact %s", name)
			}
			s.Set(fact, !neg)
		}
		return s
	}
	for _, c := range []struct {
		agent *domain.Agent
		state goap.State
		want  string
	}{
		{offensive, state(), "KillPlayer"},
		{defensive, state(), "GetSafe"},
		{defensive, state("at_cover"), "KillPlayer"},        // safe already: the next option
		{offensive, state("!player_alive"), "GetSafe"},      // the kill is done
		{offensive, state("!player_alive", "at_cover"), ""}, // everything holds: idle
		{defensive, state("!player_alive", "at_cover", "!hp_high"), "GetSafe"},
	} {
		o, ok := c.agent.Choose(c.state, nil)
		got := ""
		if ok {
			got = o.Goal.Name()
		}
		if got != c.want {
			t.Errorf("%s in %s chooses %q, want %q", c.agent.Name, g.FormatState(c.state), got, c.want)
		}
	}
	kill := g.Goal("KillPlayer")
	plan := func(a *domain.Agent) goap.Result {
		res, err := goap.NewPlanner(g).Plan(nil, g.Initial(), kill, goap.Options{Profile: a.Profile})
		if err != nil || res.Status != goap.Found {
			t.Fatalf("%s: %v %v", a.Name, res.Status, err)
		}
		return res
	}
	names = nil
	res := plan(offensive)
	for _, a := range res.Plan {
		names = append(names, g.ActionName(a))
	}
	if res.Cost != 9 || !slices.Equal(names, []string{"PickUpGun", "ApproachPlayer", "AttackRanged"}) {
		t.Errorf("offensive KillPlayer: %q cost %g, want the gun at cost 9", names, res.Cost)
	}
	names = nil
	res = plan(defensive)
	for _, a := range res.Plan {
		names = append(names, g.ActionName(a))
	}
	if res.Cost != 10 || !slices.Equal(names, []string{"PickUpAxe", "ApproachPlayer", "AttackMelee"}) {
		t.Errorf("defensive KillPlayer: %q cost %g, want the axe at cost 10", names, res.Cost)
	}
	// The file says what domains.DefensiveSoldier says in Go.
	want, _ := g.NewProfile(domains.DefensiveSoldier())
	for a := range g.NumActions() {
		id := goap.ActionID(a)
		if w, got := want.CostIn(id, g.Initial()), defensive.Profile.CostIn(id, g.Initial()); w != got {
			t.Errorf("%s costs the defensive soldier %g in the file, %g in Go", g.ActionName(id), got, w)
		}
	}
	if _, err := f.Agent("defensiv"); err == nil || !strings.Contains(err.Error(), `did you mean "defensive"?`) {
		t.Errorf("a misspelt agent: %v", err)
	}
}

// TestAgentCapabilitiesAndHTN loads an agent limited to some actions and
// the battle mage's HTN agents built over another root.
func TestAgentCapabilitiesAndHTN(t *testing.T) {
	src, _ := fs.ReadFile(domains.Files, "battlemage.yaml")
	src = src[:strings.Index(string(src), "\ninputs:")] // the shipped agents left out
	src = append(src, []byte(`
agents:
  - name: pacifist
    goals: [{goal: GetHealthy, priority: 1}, {goal: Kill, priority: 2, when: {healthy: true}}]
    capabilities: [Approach, TakeCover, FetchPotion, DrinkPotion]
  - name: fighter
    htn: {root: Fight, mode: interrupt}
  - name: mage
    htn:
`)...)
	f, err := domain.Parse("mage.yaml", src)
	if err != nil {
		t.Fatal(err)
	}
	g := f.GOAP
	pacifist, _ := f.Agent("pacifist")
	cast, _ := g.ActionByName("CastBolt")
	drink, _ := g.ActionByName("DrinkPotion")
	if pacifist.Profile.Capable(cast) || !pacifist.Profile.Capable(drink) {
		t.Error("the pacifist's capabilities: CastBolt capable or DrinkPotion not")
	}
	res, _ := goap.NewPlanner(g).Plan(nil, g.Initial(), g.Goal("Kill"), goap.Options{Profile: pacifist.Profile})
	if res.Status != goap.NoPlan {
		t.Errorf("the pacifist plans Kill: %v", res.Status)
	}
	if o, ok := pacifist.Choose(g.Initial(), nil); !ok || o.Goal.Name() != "Kill" || o.When.Empty() {
		t.Errorf("healthy, the pacifist chooses %v, want Kill (its when holds)", o.Goal)
	}
	hurt := g.Initial()
	healthy, _ := g.Fact("healthy")
	hurt.Set(healthy, false)
	if o, ok := pacifist.Choose(hurt, nil); !ok || o.Goal.Name() != "GetHealthy" {
		t.Errorf("hurt, the pacifist chooses %v, want GetHealthy", o.Goal)
	}
	fighter, _ := f.Agent("fighter")
	mage, _ := f.Agent("mage")
	if fighter.HTN != f.HTN || f.HTN.TaskName(fighter.Root) != "Fight" || !fighter.Interrupt {
		t.Errorf("fighter: root %s, interrupt %v", f.HTN.TaskName(fighter.Root), fighter.Interrupt)
	}
	if mage.Root != f.HTN.Root() || mage.Interrupt || mage.Goals != nil {
		t.Errorf("mage: root %s, interrupt %v, want the file's root, on break", f.HTN.TaskName(mage.Root), mage.Interrupt)
	}
}

// TestManyAgents loads the most agents a file may have over a domain of
// many actions, each agent with a capability and a cost override, and
// refuses one more, at its position: the bound keeps the agents' profiles
// (each as large as the domain's actions) linear in the file's size.
func TestManyAgents(t *testing.T) {
	const actions = 4000
	var sb strings.Builder
	sb.WriteString("name: many\nfacts: [a]\nactions:\n")
	for i := range actions {
		fmt.Fprintf(&sb, "  - {name: A%d, effects: {a: true}, cost: 1}\n", i)
	}
	sb.WriteString("goals: [{name: G, conditions: {a: true}}]\nagents:\n")
	for i := range domain.MaxAgents {
		fmt.Fprintf(&sb, "  - {name: k%d, goals: [{goal: G, priority: 1}], capabilities: [A%d], costs: {A%d: 2}}\n", i, i, i)
	}
	start := time.Now()
	f, err := domain.Parse("many.yaml", []byte(sb.String()))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d agents over %d actions: %v", len(f.Agents), actions, time.Since(start))
	if len(f.Agents) != domain.MaxAgents || f.Agents[7].Profile.Capable(8) || !f.Agents[7].Profile.Capable(7) {
		t.Errorf("%d agents loaded, or agent k7's capabilities wrong", len(f.Agents))
	}
	line := 4 + actions + 2 + domain.MaxAgents
	sb.WriteString("  - {name: one_more, goals: [{goal: G, priority: 1}]}\n")
	_, err = domain.Parse("many.yaml", []byte(sb.String()))
	var list domain.ErrorList
	if !errors.As(err, &list) || len(list) != 1 || list[0].Pos.Line != line || !strings.Contains(list[0].Msg, "more than 256 agents") {
		t.Errorf("one agent too many: %v, want one error at line %d", err, line)
	}
}

// TestUtilityAndRanking checks goal options scored by utility over an
// input, a line and a curve, and the order Ranked gives: highest score
// first, ties in the file's order, options that hold or do not apply left
// out.
func TestUtilityAndRanking(t *testing.T) {
	f, err := domain.Parse("u.yaml", []byte(`name: u
facts: [fed, rested, safe]
actions:
  - {name: Eat, effects: {fed: true}, cost: 1}
  - {name: Sleep, effects: {rested: true}, cost: 1}
  - {name: Hide, effects: {safe: true}, cost: 1}
goals:
  - {name: Fed, conditions: {fed: true}}
  - {name: Rested, conditions: {rested: true}}
  - {name: Safe, conditions: {safe: true}}
inputs: {hunger: 0, danger: 0}
agents:
  - name: u
    goals:
      - {goal: Fed, utility: {input: hunger, slope: 0.125, offset: 0}}
      - {goal: Rested, utility: 5}
      - {goal: Safe, utility: {input: danger, points: [[0, 0], [10, 10], [20, 0]]}, when: {danger: "> 1"}}
`))
	if err != nil {
		t.Fatal(err)
	}
	a, _ := f.Agent("u")
	g := f.GOAP
	names := func(opts []domain.AgentGoal) string {
		var out []string
		for _, o := range opts {
			out = append(out, o.Goal.Name())
		}
		return strings.Join(out, " ")
	}
	for _, c := range []struct {
		hunger, danger float64
		want           string
	}{
		{0, 0, "Rested Fed"},       // Safe's when fails; Fed scores 0
		{40, 0, "Fed Rested"},      // a tie at 5: the file's order
		{48, 0, "Fed Rested"},      // 6
		{32, 0, "Rested Fed"},      // 4
		{0, 5, "Rested Safe Fed"},  // Safe 5 on the curve's rise: a tie, Rested listed first
		{0, 10, "Safe Rested Fed"}, // the curve's peak
		{0, 16, "Rested Safe Fed"}, // 4 on its fall
	} {
		if got := names(a.Ranked(g.Initial(), []float64{c.hunger, c.danger})); got != c.want {
			t.Errorf("hunger %g, danger %g: ranked %q, want %q", c.hunger, c.danger, got, c.want)
		}
	}
	fed, _ := g.Fact("fed")
	s := g.Initial()
	s.Set(fed, true)
	if got := names(a.Ranked(s, []float64{90, 0})); got != "Rested" {
		t.Errorf("fed already: ranked %q, want Rested alone", got)
	}
}
