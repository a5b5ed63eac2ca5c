package pddl

import "slices"

// Types in grounding. Objects are numbered in a preorder of the type tree
// (each type under its first parent), so that where every type has one
// parent and no either type is used, a type's objects are the ids lo..hi-1
// and a parameter is an interval. A type with a second parent, or an
// either type, may take objects from several places of that order: its
// parameter then ranges over the interval that holds them all and must
// match a static relation of its objects, as a precondition the join
// checks like any other (the way the reference planners compile types
// into type predicates).

// typeSet is the objects a parameter of a type takes.
type typeSet struct {
	lo, hi int32
	n      int64   // the type's objects
	ids    []int32 // nil: all of lo..hi-1; else the type's objects, increasing
	rel    int32   // ids' relation once made, or -1
}

// typeInfo is what typeOf needs, built in setup.
type typeInfo struct {
	idx     map[string]int // type name -> index, 0 being object
	pre     []int32        // each type's preorder number
	out     []int32        // the preorder number past its subtree
	objPre  []int32        // each object id's type preorder number, increasing
	general bool           // a type with two parents or an either type is used
	down    [][]int        // each type's children through any parent
	objType [][]int        // each object id's types: its either type's alternatives, or its type
	sets    map[string]*typeSet
	work    int64
}

// usesGeneralTypes says whether d or p declares a type in two groups or
// uses an either type anywhere grounding reads types.
func usesGeneralTypes(d *Domain, p *Problem, rules []rule) bool {
	for i := range rules {
		for _, r := range append([]rule{rules[i]}, rules[i].effects...) {
			for _, prm := range r.params {
				if prm.Either != nil {
					return true
				}
			}
		}
	}
	for _, t := range d.Types {
		if len(t.Parents) > 1 {
			return true
		}
	}
	for _, o := range d.Constants {
		if o.Either != nil {
			return true
		}
	}
	for _, o := range p.Objects {
		if o.Either != nil {
			return true
		}
	}
	for _, pr := range d.Predicates {
		for _, prm := range pr.Params {
			if prm.Either != nil {
				return true
			}
		}
	}
	for _, a := range d.Actions {
		for _, prm := range a.Params {
			if prm.Either != nil {
				return true
			}
		}
	}
	return false
}

// typeOf is the objects of a type reference; ok is false if a type in it
// is undefined. Past lim.joinWork steps of resolving types (a hostile
// hierarchy), it fails with an error at pos.
func (g *grounder) typeOf(typ string, either []string, pos Pos) (*typeSet, bool, error) {
	ti := &g.types
	if s := ti.sets[typ]; s != nil {
		return s, true, nil
	}
	alts := alternatives(typ, either)
	for _, t := range alts {
		if _, ok := ti.idx[t]; !ok {
			return nil, false, nil
		}
	}
	s := &typeSet{rel: -1}
	if !ti.general {
		t := ti.idx[typ]
		lo, _ := slices.BinarySearch(ti.objPre, ti.pre[t])
		hi, _ := slices.BinarySearch(ti.objPre, ti.out[t])
		s.lo, s.hi, s.n = int32(lo), int32(hi), int64(hi-lo)
		ti.sets[typ] = s
		return s, true, nil
	}
	// The types that are of this one: the alternatives and their
	// descendants through any parent.
	of := make([]bool, len(ti.down))
	ti.work += int64(len(of)) // so that many distinct either types over many types run into the bound too
	var todo []int
	for _, t := range alts {
		if i := ti.idx[t]; !of[i] {
			of[i] = true
			todo = append(todo, i)
		}
	}
	for len(todo) > 0 {
		t := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		for _, c := range ti.down[t] {
			if ti.work++; !of[c] {
				of[c] = true
				todo = append(todo, c)
			}
		}
	}
	// The objects each of whose types is of this one.
	var ids []int32
	for id, types := range ti.objType {
		ti.work += int64(len(types))
		all := true
		for _, t := range types {
			all = all && of[t]
		}
		if all {
			ids = append(ids, int32(id))
		}
	}
	if ti.work > g.lim.joinWork {
		return nil, false, g.fail(pos, "resolving the parameters' types takes more than %d steps (pddl.MaxJoinWork): too many types with two parents or either types", g.lim.joinWork)
	}
	s.n = int64(len(ids))
	if len(ids) > 0 {
		s.lo, s.hi = ids[0], ids[len(ids)-1]+1
		if int64(s.hi-s.lo) != s.n {
			s.ids = ids
		}
	}
	ti.sets[typ] = s
	return s, true, nil
}

// typeRelation is the static relation of a type set's objects, made on
// first use, or -1 if the set is an interval.
func (g *grounder) typeRelation(s *typeSet) int32 {
	if s.ids == nil {
		return -1
	}
	if s.rel < 0 {
		r := newRelation(1, len(g.objNames))
		for _, id := range s.ids {
			r.insert([]int32{id})
		}
		r.done = r.n
		s.rel = int32(len(g.rels))
		g.rels = append(g.rels, r)
		g.static = append(g.static, true)
	}
	return s.rel
}

// typeCount is how many objects a type reference has (0 if undefined).
func (g *grounder) typeCount(prm Param) int64 {
	s, ok, err := g.typeOf(prm.Type, prm.Either, prm.Pos)
	if !ok || err != nil {
		return 0
	}
	return s.n
}
