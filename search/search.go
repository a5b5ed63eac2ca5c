// Package search is the vocabulary ploy's four planners share: how a
// search ended (Status, and the Bound that stopped it), the limits a caller
// sets (Limits), what a search counts (Stats), and the errors a planner
// returns when a limit stops it (LimitError, ErrLimit).
//
// Each planner (goap, htn, resolver, strips) returns a Status of this
// package in its Result, so a caller that knows one planner reads the
// others' outcomes the same way, and errors.Is(err, search.ErrLimit) holds
// for a limit reached in any of them.
//
// # The four planners side by side
//
// Each compiles its domain once, searches with a reusable planner made
// from it (one per goroutine; a warm goap, htn or resolver search
// allocates nothing), and takes
// Options with Limits, a Context (strips: none) and a Trace:
//
//	goap     p := goap.NewPlanner(d)           res, err := p.Plan(dst, start, goal, goap.Options{Limits: l})
//	htn      p := htn.NewPlanner(d)            err := p.Plan(&res, facts, htn.Options{Limits: l})
//	resolver r := resolver.NewResolver(d)      res, err := r.Resolve(dst, snap, goal, resolver.Options{Limits: l})
//	strips   s, err := strips.NewSearcher(t)   res, err := s.Search(strips.Options{Limits: l})
//
// Their Results say the same things by the same names: Status and Bound
// (this package's), Stats (Expanded, Generated, Work, PeakBytes, Depth,
// each planner's meaning in docs/limits.md), and the plan: Plan (goap and
// htn: action IDs; strips: operator indices) or Chain (resolver: action
// IDs, head first). A search that ran out of a limit returns an error
// that matches ErrLimit and holds a *LimitError; one that proved there is
// no plan returns Status NoPlan and a nil error (Status.Err gives
// ErrNoPlan for a caller that wants one error for every outcome but a
// plan).
//
// The trace hook has one shape: Options.Trace, a *Trace of the planner's
// package that the search fills (set it before, read it after) and whose
// WriteText prints it; nil costs nothing. What a Trace records is the
// planner's own: goap's states and edges, htn's decomposition steps, the
// resolver's chains considered and turned down, strips' expansions.
//
// goap's, htn's and strips' memory limits default to DefaultMaxBytes; the
// resolver's work limit bounds its memory.
package search

import (
	"context"
	"errors"
	"fmt"
)

// Status is how a search ended. Its zero value is NotSearched, so an empty
// Result never reads as a found plan.
type Status uint8

const (
	// NotSearched: the search did not run; its error says why (an invalid
	// task, an option out of range).
	NotSearched Status = iota
	// Found: the Result's plan reaches the goal, at least cost where the
	// planner promises it (empty if the goal already holds).
	Found
	// NoPlan: the planner proved there is none (every reachable state
	// expanded, every method choice tried). A normal outcome, not an
	// error: the search's error is nil.
	NoPlan
	// LimitReached: a limit stopped the search first; the Result's Bound
	// says which, and the error is a *LimitError (errors.Is ErrLimit).
	LimitReached
	// Unsupported: the search cannot run as asked (GOAP's backward search
	// over an action whose cost is a Go function of the whole state).
	Unsupported
)

// String returns the status's name in snake case, as ploy's JSON writes
// it: "not_searched", "found", "no_plan", "limit_reached", "unsupported".
func (s Status) String() string {
	switch s {
	case NotSearched:
		return "not_searched"
	case Found:
		return "found"
	case NoPlan:
		return "no_plan"
	case LimitReached:
		return "limit_reached"
	case Unsupported:
		return "unsupported"
	}
	return fmt.Sprintf("status(%d)", uint8(s))
}

// Bound names the limit that stopped a search (Status LimitReached). Its
// zero value, NoBound, is every other outcome's.
type Bound uint8

const (
	NoBound Bound = iota
	// Budget: Limits.Budget nodes were expanded (states in goap and strips,
	// chains in the resolver).
	Budget
	// Depth: only plans longer than Limits.MaxDepth could exist.
	Depth
	// Work: the search's counted work reached Limits.MaxWork.
	Work
	// Bytes: going on would take the search's memory past Limits.MaxBytes.
	Bytes
	// Steps: an HTN decomposition took Limits.MaxSteps steps.
	Steps
	// Canceled: the search's context was canceled (its caller went away).
	Canceled
	// Deadline: the search's context's deadline passed.
	Deadline
)

// String returns the bound's name: "budget", "depth", "work", "bytes",
// "steps", "canceled", "deadline", or "" for NoBound.
func (b Bound) String() string {
	switch b {
	case NoBound:
		return ""
	case Budget:
		return "budget"
	case Depth:
		return "depth"
	case Work:
		return "work"
	case Bytes:
		return "bytes"
	case Steps:
		return "steps"
	case Canceled:
		return "canceled"
	case Deadline:
		return "deadline"
	}
	return fmt.Sprintf("bound(%d)", uint8(b))
}

// ContextBound is the Bound of a search stopped by its context, given the
// context's error: Deadline when its deadline passed, Canceled otherwise.
func ContextBound(err error) Bound {
	if errors.Is(err, context.DeadlineExceeded) {
		return Deadline
	}
	return Canceled
}

// Sentinel errors. A limit error from any planner matches ErrLimit with
// errors.Is, and also the narrower sentinel of its bound where the
// planner has one (ErrBudgetExhausted, ErrDepthExceeded, or a planner's
// own, such as htn.ErrStepLimit, each of which matches ErrLimit in turn).
var (
	// ErrLimit is matched by every error a search returns because a limit
	// stopped it.
	ErrLimit = errors.New("search limit reached")
	// ErrNoPlan is what Status.Err returns for NoPlan, for callers that
	// want "no plan" as an error (the planners themselves return nil).
	ErrNoPlan = errors.New("no plan")
	// ErrUnsupported is what Status.Err returns for Unsupported.
	ErrUnsupported = errors.New("search not supported as asked")

	// ErrBudgetExhausted: the node budget ran out (goap, resolver).
	ErrBudgetExhausted = LimitSentinel("node budget exhausted")
	// ErrDepthExceeded: only plans past the depth limit could exist
	// (goap, resolver).
	ErrDepthExceeded = LimitSentinel("depth limit exceeded")
)

// LimitSentinel returns a sentinel error with the given text that
// errors.Is also matches against ErrLimit: a planner's error for one kind
// of limit, still a limit.
func LimitSentinel(text string) error { return &sentinel{text, ErrLimit} }

type sentinel struct {
	text   string
	parent error
}

func (s *sentinel) Error() string        { return s.text }
func (s *sentinel) Is(target error) bool { return target == s.parent }

// Err returns nil for Found and NotSearched (whose error, if any, the
// planner returns itself), ErrNoPlan, ErrLimit or ErrUnsupported otherwise:
// a status as an error, for callers that treat every outcome but a plan
// as one.
func (s Status) Err() error {
	switch s {
	case NoPlan:
		return ErrNoPlan
	case LimitReached:
		return ErrLimit
	case Unsupported:
		return ErrUnsupported
	}
	return nil
}

// LimitError reports a search stopped by a limit: which planner, the goal
// (or HTN task) it was for, which limit and its value. A planner's own
// error types (goap.SearchError, htn.StepLimitError, ...) carry more
// detail; errors.As finds a *LimitError in each of them.
type LimitError struct {
	Planner string // "goap", "htn", "resolver" or "strips"
	Goal    string // the goal, HTN root task or PDDL problem searched for
	Bound   Bound
	Limit   int64 // the limit's value (0 for Canceled and Deadline)
	// Err is the sentinel of the bound (ErrBudgetExhausted, a planner's
	// own, or the context's error for Canceled and Deadline); may be nil.
	Err error
}

func (e *LimitError) Error() string {
	what := fmt.Sprintf("%s: %q: ", e.Planner, e.Goal)
	switch e.Bound {
	case Canceled:
		return what + "search stopped: its context was canceled"
	case Deadline:
		return what + "search stopped: its context's deadline passed"
	case Budget:
		return what + fmt.Sprintf("node budget of %d exhausted", e.Limit)
	case Depth:
		return what + fmt.Sprintf("no plan of at most %d steps", e.Limit)
	}
	return what + fmt.Sprintf("%s limit of %d reached", e.Bound, e.Limit)
}

// Unwrap returns the bound's sentinel and ErrLimit, so that errors.Is
// matches both.
func (e *LimitError) Unwrap() []error {
	if e.Err == nil {
		return []error{ErrLimit}
	}
	return []error{e.Err, ErrLimit}
}

// DefaultMaxBytes is the memory ceiling of every planner's search whose
// Limits.MaxBytes (and the planner's older field, where it has one) is
// zero: 256 MiB. One modest figure for all, so that a game's debug
// server, an agent and a library call fail at the same place; ploy's
// pddl command, a solver for benchmark problems, passes more (4 GiB).
const DefaultMaxBytes = 256 << 20

// Limits bound a search. Every planner's Options hold one, in field
// Limits, and use the fields that apply to it, ignoring the rest; 0 means
// the planner's default. All are int64, so a limit means the same
// whatever the platform's int.
//
// A planner's Options may also have older fields of the same meaning
// (goap's Budget, htn's MaxSteps, strips' MaxExpansions, ...), kept
// working and marked Deprecated: a non-zero field of Limits wins over the
// older one (see Or).
type Limits struct {
	// Budget is the most nodes expanded: states (goap, strips), chains
	// (resolver). HTN has no nodes; it counts Steps.
	Budget int64
	// MaxDepth is the longest plan considered (goap, resolver).
	MaxDepth int64
	// MaxWork bounds the search's counted work, each planner's unit as
	// its Options document it (goap, resolver, strips).
	MaxWork int64
	// MaxBytes bounds the memory the search holds (every planner). In
	// GOAP, a ceiling below what the start node takes (48 to a few
	// hundred bytes) stops the search before its first expansion, with
	// Bytes as its bound, and its PeakBytes says what the start held,
	// above the ceiling.
	MaxBytes int64
	// MaxSteps bounds an HTN decomposition's steps.
	MaxSteps int64
}

// Stats are what every search counts, in Result.Stats of each planner,
// beside the planner's own counters (which stay). Each planner's Result
// says what a field means for it where the words below do not fit (an
// HTN decomposition has no open list); a field a planner does not count
// is 0.
type Stats struct {
	Expanded  int64 // nodes taken from the open list and expanded (HTN: tasks taken off the task list)
	Generated int64 // successors made (HTN: method conditions tested)
	Work      int64 // units of work counted against Limits.MaxWork
	PeakBytes int64 // the most memory the search held, as its MaxBytes limit counts it
	Depth     int64 // the length of the plan found; when none is, 0 (no planner tracks the deepest node)
}

// Or returns l with each zero field taken from old: the one rule by which
// a planner's Options.Limits wins over its deprecated fields of the same
// meaning, which the planner passes as old.
func (l Limits) Or(old Limits) Limits {
	// Field by field, without a helper, so that the compiler inlines it
	// into each planner's Plan, which a warm game plan's nanoseconds feel.
	if l.Budget == 0 {
		l.Budget = old.Budget
	}
	if l.MaxDepth == 0 {
		l.MaxDepth = old.MaxDepth
	}
	if l.MaxWork == 0 {
		l.MaxWork = old.MaxWork
	}
	if l.MaxBytes == 0 {
		l.MaxBytes = old.MaxBytes
	}
	if l.MaxSteps == 0 {
		l.MaxSteps = old.MaxSteps
	}
	return l
}

// ClampInt returns v as an int, clamped to int's range rather than
// wrapped: a limit of 2^40 on a 32-bit platform is the largest int, still
// a limit past anything the search can reach, never a negative one.
func ClampInt(v int64) int {
	if v > int64(maxInt) {
		return maxInt
	}
	if v < int64(minInt) {
		return minInt
	}
	return int(v)
}

const (
	maxInt = int(^uint(0) >> 1)
	minInt = -maxInt - 1
)
