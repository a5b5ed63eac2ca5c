package pddl_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/pddl"
)

// adlDomain uses each ADL construct once or more, on lines of its own so
// that the positions in the expected trees below can be read off it.
const adlDomain = `(define (domain adl)
  (:requirements :adl :derived-predicates :action-costs)
  (:types t u - object)
  (:constants c0 - t)
  (:predicates (p ?x - t) (q ?x ?y - t) (r ?y - u) (s) (d ?a - t ?b - (either t u)))
  (:functions (total-cost) - number)
  (:action a
    :parameters (?x - t)
    :precondition (and
      (or (p ?x) (s))
      (not (and (p ?x) (s)))
      (not (not (p ?x)))
      (imply (p ?x) (exists (?y - (either t u)) (q ?x ?y)))
      (forall (?x - u ?z) (r ?x)))
    :effect (and (s) (not (p ?x)) (increase (total-cost) 2)
      (forall (?y - t)
        (and (q ?x ?y)
             (when (p ?y) (and (not (q ?y ?x)) (when (s) (p ?y))))
             (forall (?z - u) (r ?z))))
      (when (not (s)) (and (and) (forall (?w) (and))))
      (forall (?x - t) (p ?x))))
  (:derived (d ?a ?b) (and (q ?a ?b) (not (s))))
  (:derived (d ?a ?b - u) (exists (?c - t) (d ?a ?c))))`

// TestADLFormulas checks the tree of each condition: kinds, quantified
// variables with their types (either types too), positions, and (not
// (not F)) read as F.
func TestADLFormulas(t *testing.T) {
	d := mustDomain(t, adlDomain)
	pre := d.Actions[0].Precondition
	if pre.Kind != pddl.And || len(pre.Sub) != 5 {
		t.Fatalf("precondition %s", renderFormula(pre))
	}
	for i, want := range []string{
		"(or@10:7 (p@10:11 ?x@10:14) (s@10:18))",
		"(not@11:7 (and@11:12 (p@11:17 ?x@11:20) (s@11:24)))",
		"(p@12:17 ?x@12:20)",
		"(imply@13:7 (p@13:14 ?x@13:17) (exists@13:21 (?y - (either t u)@13:30[t u]) (q@13:49 ?x@13:52 ?y@13:55)))",
		"(forall@14:7 (?x - u@14:16 ?z - object@14:23) (r@14:27 ?x@14:30))",
	} {
		if got := renderFormula(pre.Sub[i]); got != want {
			t.Errorf("conjunct %d:\n got %s\nwant %s", i, got, want)
		}
	}
}

// TestADLEffects checks the flattening of forall and when effects: one
// entry per forall or when holding atoms of its own, its variables those
// of every enclosing forall, outermost first, its condition the
// conjunction of the enclosing whens', its position the outermost
// forall's or when's; an entry with nothing to add or delete is left out;
// a forall's variable may shadow a parameter.
func TestADLEffects(t *testing.T) {
	d := mustDomain(t, adlDomain)
	e := d.Actions[0].Effect
	want := []string{
		"add (s@15:18); del (p@15:27 ?x@15:30); cost 2@15:35;",
		"{@16:7 vars (?y - t@16:16) when <nil> add (q@17:14 ?x@17:17 ?y@17:20);",
		"} {@16:7 vars (?y - t@16:16) when (p@18:20 ?y@18:23) del (q@18:37 ?y@18:40 ?x@18:43);",
		"} {@16:7 vars (?y - t@16:16) when (and@18:20 (p@18:20 ?y@18:23) (s@18:54)) add (p@18:58 ?y@18:61);",
		"} {@16:7 vars (?y - t@16:16 ?z - u@19:23) when <nil> add (r@19:31 ?z@19:34);",
		"} {@21:7 vars (?x - t@21:16) when <nil> add (p@21:24 ?x@21:27); }",
	}
	if got := renderEffect(e); got != strings.Join(want, " ") {
		t.Errorf("effect:\n got %s\nwant %s", got, strings.Join(want, "\n     "))
	}
}

// TestADLWhenInWhen: whens nest without a forall too, each entry's
// condition the conjunction of those around it, its position the
// outermost when's.
func TestADLWhenInWhen(t *testing.T) {
	d := mustDomain(t, `(define (domain w) (:predicates (p ?x) (s) (r))
  (:action a :parameters (?x) :precondition (and)
    :effect (and (r)
      (when (s) (and (p ?x) (when (p ?x) (and (not (s)) (when (r) (not (r))))))))))`)
	want := "add (r@3:18); " +
		"{@4:7 vars () when (s@4:13) add (p@4:22 ?x@4:25); } " +
		"{@4:7 vars () when (and@4:13 (s@4:13) (p@4:35 ?x@4:38)) del (s@4:52); } " +
		"{@4:7 vars () when (and@4:13 (s@4:13) (p@4:35 ?x@4:38) (r@4:63)) del (r@4:72); }"
	if got := renderEffect(d.Actions[0].Effect); got != want {
		t.Errorf("effect:\n got %s\nwant %s", got, want)
	}
}

// TestADLDerived checks :derived rules: the head's variables typed from
// the predicate's declaration unless the head types them (the second
// rule's "?a ?b - u" types both), the body, the
// rule's position (its head's), and IsDerived.
func TestADLDerived(t *testing.T) {
	d := mustDomain(t, adlDomain)
	if len(d.Derived) != 2 {
		t.Fatalf("%d rules", len(d.Derived))
	}
	var got []string
	for _, r := range d.Derived {
		var sb strings.Builder
		fmt.Fprintf(&sb, "%s@%s", r.Name, r.Pos)
		for _, prm := range r.Params {
			fmt.Fprintf(&sb, " %s - %s %v", prm.Name, prm.Type, prm.Either)
		}
		fmt.Fprintf(&sb, " : %s", renderFormula(r.Body))
		got = append(got, sb.String())
	}
	wantLines(t, "rules", got, []string{
		"d@22:13 ?a - t [] ?b - (either t u) [t u] : (and@22:23 (q@22:28 ?a@22:31 ?b@22:34) (not@22:38 (s@22:43)))",
		"d@23:13 ?a - u [] ?b - u [] : (exists@23:27 (?c - t@23:36) (d@23:44 ?a@23:47 ?c@23:50))",
	})
	if !d.IsDerived("d") || d.IsDerived("p") || d.IsDerived("nosuch") {
		t.Error("IsDerived")
	}
}

// TestADLGoal: a problem's goal may quantify over objects and constants,
// and its quantified variables are in scope in their body only.
func TestADLGoal(t *testing.T) {
	d := mustDomain(t, adlDomain)
	const prob = `(define (problem g) (:domain adl)
  (:objects o1 - t o2 - u)
  (:init (p o1))
  (:goal (and (forall (?x - t) (imply (p ?x) (exists (?y - u) (or (r ?y) (q ?x c0))))) (d o1 o2))))`
	p, err := pddl.ParseProblem("g.pddl", []byte(prob))
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Check(d); err != nil {
		t.Fatal(err)
	}
	want := "(and@4:10 (forall@4:15 (?x - t@4:24) (imply@4:32 (p@4:39 ?x@4:42) (exists@4:46 (?y - u@4:55) " +
		"(or@4:63 (r@4:67 ?y@4:70) (q@4:74 ?x@4:77 c0@4:80))))) (d@4:88 o1@4:91 o2@4:94))"
	if got := renderFormula(p.Goal); got != want {
		t.Errorf("goal:\n got %s\nwant %s", got, want)
	}
}

// TestADLRequirements: every ADL flag is accepted, and so are the
// constructs with no flag declared, as the reference planners accept
// them.
func TestADLRequirements(t *testing.T) {
	flags := []string{":adl", ":disjunctive-preconditions", ":existential-preconditions",
		":universal-preconditions", ":quantified-preconditions", ":conditional-effects", ":derived-predicates"}
	dom := strings.Replace(adlDomain, "(:requirements :adl :derived-predicates :action-costs)",
		"(:requirements "+strings.Join(flags, " ")+")", 1)
	d := mustDomain(t, dom)
	if !slices.Equal(d.Requirements, flags) {
		t.Errorf("requirements %v", d.Requirements)
	}
	undeclared := mustDomain(t, strings.Replace(adlDomain, "(:requirements :adl :derived-predicates :action-costs)", "", 1))
	_, withFlags, _ := strings.Cut(renderDomain(mustDomain(t, adlDomain)), "\n")
	_, without, _ := strings.Cut(renderDomain(undeclared), "\n")
	if withFlags != without {
		t.Errorf("without its requirements the domain reads otherwise:\n%s\nwith them:\n%s", without, withFlags)
	}
}

func mustDomain(t *testing.T, src string) *pddl.Domain {
	t.Helper()
	d, err := pddl.ParseDomain("adl.pddl", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// adlDir is ../shared/pddl-adl, beside sharedDir; "" if it is not there.
func adlDir() string {
	if sharedDir == "" {
		return ""
	}
	dir := filepath.Join(filepath.Dir(sharedDir), "pddl-adl")
	if !fileExists(filepath.Join(dir, "instances.tsv")) {
		return ""
	}
	return dir
}

// adlInstance is one line of pddl-adl/instances.tsv.
type adlInstance struct {
	dir, problem, domain string
	// optimal is the instance's optimal cost; fdBlind and fdLMCut the
	// reference planner's expansions with blind search and LM-cut, -1
	// where not given.
	optimal, fdBlind, fdLMCut int64
	features                  []string
}

func (in adlInstance) name() string { return in.dir + "/" + in.problem }

// adlInstances reads ../shared/pddl-adl/instances.tsv, whose features
// column says which constructs each instance uses.
func adlInstances(t testing.TB) (string, []adlInstance) {
	dir := adlDir()
	if dir == "" {
		t.Skip("no ../shared/pddl-adl beside this checkout")
	}
	tsv, err := os.ReadFile(filepath.Join(dir, "instances.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	var out []adlInstance
	for i, line := range strings.Split(strings.TrimSpace(string(tsv)), "\n")[1:] {
		f := strings.Split(line, "\t")
		if len(f) < 7 {
			t.Fatalf("instances.tsv line %d: %d fields", i+2, len(f))
		}
		num := func(s string) int64 {
			if s == "" {
				return -1
			}
			v, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				t.Fatalf("instances.tsv line %d: %v", i+2, err)
			}
			return v
		}
		out = append(out, adlInstance{f[0], f[1], f[2], num(f[3]), num(f[4]), num(f[5]), strings.Fields(f[6])})
	}
	return dir, out
}

// TestADLInstancesParse parses and checks the 26 ADL instances of 9
// domains, and finds in each tree the constructs its features column
// lists: the parser reads them, it does not drop them.
func TestADLInstancesParse(t *testing.T) {
	dir, all := adlInstances(t)
	if len(all) != 26 {
		t.Errorf("instances.tsv lists %d instances, want 26", len(all))
	}
	domains := map[string]bool{}
	for _, in := range all {
		t.Run(in.dir+"/"+in.problem, func(t *testing.T) {
			domPath, probPath := filepath.Join(dir, in.dir, in.domain), filepath.Join(dir, in.dir, in.problem)
			d, p, err := pddl.ReadPair(domPath, probPath)
			if err != nil {
				t.Fatal(err)
			}
			domains[in.dir+"/"+in.domain] = true
			found := constructs(d, p)
			for _, f := range in.features {
				if !found[f] {
					t.Errorf("feature %s listed, not in the tree (found %v)", f, found)
				}
			}
			t.Logf("%d actions, %d conditional effects, %d derived rules, %d objects; features %v",
				len(d.Actions), countConditional(d), len(d.Derived), len(p.Objects), in.features)
		})
	}
	if len(domains) != 11 { // pathways has a domain file for each of its 3 problems
		t.Errorf("%d domain files, want 11 (9 domains)", len(domains))
	}
}

func countConditional(d *pddl.Domain) int {
	n := 0
	for _, a := range d.Actions {
		n += len(a.Effect.Conditional)
	}
	return n
}

// constructs names the features of instances.tsv that d and p use: C a
// when, Q a quantifier or forall effect, D an or or imply, X a derived
// rule, K an action cost.
func constructs(d *pddl.Domain, p *pddl.Problem) map[string]bool {
	found := map[string]bool{}
	var walk func(f *pddl.Formula)
	walk = func(f *pddl.Formula) {
		switch f.Kind {
		case pddl.Or, pddl.Imply:
			found["D"] = true
		case pddl.Exists, pddl.Forall:
			found["Q"] = true
		}
		for _, s := range f.Sub {
			walk(s)
		}
	}
	for _, a := range d.Actions {
		walk(a.Precondition)
		for _, c := range a.Effect.Conditional {
			if c.Cond != nil {
				found["C"] = true
				walk(c.Cond)
			}
			if len(c.Vars) > 0 {
				found["Q"] = true
			}
		}
		if len(a.Effect.Cost) > 0 {
			found["K"] = true
		}
	}
	for _, r := range d.Derived {
		found["X"] = true
		walk(r.Body)
	}
	walk(p.Goal)
	return found
}
