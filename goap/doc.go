// Package goap is goal-oriented action planning: facts held in a bitset,
// actions with preconditions, effects and costs that may depend on the
// state, and A* searches, forward over states or backward over partial
// states, that return least-cost plans.
//
// # The world model
//
// A [Spec] names the facts, the initial state, the actions and the goals;
// [NewDomain] validates it, resolves every name to a bit and precomputes
// what searches need. A [Domain] is then immutable and shared by any number
// of planners and goroutines. A [State] holds one bit per fact (a fact not
// set is false); a condition holds where state&mask == value, and an effect
// applies as state = state&^mask | value.
//
// A [Cost] is a constant, an ordered list of rules over the state ("1 in
// cover, otherwise 4", the first matching rule winning), or a Go function.
// Costs are positive and finite.
//
// A [Profile] tunes the domain for one kind of agent without rebuilding it:
// actions it cannot do (capabilities) and actions it prices differently
// (personality).
//
// # Searching
//
// A [Planner] owns its open list, node arena and state table and reuses
// them, so that once warm a plan allocates nothing (but the error of a plan
// that hit its budget or depth limit, and a search of millions of states
// that outgrew a fast path's limit and handed over, which lets the fast
// path's storage go); give each goroutine its own.
// [Planner.Plan] returns a [Result] with a [Status] and statistics.
// Finding no plan is a normal outcome; a spent node budget or a depth limit
// that pruned every plan is a [*SearchError] (errors.Is [ErrBudgetExhausted]
// or [ErrDepthExceeded]). Every search is bounded by [DefaultBudget] states,
// [search.DefaultMaxBytes] and [DefaultMaxWork] unless its Options.Limits,
// the limits every ploy planner shares, say otherwise; Result.Stats holds
// the counts every planner shares.
//
// Plans are least-cost on every domain: every [Heuristic] is admissible.
// Forward search is A* over whole states: the best cost per state, stale
// entries skipped, the goal tested when a state is taken from the open list, ties
// on f going to the least goal-count estimate (h itself under [GoalCount],
// its count under [GoalCost], h under the others) and then to the state
// generated first,
// and actions whose effects change nothing skipped. Backward search regresses the goal through actions that
// serve it, splitting rule costs into exclusive cases so that costs stay
// exact; it refuses Go-function costs rather than guess.
//
// Searches without a trace, a depth limit or [HMax] take faster paths
// (forward: states kept in one word; both directions: duplicate detection
// delayed to expansion where costs are whole, or whole once scaled by a
// power of two) that make exactly the same search: same plan, cost and
// counts.
//
// A [Trace] passed in [Options] records every expansion and what each action
// did there; it costs nothing when absent.
//
// A search that must fit a frame's budget runs in slices: [Planner.Begin]
// starts it, [Planner.Continue] expands up to n more states and reports
// whether it ended, and [Planner.Result] returns exactly what Plan would
// have, statistics and trace included. Between slices the search waits in
// a coroutine (iter.Pull) inside the planner; [Planner.Abandon] ends one
// no longer wanted.
package goap
