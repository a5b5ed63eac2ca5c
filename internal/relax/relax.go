// Package relax answers reachability questions about a GOAP domain in its
// delete relaxation, where facts once reached stay reached: which facts can
// ever be made true or false from a state, and, for one that cannot, why.
// A fact the relaxation cannot reach is unreachable for real; the converse
// does not hold, so callers fall back on search for the rest.
package relax

import (
	"fmt"
	"strings"

	"github.com/ploy-ai/ploy/goap"
)

// Literal is a fact with a value.
type Literal struct {
	Fact  goap.Fact
	Value bool
}

func (l Literal) index() int {
	if l.Value {
		return 2 * int(l.Fact)
	}
	return 2*int(l.Fact) + 1
}

// Format writes l in words: "f" or "not f".
func Format(d *goap.Domain, l Literal) string {
	if l.Value {
		return d.FactName(l.Fact)
	}
	return "not " + d.FactName(l.Fact)
}

// Reach is the set of literals reachable from a state.
type Reach struct {
	d       *goap.Domain
	reached []bool
	// Capable, if set, limits the actions considered.
	capable func(goap.ActionID) bool
	// achievers[achieverOf[l]:achieverOf[l+1]] are the capable actions
	// whose effects make literal l (by index) so, in action order: Why
	// reads them for each literal it explains, so that an explanation
	// costs its own length, not a pass over every action per literal.
	// anyAchiever[l] says whether any action at all does (capable or not).
	achievers   []goap.ActionID
	achieverOf  []int32
	anyAchiever []bool
	// work counts the condition and effect literals From read, for the
	// tests that check it grows linearly with the domain.
	work int
}

// MaxWhy bounds an explanation's length in bytes: past it, Why stops
// following blocked preconditions and ends with "…". maxWhyNames bounds the
// achievers named for one literal: past it, the first are named and then
// "or others". Without them one explanation could run along every action
// of a long chain, once per unreachable goal, action and method.
const (
	MaxWhy      = 1024
	maxWhyNames = 8
)

// From computes the literals reachable from s using the actions capable
// allows (all, if nil). Both values of each free fact are reachable: the
// world, not only actions, changes those (a sensor's "healthy").
//
// It is a worklist: each action waits on the count of its preconditions not
// yet reached, and a literal, once reached, counts down the actions that
// need it; so the closure costs the domain's conditions and effects once
// (and a pass over each action's condition words), where repeating passes
// over every action until none adds a literal cost actions × passes, up
// to actions² on a chain listed backwards.
func From(d *goap.Domain, s goap.State, capable func(goap.ActionID) bool, free ...goap.Fact) *Reach {
	r := &Reach{d: d, reached: make([]bool, 2*d.NumFacts()), capable: capable}
	for f := goap.Fact(0); int(f) < d.NumFacts(); f++ {
		r.reached[Literal{f, s.Has(f)}.index()] = true
	}
	for _, f := range free {
		r.reached[Literal{f, true}.index()] = true
		r.reached[Literal{f, false}.index()] = true
	}
	r.achievers, r.achieverOf = byLiteral(d, d.Effects, capable)
	r.anyAchiever = make([]bool, 2*d.NumFacts())
	for l := range r.anyAchiever {
		r.anyAchiever[l] = r.achieverOf[l] < r.achieverOf[l+1]
	}
	if capable != nil {
		_, of := byLiteral(d, d.Effects, nil)
		for l := range r.anyAchiever {
			r.anyAchiever[l] = of[l] < of[l+1]
		}
	}
	needs, needOf := byLiteral(d, d.Preconditions, capable)
	unmet := make([]int32, d.NumActions())
	var ready []goap.ActionID
	for a := goap.ActionID(0); int(a) < d.NumActions(); a++ {
		if capable != nil && !capable(a) {
			continue
		}
		for f, v := range d.Preconditions(a).Facts {
			r.work++
			if !r.reached[Literal{f, v}.index()] {
				unmet[a]++
			}
		}
		if unmet[a] == 0 {
			ready = append(ready, a)
		}
	}
	for len(ready) > 0 {
		a := ready[len(ready)-1]
		ready = ready[:len(ready)-1]
		for f, v := range d.Effects(a).Facts {
			r.work++
			l := Literal{f, v}.index()
			if r.reached[l] {
				continue
			}
			r.reached[l] = true
			for _, b := range needs[needOf[l]:needOf[l+1]] {
				r.work++
				if unmet[b]--; unmet[b] == 0 {
					ready = append(ready, b)
				}
			}
		}
	}
	return r
}

// byLiteral indexes the literals of each action's condition (its
// preconditions or its effects) by literal: the actions of literal l are
// list[of[l]:of[l+1]], in action order. Actions capable refuses are left
// out.
func byLiteral(d *goap.Domain, condition func(goap.ActionID) goap.Condition, capable func(goap.ActionID) bool) (list []goap.ActionID, of []int32) {
	of = make([]int32, 2*d.NumFacts()+1)
	for a := goap.ActionID(0); int(a) < d.NumActions(); a++ {
		if capable != nil && !capable(a) {
			continue
		}
		for f, v := range condition(a).Facts {
			of[Literal{f, v}.index()+1]++
		}
	}
	for l := 1; l < len(of); l++ {
		of[l] += of[l-1]
	}
	list = make([]goap.ActionID, of[len(of)-1])
	next := make([]int32, len(of)-1)
	copy(next, of)
	for a := goap.ActionID(0); int(a) < d.NumActions(); a++ {
		if capable != nil && !capable(a) {
			continue
		}
		for f, v := range condition(a).Facts {
			l := Literal{f, v}.index()
			list[next[l]] = a
			next[l]++
		}
	}
	return list, of
}

// Has reports whether l is reachable.
func (r *Reach) Has(l Literal) bool { return r.reached[l.index()] }

// Applicable reports whether a can ever apply: it is capable and every
// precondition is reachable.
func (r *Reach) Applicable(a goap.ActionID) bool {
	if r.capable != nil && !r.capable(a) {
		return false
	}
	_, ok := r.Missing(r.d.Preconditions(a))
	return ok
}

// Missing returns the first literal of c that is not reachable, and false,
// or true if every literal is.
func (r *Reach) Missing(c goap.Condition) (Literal, bool) {
	for f, v := range c.Facts {
		if !r.Has(Literal{f, v}) {
			return Literal{f, v}, false
		}
	}
	return Literal{}, true
}

// Achievers returns the actions with an effect that makes l hold.
func Achievers(d *goap.Domain, l Literal) []goap.ActionID {
	var out []goap.ActionID
	for a := goap.ActionID(0); int(a) < d.NumActions(); a++ {
		if v, ok := d.Effects(a).Get(l.Fact); ok && v == l.Value {
			out = append(out, a)
		}
	}
	return out
}

// Why explains in words why the unreachable literal l cannot be reached,
// following the first blocked precondition of each action that would make
// it hold, back to a fact that nothing can change:
//
//	healthy: only DrinkPotion makes it true; it needs carrying_potion, which
//	only FetchPotion makes true; FetchPotion needs potion_at_shrine, which
//	is false and which no action makes true
func (r *Reach) Why(l Literal) string {
	var sb strings.Builder
	r.why(&sb, l, map[int]bool{}, true)
	return sb.String()
}

func (r *Reach) why(sb *strings.Builder, l Literal, seen map[int]bool, first bool) {
	d := r.d
	seen[l.index()] = true
	word, current := "true", "false"
	if !l.Value {
		word, current = "false", "true"
	}
	usable := r.achievers[r.achieverOf[l.index()]:r.achieverOf[l.index()+1]]
	more := len(usable) > maxWhyNames
	if more {
		usable = usable[:maxWhyNames]
	}
	if first {
		fmt.Fprintf(sb, "%s: ", d.FactName(l.Fact))
	}
	if len(usable) == 0 {
		if first {
			fmt.Fprintf(sb, "it is %s and no action makes it %s", current, word)
		} else {
			fmt.Fprintf(sb, "which is %s and which no action makes %s", current, word)
		}
		if r.anyAchiever[l.index()] {
			sb.WriteString(" that this agent can do")
		}
		return
	}
	names := make([]string, len(usable))
	for i, a := range usable {
		names[i] = d.ActionName(a)
	}
	if more {
		names = append(names, "others")
	}
	only := "only "
	if len(names) > 1 {
		only = ""
	}
	if first {
		fmt.Fprintf(sb, "%s%s makes it %s", only, join(names), word)
	} else {
		fmt.Fprintf(sb, "which %s%s makes %s", only, join(names), word)
	}
	for _, a := range usable {
		if sb.Len() >= MaxWhy {
			if !strings.HasSuffix(sb.String(), "…") {
				sb.WriteString("; …")
			}
			return
		}
		miss, ok := r.Missing(d.Preconditions(a))
		if ok {
			continue // cannot happen for an unreachable l
		}
		if first && len(usable) == 1 {
			fmt.Fprintf(sb, "; it needs %s", Format(d, miss))
		} else {
			fmt.Fprintf(sb, "; %s needs %s", d.ActionName(a), Format(d, miss))
		}
		if seen[miss.index()] {
			sb.WriteString(", which is blocked in turn by the above")
			continue
		}
		if sb.Len() >= MaxWhy {
			sb.WriteString(", …")
			return
		}
		sb.WriteString(", ")
		r.why(sb, miss, seen, false)
	}
}

func join(names []string) string {
	switch len(names) {
	case 1:
		return names[0]
	case 2:
		return names[0] + " or " + names[1]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}
