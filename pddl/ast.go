package pddl

import "strings"

// Domain is a parsed domain file. Every name in it is lower-case.
type Domain struct {
	File string
	Name string
	// Requirements as written, such as ":typing"; the parser accepts the
	// subset's constructs whether declared or not, as other planners do.
	Requirements []string
	// Types in declaration order, without the implicit root "object".
	Types      []*Type
	Constants  []*Object
	Predicates []*Predicate
	// Functions are numeric: total-cost, and static ones that give
	// action costs from :init.
	Functions []*Function
	Actions   []*Action
	// Derived holds the :derived rules, in order: a predicate some rule
	// defines is derived, true in a state exactly where a rule's body
	// holds (PDDL 2.2's axioms), never in :init or an effect.
	Derived []*Derived

	types   map[string]*Type
	consts  map[string]*Object
	preds   map[string]*Predicate
	funcs   map[string]*Function
	derived map[string]*Derived // each derived predicate's first rule
}

// Type is a declared type and its parents, one for each group of
// :types that declares it ("object" at the root). A type declared in two
// groups, as storage declares area under object and under surface, is a
// subtype of both, as the reference planners read it.
type Type struct {
	Name    string
	Parents []string
	Pos     Pos // the first declaration

	parentPos []Pos
}

// Object is a domain constant or a problem object, with its type. Type is
// a type's name, or an either type as written, "(either a b)", whose
// alternatives Either holds: the object is of one of them, so it may
// stand for a parameter only if each of them is of the parameter's type.
type Object struct {
	Name, Type string
	Either     []string
	Pos        Pos

	typePos Pos
}

// Param is a typed variable: of a predicate, function or action. Its
// name starts with "?". Type is a type's name or, for an either type,
// "(either a b)" with the alternatives in Either: the parameter takes
// the objects of any of them.
type Param struct {
	Name, Type string
	Either     []string
	Pos        Pos

	typePos Pos // where the type is written, for its error; zero if it is not
}

// Predicate is a declared predicate.
type Predicate struct {
	Name   string
	Params []Param
	Pos    Pos
}

// Function is a declared numeric function.
type Function struct {
	Name   string
	Params []Param
	Pos    Pos
}

// Action is an action schema.
type Action struct {
	Name   string
	Params []Param
	// Precondition is never nil: an empty And is true.
	Precondition *Formula
	Effect       Effect
	Pos          Pos
}

// FormulaKind says what a Formula node is.
type FormulaKind uint8

const (
	And    FormulaKind = iota // Sub holds the conjuncts (none: true)
	Not                       // Sub[0] is the negated formula
	Atom                      // Pred holds the predicate and its arguments
	Equal                     // Pred holds "=" and the two terms
	Or                        // Sub holds the disjuncts (none: false)
	Imply                     // Sub[0] implies Sub[1]
	Exists                    // some binding of Vars makes Sub[0] true
	Forall                    // every binding of Vars makes Sub[0] true
)

// Formula is a precondition, goal, effect condition or derived
// predicate's body, as written: STRIPS files use only And, Not, Atom and
// Equal, with Not around an Atom or Equal; ADL files any of the kinds,
// nested. The grounder normalises it (negations pushed to the literals,
// universal conditions and large disjunctions made derived predicates);
// the tree keeps the file's shape, so that errors and Replay read it as
// written.
type Formula struct {
	Kind FormulaKind
	Sub  []*Formula
	Pred AtomTerm
	// Vars are the variables an Exists or Forall binds, typed as
	// parameters are, in scope in Sub[0] only; a name may shadow one
	// of an enclosing scope.
	Vars []Param
	Pos  Pos
}

// AtomTerm is a predicate (or "=", or a function) applied to terms.
type AtomTerm struct {
	Name string
	Args []Term
	Pos  Pos
}

// Term is a variable (its name starts with "?") or an object or constant.
type Term struct {
	Name string
	Pos  Pos
}

// IsVariable says whether t is a variable.
func (t Term) IsVariable() bool { return strings.HasPrefix(t.Name, "?") }

// Effect is an action's effect: atoms added, atoms deleted, and what is
// added to total-cost, unconditionally; and its universal and conditional
// effects. All conditions are read in the state before the action, and
// every delete applies before every add.
type Effect struct {
	Add, Delete []AtomTerm
	// Cost is summed: (increase (total-cost) ...) may appear more than once.
	Cost []Cost
	// Conditional holds each (forall ...) and (when ...) of the effect,
	// flattened: nested foralls' variables together, nested whens'
	// conditions conjoined, each with the atoms it adds and deletes.
	Conditional []CondEffect
}

// CondEffect is a universal or conditional effect, flattened: for every
// binding of Vars (those of nested foralls in order, outermost first)
// under which Cond holds, Add and Delete apply. Cond is nil where no
// when encloses the atoms; where whens nest, it is their conditions'
// conjunction, an And. Its atoms may use the action's parameters and
// Vars, which may shadow them.
//
// (forall (?p - passenger) (when (boarded ?p) (not (boarded ?p)))) is
// one CondEffect: Vars ?p, Cond (boarded ?p), Delete (boarded ?p).
type CondEffect struct {
	Vars        []Param
	Cond        *Formula
	Add, Delete []AtomTerm
	Pos         Pos // of the outermost forall or when
}

// Derived is one (:derived (NAME ?vars...) BODY) rule: the atom holds in
// a state where BODY holds with the head's variables bound to its
// arguments. Params are the head's variables, typed as the predicate
// declares its parameters (or as the head writes them); Body may use
// them and its own quantified variables, and derived predicates, also
// under negation where the definitions are stratified (no predicate
// depends on its own negation, directly or through others).
type Derived struct {
	Name   string
	Params []Param
	Body   *Formula
	Pos    Pos
}

// Cost is one (increase (total-cost) X): a whole number, or a static
// function's value (Func.Name set).
type Cost struct {
	Value int64
	Func  *AtomTerm
	Pos   Pos
}

// Problem is a parsed problem file. Check binds it to its domain.
type Problem struct {
	File         string
	Name         string
	Domain       string
	DomainPos    Pos
	Requirements []string
	Objects      []*Object
	// Init holds the true atoms; NumericInit the function values, such as
	// (= (road-length a b) 5) and (= (total-cost) 0).
	Init        []AtomTerm
	NumericInit []NumericValue
	// Goal is never nil.
	Goal *Formula
	// MinimizeTotalCost is set by (:metric minimize (total-cost)), the
	// only metric of the subset; without it, a plan's cost is its length.
	MinimizeTotalCost bool

	objects   map[string]*Object
	metricPos Pos
}

// NumericValue is one (= (f args) value) of :init.
type NumericValue struct {
	Func  AtomTerm
	Value int64
	Pos   Pos
}

// Type returns the named type (not "object"), or nil.
func (d *Domain) Type(name string) *Type { return d.types[name] }

// Predicate returns the named predicate, or nil.
func (d *Domain) Predicate(name string) *Predicate { return d.preds[name] }

// Function returns the named function, or nil.
func (d *Domain) Function(name string) *Function { return d.funcs[name] }

// IsDerived says whether the named predicate is derived: defined by a
// :derived rule, so that no effect and no :init gives it.
func (d *Domain) IsDerived(name string) bool { return d.derived[name] != nil }

// Constant returns the named constant, or nil.
func (d *Domain) Constant(name string) *Object { return d.consts[name] }

// IsSubtype says whether type t is of type of: itself, or a descendant
// through any of its parents. The hierarchy has no cycles (the parser
// cuts them), and the walk visits each type once besides.
func (d *Domain) IsSubtype(t, of string) bool {
	if t == of || of == "object" {
		return true
	}
	seen := map[string]bool{t: true}
	todo := []string{t}
	for len(todo) > 0 {
		ty := d.types[todo[len(todo)-1]]
		todo = todo[:len(todo)-1]
		if ty == nil {
			continue
		}
		for _, up := range ty.Parents {
			if up == of {
				return true
			}
			if !seen[up] {
				seen[up] = true
				todo = append(todo, up)
			}
		}
	}
	return false
}

// alternatives is the types of a type reference: an either type's, or
// the one.
func alternatives(typ string, either []string) []string {
	if either != nil {
		return either
	}
	return []string{typ}
}

// Fits says whether object o may stand for parameter prm: each type o may
// have is a subtype of one of the types prm allows.
func (d *Domain) Fits(o *Object, prm Param) bool {
	for _, t := range alternatives(o.Type, o.Either) {
		ok := false
		for _, of := range alternatives(prm.Type, prm.Either) {
			if ok = d.IsSubtype(t, of); ok {
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// Object returns the problem object of that name, or nil (a domain
// constant is not a problem object).
func (p *Problem) Object(name string) *Object { return p.objects[name] }
