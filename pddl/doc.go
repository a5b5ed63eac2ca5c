// Package pddl reads the classical-planning language PDDL: domain and
// problem files, in the language that ploy plans with, into a syntax
// tree for grounding.
//
// # The language
//
// Requirements :strips, :typing (a type hierarchy rooted at "object"),
// :negative-preconditions, :equality and :action-costs; domain
// :constants. Preconditions and goals are conjunctions of atoms, negated
// atoms, equalities and negated equalities; effects add and delete atoms
// and increase total-cost by a whole number or by a static function's
// value, such as (increase (total-cost) (road-length ?from ?to)), given in
// the problem's :init. The only metric is (:metric minimize (total-cost)).
// A file that uses the language's constructs without declaring their
// requirement is accepted, as other planners do (competition files often
// forget :equality).
//
// And ADL (:adl and the requirements it implies): conditions with or,
// imply, not around any formula, exists and forall over typed variables;
// forall and when effects, nested in any order, flattened into
// Effect.Conditional; :derived predicates, stratified. A quantified
// variable is in scope in its body only.
//
// # Quirks of real files
//
// What the reference planners accept is accepted: a variable with no
// space before it, (aircraft?a); a type declared in two groups of :types,
// which is a subtype of both (Type.Parents); (either a b) types for
// parameters, constants and objects: a parameter takes the objects of
// each alternative, and an object of an either type stands for a
// parameter only if each alternative does (Domain.Fits); and any PDDL
// requirement flag declared and never used.
//
// Everything else is refused with an error at its position naming the
// construct and the requirement ploy does not implement, whatever the
// file declares, never accepted and ignored: numeric fluents and
// comparisons, a cost inside a forall or when, durative actions, timed
// initial literals, preferences and constraints. A construct nested in
// ADL or in a refused one is named too, so that one run lists all of
// them.
//
// PDDL is case-insensitive: every name, variable and keyword is
// lower-cased. Comments run from ";" to the end of the line. Names start
// with a letter and hold letters, digits, "-" and "_".
//
// # Checks
//
// ParseDomain checks the domain on its own: undefined types, predicates,
// functions, constants, action parameters and quantified variables, wrong
// arities, duplicate declarations, cycles in the type hierarchy, derived
// predicates changed by an effect or not stratified. ParseProblem checks what a
// problem file alone can tell, and Problem.Check the rest against its
// domain: the domain's name, object types, every atom of :init (none of
// a derived predicate) and the goal. Type compatibility of arguments is not checked: grounding
// instantiates parameters with objects of their types only.
//
// # Errors and limits
//
// Errors are an ErrorList of *Error, each rendered FILE:LINE:COL:
// message, sorted by position; at most MaxErrors are kept, and one more
// counts the rest by kind. A file larger than MaxSize or nested deeper than
// MaxDepth is refused. Parsing is linear in the input, and no input makes
// it panic (the fuzz tests check).
package pddl
