package strips

import (
	"fmt"
	"github.com/ploy-ai/ploy/search"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// randomADLTask returns a small random task with conditional effects and
// axioms: basic facts f0..f(nbasic-1) and derived facts d0..d(nderived-1),
// d_i of layer i/2, so that some derived facts read others of their own
// layer (positively) and of lower layers (either way).
func randomADLTask(rng *rand.Rand, nbasic, nderived, nops int) *Task {
	t := &Task{Name: "random-adl"}
	for i := range nbasic {
		t.Facts = append(t.Facts, fmt.Sprintf("f%d", i))
	}
	for i := range nderived {
		t.Facts = append(t.Facts, fmt.Sprintf("d%d", i))
	}
	layerOf := func(d int) int32 { return int32(d / 2) }
	pick := func(n, from, to int) []Fact {
		var l []Fact
		for range n {
			if f := Fact(from + rng.IntN(to-from)); !slices.Contains(l, f) {
				l = append(l, f)
			}
		}
		slices.Sort(l)
		return l
	}
	minus := func(a, b []Fact) []Fact {
		var out []Fact
		for _, f := range a {
			if !slices.Contains(b, f) {
				out = append(out, f)
			}
		}
		return out
	}
	all := nbasic + nderived
	t.Init = pick(nbasic/2, 0, nbasic)
	t.Goal = pick(1+rng.IntN(2), 0, all)
	t.GoalNot = minus(pick(rng.IntN(2), 0, all), t.Goal)
	for i := range nops {
		o := Op{Name: fmt.Sprintf("(op%d)", i), Cost: int64(rng.IntN(4))}
		o.Pre = pick(rng.IntN(3), 0, all)
		o.PreNot = minus(pick(rng.IntN(2), 0, all), o.Pre)
		o.Add = pick(rng.IntN(2), 0, nbasic)
		o.Del = minus(pick(rng.IntN(2), 0, nbasic), o.Add)
		for range rng.IntN(3) {
			e := CondEffect{Cond: pick(1+rng.IntN(2), 0, all)}
			e.CondNot = minus(pick(rng.IntN(2), 0, all), e.Cond)
			e.Add = pick(rng.IntN(2), 0, nbasic)
			e.Del = pick(rng.IntN(2), 0, nbasic) // may overlap Add: add wins
			o.Effects = append(o.Effects, e)
		}
		t.Ops = append(t.Ops, o)
	}
	for d := range nderived {
		head := Fact(nbasic + d)
		for range 1 + rng.IntN(2) {
			a := Axiom{Head: head, Layer: layerOf(d)}
			// Body: basic facts and derived facts of this layer or lower.
			for _, f := range pick(1+rng.IntN(2), 0, all) {
				if int(f) < nbasic || layerOf(int(f)-nbasic) <= a.Layer {
					a.Body = append(a.Body, f)
				}
			}
			for _, f := range pick(rng.IntN(2), 0, all) {
				if (int(f) < nbasic || layerOf(int(f)-nbasic) < a.Layer) && !slices.Contains(a.Body, f) {
					a.BodyNot = append(a.BodyNot, f)
				}
			}
			t.Axioms = append(t.Axioms, a)
		}
	}
	return t
}

// The oracle's own semantics, written from the PDDL rules and sharing no
// code with the package's: states are []bool.

func naiveHolds(s []bool, pos, neg []Fact) bool {
	for _, f := range pos {
		if !s[f] {
			return false
		}
	}
	for _, f := range neg {
		if s[f] {
			return false
		}
	}
	return true
}

// naiveDerive recomputes s's derived facts: all false, then each layer
// from the lowest, firing its axioms until nothing changes.
func naiveDerive(t *Task, s []bool) {
	var layers []int32
	for _, a := range t.Axioms {
		s[a.Head] = false
		if !slices.Contains(layers, a.Layer) {
			layers = append(layers, a.Layer)
		}
	}
	slices.Sort(layers)
	for _, l := range layers {
		for changed := true; changed; {
			changed = false
			for _, a := range t.Axioms {
				if a.Layer == l && !s[a.Head] && naiveHolds(s, a.Body, a.BodyNot) {
					s[a.Head], changed = true, true
				}
			}
		}
	}
}

// naiveApply returns the state op o leads to from s, or nil if o does
// not apply.
func naiveApply(t *Task, o *Op, s []bool) []bool {
	if !naiveHolds(s, o.Pre, o.PreNot) {
		return nil
	}
	next := slices.Clone(s)
	var adds, dels []Fact
	adds, dels = append(adds, o.Add...), append(dels, o.Del...)
	for _, e := range o.Effects {
		if naiveHolds(s, e.Cond, e.CondNot) {
			adds, dels = append(adds, e.Add...), append(dels, e.Del...)
		}
	}
	for _, f := range dels {
		next[f] = false
	}
	for _, f := range adds {
		next[f] = true
	}
	naiveDerive(t, next)
	return next
}

func boolState(t *Task, w []uint64) []bool {
	s := make([]bool, len(t.Facts))
	for f := range s {
		s[f] = w[f/64]>>(f%64)&1 != 0
	}
	return s
}

func wordState(s []bool) []uint64 {
	w := make([]uint64, (len(s)+63)/64)
	for f, v := range s {
		if v {
			w[f/64] |= 1 << (f % 64)
		}
	}
	return w
}

// naiveOptimal returns, for every reachable state (keyed by its bits), the
// least cost to a goal state, -1 if none: a forward enumeration, then
// Dijkstra's algorithm backwards over the states found.
func naiveOptimal(t *Task) (start string, dist map[string]int64, states map[string][]bool) {
	key := func(s []bool) string {
		var b strings.Builder
		for _, v := range s {
			if v {
				b.WriteByte('1')
			} else {
				b.WriteByte('0')
			}
		}
		return b.String()
	}
	init := make([]bool, len(t.Facts))
	for _, f := range t.Init {
		init[f] = true
	}
	naiveDerive(t, init)
	start = key(init)
	states = map[string][]bool{start: init}
	type edge struct {
		from string
		cost int64
	}
	preds := map[string][]edge{}
	work := [][]bool{init}
	for len(work) > 0 {
		s := work[len(work)-1]
		work = work[:len(work)-1]
		for i := range t.Ops {
			next := naiveApply(t, &t.Ops[i], s)
			if next == nil {
				continue
			}
			k := key(next)
			preds[k] = append(preds[k], edge{key(s), t.Ops[i].Cost})
			if _, seen := states[k]; !seen {
				states[k] = next
				work = append(work, next)
			}
		}
	}
	dist = map[string]int64{}
	for k, s := range states {
		dist[k] = -1
		if naiveHolds(s, t.Goal, t.GoalNot) {
			dist[k] = 0
		}
	}
	done := map[string]bool{}
	for {
		best := ""
		for k, d := range dist {
			if !done[k] && d >= 0 && (best == "" || d < dist[best] || d == dist[best] && k < best) {
				best = k
			}
		}
		if best == "" {
			return start, dist, states
		}
		done[best] = true
		for _, e := range preds[best] {
			if d := dist[best] + e.cost; !done[e.from] && (dist[e.from] < 0 || d < dist[e.from]) {
				dist[e.from] = d
			}
		}
	}
}

// naiveReplay checks plan by the oracle's semantics and returns its cost.
func naiveReplay(t *Task, plan []int32) (int64, error) {
	s := make([]bool, len(t.Facts))
	for _, f := range t.Init {
		s[f] = true
	}
	naiveDerive(t, s)
	var cost int64
	for i, a := range plan {
		next := naiveApply(t, &t.Ops[a], s)
		if next == nil {
			return 0, fmt.Errorf("step %d: %s does not apply", i+1, t.Ops[a].Name)
		}
		s, cost = next, cost+t.Ops[a].Cost
	}
	if !naiveHolds(s, t.Goal, t.GoalNot) {
		return 0, fmt.Errorf("the goal does not hold at the end")
	}
	return cost, nil
}

// TestADLSearchMatchesOracle: on random tasks with conditional effects and
// axioms, every heuristic's search finds a plan of the optimal cost the
// oracle computes, the plan checks by the oracle's own semantics, the
// package's Replay agrees, and neither h_max nor LM-cut (its split
// actions sharing their costs) overestimates in a reachable state.
func TestADLSearchMatchesOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 1))
	solved := 0
	rounds := 300
	if testing.Short() {
		rounds = 80
	}
	for round := range rounds {
		task := randomADLTask(rng, 7, 4, 10)
		if round%3 == 0 { // axioms only: no action split
			for i := range task.Ops {
				task.Ops[i].Effects = nil
			}
		}
		if err := task.Validate(); err != nil {
			t.Fatalf("round %d: a generated task does not validate: %v", round, err)
		}
		start, dist, states := naiveOptimal(task)
		want := dist[start]
		for _, h := range []Heuristic{Blind, HMax, LMCut, Portfolio} {
			res, err := Search(task, Options{Heuristic: h})
			if err != nil {
				t.Fatalf("round %d %v: %v", round, h, err)
			}
			if want < 0 {
				if res.Status != NoPlan {
					t.Fatalf("round %d %v: status %v, plan %v, but no goal state is reachable", round, h, res.Status, res.Plan)
				}
				continue
			}
			if res.Status != Found || res.Cost != want {
				t.Fatalf("round %d %v: status %v cost %d, want found at the optimal %d", round, h, res.Status, res.Cost, want)
			}
			if c, err := naiveReplay(task, res.Plan); err != nil || c != want {
				t.Fatalf("round %d %v: plan %v: oracle replay cost %d, %v", round, h, res.Plan, c, err)
			}
			if c, err := task.Replay(res.Plan); err != nil || c != want {
				t.Fatalf("round %d %v: Replay cost %d, %v", round, h, c, err)
			}
		}
		if want >= 0 {
			solved++
		}
		hm := newHMax(task)
		lm := newLMCut(task)
		for k, s := range states {
			w := wordState(s)
			if d := dist[k]; d >= 0 {
				if h, dead := hm.estimate(w); dead || h > d {
					t.Fatalf("round %d: h_max %d (dead %v) in state %s, whose optimal cost is %d", round, h, dead, k, d)
				}
				if h, dead := checkedLMCut(t, lm, w); dead || h > d {
					t.Fatalf("round %d: LM-cut %d (dead %v) in state %s, whose optimal cost is %d", round, h, dead, k, d)
				}
			}
		}
	}
	if solved < rounds/4 {
		t.Fatalf("only %d of %d random tasks solvable: the generator tests too little", solved, rounds)
	}
	t.Logf("%d of %d random tasks solvable", solved, rounds)
}

// TestDeriveMatchesOracle: on random states, the linear-time deriver
// computes the derived facts the naive fixpoint does.
func TestDeriveMatchesOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 2))
	for round := range 200 {
		task := randomADLTask(rng, 8, 6, 0)
		if err := task.Validate(); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		d := newDeriver(task)
		for range 20 {
			s := make([]bool, len(task.Facts))
			for f := range s {
				s[f] = rng.IntN(2) == 0 // derived facts set at random too: derive must clear them
			}
			w := wordState(s)
			d.derive(w)
			naiveDerive(task, s)
			if got := boolState(task, w); !slices.Equal(got, s) {
				t.Fatalf("round %d: derived %v, want %v", round, got, s)
			}
		}
	}
}

func TestApplyToReadsConditionsBeforeAndAddsWin(t *testing.T) {
	task := &Task{Facts: []string{"a", "b", "c", "x", "y"}, Init: []Fact{0, 3}, Goal: []Fact{2}}
	// a → delete a, and when a holds (before) add c; when c holds (it
	// does not before) delete b; and one effect deletes what another adds.
	o := Op{Name: "(o)", Del: []Fact{0}, Add: []Fact{4}, Effects: []CondEffect{
		{Del: []Fact{4}}, // the operator's own add wins over an effect's delete
		{Cond: []Fact{0}, Add: []Fact{2}},
		{Cond: []Fact{2}, Del: []Fact{1}},
		{Cond: []Fact{0}, Add: []Fact{1}},
		{CondNot: []Fact{1}, Del: []Fact{1}},
		{Cond: []Fact{0}, Del: []Fact{3}}, // a holds before, though the operator deletes it
	}}
	task.Ops = []Op{o}
	if err := task.Validate(); err != nil {
		t.Fatal(err)
	}
	src := task.InitialState()
	dst := make([]uint64, 1)
	task.Ops[0].ApplyTo(dst, src)
	if got := boolState(task, dst); !slices.Equal(got, []bool{false, true, true, false, true}) {
		t.Fatalf("ApplyTo: %v, want a false, b true (added and deleted: added), c true, x false, y true", got)
	}
	if !slices.Equal(boolState(task, src), []bool{true, false, false, true, false}) {
		t.Fatal("ApplyTo changed its source")
	}
	task.Ops[0].Apply(src)
	if src[0] != dst[0] {
		t.Fatalf("Apply in place gave %b, ApplyTo %b", src[0], dst[0])
	}
}

func TestValidateRefusesBadAxioms(t *testing.T) {
	base := func() *Task {
		return &Task{Facts: []string{"a", "b", "d", "e"}, Init: []Fact{0},
			Ops:    []Op{{Name: "(o)", Add: []Fact{1}}},
			Axioms: []Axiom{{Head: 2, Body: []Fact{0}, Layer: 0}, {Head: 3, BodyNot: []Fact{2}, Layer: 1}}}
	}
	if err := base().Validate(); err != nil {
		t.Fatalf("a valid task: %v", err)
	}
	for _, c := range []struct {
		name string
		edit func(*Task)
		want string
	}{
		{"derived fact in init", func(t *Task) { t.Init = []Fact{0, 2} }, "init holds the derived fact d"},
		{"operator adds a derived fact", func(t *Task) { t.Ops[0].Add = []Fact{3} }, "(o) adds the derived fact e"},
		{"effect deletes a derived fact", func(t *Task) { t.Ops[0].Effects = []CondEffect{{Del: []Fact{2}}} }, "effect 1 deletes the derived fact d"},
		{"negation within a layer", func(t *Task) { t.Axioms[1].Layer = 0 }, "must be of a lower layer"},
		{"body of a higher layer", func(t *Task) { t.Axioms[0].Body = []Fact{3} }, "of the higher layer 1"},
		{"two layers for one head", func(t *Task) { t.Axioms = append(t.Axioms, Axiom{Head: 2, Layer: 1}) }, "another axiom for it has layer 0"},
		{"negative layer", func(t *Task) { t.Axioms[0].Layer = -1 }, "negative"},
		{"head out of range", func(t *Task) { t.Axioms[0].Head = 9 }, "head 9 out of range"},
		{"unsorted effect condition", func(t *Task) { t.Ops[0].Effects = []CondEffect{{Cond: []Fact{1, 0}}} }, "effect 1 condition: facts not sorted"},
	} {
		task := base()
		c.edit(task)
		err := task.Validate()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", c.name, err, c.want)
		}
	}
}

// adlTaskFromBytes decodes a small task with conditional effects and
// axioms from fuzz input: up to 6 basic facts and 3 derived ones (derived
// fact i of layer i), operators of up to two conditional effects, and
// axioms whose bodies the decoder keeps stratified.
func adlTaskFromBytes(data []byte) *Task {
	if len(data) < 5 {
		return nil
	}
	nb, nd := 1+int(data[0]%6), int(data[1]%4)
	all := nb + nd
	t := &Task{Name: "fuzz-adl"}
	for i := range nb {
		t.Facts = append(t.Facts, fmt.Sprintf("f%d", i))
	}
	for i := range nd {
		t.Facts = append(t.Facts, fmt.Sprintf("d%d", i))
	}
	list := func(mask byte, n int) []Fact {
		var l []Fact
		for i := range n {
			if mask>>i&1 != 0 {
				l = append(l, Fact(i))
			}
		}
		return l
	}
	t.Init = list(data[2], nb)
	t.Goal = list(data[3], all)
	t.GoalNot = list(data[4]&^data[3], all)
	rest := data[5:]
	for i := 0; len(rest) >= 6 && i < 12; i++ {
		o := Op{Name: fmt.Sprintf("(op%d)", i), Cost: int64(rest[4] % 5)}
		o.Pre, o.PreNot = list(rest[0], all), list(rest[1]&^rest[0], all)
		o.Add, o.Del = list(rest[2], nb), list(rest[3]&^rest[2], nb)
		k := int(rest[5] % 3)
		rest = rest[6:]
		for ; k > 0 && len(rest) >= 4; k-- {
			o.Effects = append(o.Effects, CondEffect{Cond: list(rest[0], all), CondNot: list(rest[1]&^rest[0], all),
				Add: list(rest[2], nb), Del: list(rest[3], nb)})
			rest = rest[4:]
		}
		t.Ops = append(t.Ops, o)
	}
	for len(rest) >= 3 && nd > 0 {
		d := int(rest[0]) % nd
		// Basic facts, derived ones of layers up to d, negated ones below d.
		upTo := byte(1<<(nb+d+1) - 1)
		below := byte(1<<(nb+d) - 1)
		body := list(rest[1]&upTo, all)
		t.Axioms = append(t.Axioms, Axiom{Head: Fact(nb + d), Body: body, BodyNot: list(rest[2]&below&^rest[1], all), Layer: int32(d)})
		rest = rest[3:]
	}
	return t
}

// FuzzADLSearch checks every estimator against the oracle's explicit-state
// search on tasks with conditional effects and axioms made from the
// fuzzer's bytes.
func FuzzADLSearch(f *testing.F) {
	f.Add([]byte{3, 1, 1, 8, 0, 1, 0, 2, 0, 1, 1, 1, 0, 4, 0, 0, 1, 6, 0})
	f.Add([]byte{5, 3, 3, 0x40, 0x80, 0, 0, 4, 1, 2, 2, 2, 0, 8, 0, 4, 1, 0, 16, 0, 0, 2, 1, 4, 0, 2, 0x48, 0x20})
	f.Fuzz(func(t *testing.T, data []byte) {
		task := adlTaskFromBytes(data)
		if task == nil {
			return
		}
		if err := task.Validate(); err != nil {
			t.Fatalf("the decoder made an invalid task: %v", err)
		}
		start, dist, _ := naiveOptimal(task)
		want := dist[start]
		for _, h := range []Heuristic{Portfolio, LMCut, HMax, Blind} {
			res, err := Search(task, Options{Heuristic: h})
			if err != nil {
				t.Fatalf("%s: %v", h, err)
			}
			switch {
			case want < 0 && res.Status != NoPlan:
				t.Fatalf("%s: %s, want no plan", h, res.Status)
			case want >= 0 && (res.Status != Found || res.Cost != want):
				t.Fatalf("%s: %s cost %d, want %d", h, res.Status, res.Cost, want)
			case want >= 0:
				if c, err := naiveReplay(task, res.Plan); err != nil || c != want {
					t.Fatalf("%s: plan %v replays at %d: %v", h, res.Plan, c, err)
				}
			}
		}
	})
}

// TestRelaxedUnreachableSeesEffectsAndAxioms: a goal fact that only a
// conditional effect or an axiom makes true is not reported out of reach;
// one nothing makes true is.
func TestRelaxedUnreachableSeesEffectsAndAxioms(t *testing.T) {
	task := &Task{Facts: []string{"a", "b", "c", "d", "never"}, Init: []Fact{0},
		Ops:    []Op{{Name: "(o)", Pre: []Fact{0}, Effects: []CondEffect{{Cond: []Fact{0}, Add: []Fact{1}}}}},
		Axioms: []Axiom{{Head: 3, Body: []Fact{1}}, {Head: 2, Body: []Fact{4}}},
		Goal:   []Fact{1, 3}}
	if err := task.Validate(); err != nil {
		t.Fatal(err)
	}
	if got := RelaxedUnreachable(task); len(got) != 0 {
		t.Fatalf("unreachable %v, want none: b comes from a conditional effect, d from an axiom", got)
	}
	task.Goal = []Fact{1, 2}
	if got := RelaxedUnreachable(task); !slices.Equal(got, []string{"c"}) {
		t.Fatalf("unreachable %v, want [c]: its axiom needs a fact nothing adds", got)
	}
}

func TestUnionMergesSortedLists(t *testing.T) {
	for _, c := range []struct{ a, b, want []Fact }{
		{nil, nil, []Fact{}},
		{[]Fact{1, 3}, nil, []Fact{1, 3}},
		{[]Fact{1, 3, 5}, []Fact{2, 3, 6}, []Fact{1, 2, 3, 5, 6}},
		{[]Fact{4}, []Fact{4}, []Fact{4}},
	} {
		if got := union(c.a, c.b); !slices.Equal(got, c.want) {
			t.Errorf("union(%v, %v) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

// TestADLAcrossWords: conditional effects and axioms on facts past the
// first word of a state.
func TestADLAcrossWords(t *testing.T) {
	task := &Task{}
	for i := range 140 {
		task.Facts = append(task.Facts, fmt.Sprintf("f%d", i))
	}
	task.Init = []Fact{70, 128}
	task.Ops = []Op{{Name: "(o)", Del: []Fact{70, 128}, Effects: []CondEffect{{Cond: []Fact{70}, Add: []Fact{65, 129}}, {CondNot: []Fact{70}, Add: []Fact{3}}}}}
	task.Axioms = []Axiom{{Head: 131, Body: []Fact{129}}}
	task.Goal = []Fact{131}
	if err := task.Validate(); err != nil {
		t.Fatal(err)
	}
	res, err := Search(task, Options{Heuristic: LMCut})
	if err != nil || res.Status != Found || len(res.Plan) != 1 {
		t.Fatalf("%v %v %v", res.Status, res.Plan, err)
	}
	src := task.InitialState()
	dst := make([]uint64, len(src))
	task.Ops[0].ApplyTo(dst, src)
	task.Derive(dst)
	want := make([]bool, 140)
	want[65], want[129], want[131] = true, true, true
	if got := boolState(task, dst); !slices.Equal(got, want) {
		t.Fatalf("after (o): facts %v", trueFacts(got))
	}
}

func trueFacts(s []bool) []int {
	var out []int
	for f, v := range s {
		if v {
			out = append(out, f)
		}
	}
	return out
}

// TestOneAxiomIsDerived: a task with a single axiom derives its head.
func TestOneAxiomIsDerived(t *testing.T) {
	task := &Task{Facts: []string{"a", "d"}, Init: []Fact{0}, Axioms: []Axiom{{Head: 1, Body: []Fact{0}}}, Goal: []Fact{1}}
	if err := task.Validate(); err != nil {
		t.Fatal(err)
	}
	if s := task.InitialState(); !Has(s, 1) {
		t.Fatal("d not derived from a in the initial state")
	}
}

// TestDeriveCountsItsWork: derive counts each axiom with its basic and
// negated body facts, and each time a derived fact wakes an axiom of its
// layer.
func TestDeriveCountsItsWork(t *testing.T) {
	// d0 :- a (2: the axiom and a); d1 :- d0 (1, then 1 when d0 wakes it).
	task := &Task{Facts: []string{"a", "d0", "d1"}, Axioms: []Axiom{{Head: 1, Body: []Fact{0}}, {Head: 2, Body: []Fact{1}}}}
	if err := task.Validate(); err != nil {
		t.Fatal(err)
	}
	s := []uint64{1}
	if work := newDeriver(task).derive(s); work != 4 || s[0] != 7 {
		t.Fatalf("derive: work %d, state %b; want 4 and all three facts", work, s[0])
	}
}

// TestValidateNamesTheAxiom: the checks of a single axiom's lists, each
// naming it.
func TestValidateNamesTheAxiom(t *testing.T) {
	for _, c := range []struct {
		name string
		ax   Axiom
		init []Fact
		want string
	}{
		{"derived in init", Axiom{Head: 2, Body: []Fact{0}}, []Fact{2}, "init holds the derived fact d"},
		{"body unsorted", Axiom{Head: 2, Body: []Fact{1, 0}}, nil, "axiom 1 for d body: facts not sorted"},
		{"negative body unsorted", Axiom{Head: 2, BodyNot: []Fact{1, 0}}, nil, "axiom 1 for d negative body: facts not sorted"},
		{"negative layer", Axiom{Head: 2, Layer: -1}, nil, "axiom 1 for d: layer -1 is negative"},
		{"negation in its layer", Axiom{Head: 2, BodyNot: []Fact{2}}, nil, "axiom 1 for d (layer 0) reads the negation of d of layer 0"},
	} {
		task := &Task{Facts: []string{"a", "b", "d"}, Init: c.init, Axioms: []Axiom{c.ax}}
		if err := task.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", c.name, err, c.want)
		}
	}
	task := &Task{Facts: []string{"a", "b", "d"}, Axioms: []Axiom{{Head: 2, Body: []Fact{0}}},
		Ops: []Op{{Name: "(o)", Effects: []CondEffect{{Add: []Fact{2}}}}}}
	if err := task.Validate(); err == nil || !strings.Contains(err.Error(), "effect 1 adds the derived fact d") {
		t.Errorf("an effect adding a derived fact: %v", err)
	}
}

// TestLMCutBytesDoNotDrift: what LM-cut says it holds does not change as
// it estimates, on a STRIPS task (where the operators lowered are the
// cut's, in its buffer) as on one with conditional effects (its own list):
// a search's memory must not depend on what the estimator did before.
func TestLMCutBytesDoNotDrift(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 9))
	for round := range 40 {
		var task *Task
		if round%2 == 0 {
			task = randomTask(rng, 12, 30)
		} else {
			task = randomADLTask(rng, 8, 3, 12)
		}
		l := newLMCut(task)
		before := l.bytes()
		for range 20 {
			s := make([]bool, len(task.Facts))
			for f := range s {
				s[f] = rng.IntN(2) == 0
			}
			w := wordState(s)
			if task.Axioms != nil {
				task.Derive(w)
			}
			l.estimate(w)
			if after := l.bytes(); after != before {
				t.Fatalf("round %d: LM-cut held %d bytes, then %d after an estimate", round, before, after)
			}
		}
	}
}

// TestConditionalEffectsCountWork: applying an operator's conditional
// effects is counted work, 32 steps a unit, so that an operator of many
// effects cannot run a search past its MaxWork unseen.
func TestConditionalEffectsCountWork(t *testing.T) {
	// One operator of 6 400 effects, each read (1) and its one condition
	// and one add (2): 19 200 steps, 600 units.
	task := &Task{Facts: []string{"g", "x"}, Init: []Fact{1}, Goal: []Fact{0}}
	op := Op{Name: "(a)", Cost: 1}
	for range 6400 {
		op.Effects = append(op.Effects, CondEffect{Cond: []Fact{1}, Add: []Fact{0}})
	}
	task.Ops = []Op{op}
	if err := task.Validate(); err != nil {
		t.Fatal(err)
	}
	res, err := Search(task, Options{Heuristic: Blind})
	if err != nil || res.Status != Found || res.Stats.Work < 600 {
		t.Fatalf("%s, %v, work %d: want found, at least 600 units", res.Status, err, res.Stats.Work)
	}
	res, _ = Search(task, Options{Heuristic: Blind, Limits: search.Limits{MaxWork: 300}})
	if res.Status != LimitReached {
		t.Fatalf("%s under a work limit of 300, work %d: the effects' 600 units were not counted", res.Status, res.Stats.Work)
	}
}
