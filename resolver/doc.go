// Package resolver is the engine model of goal-oriented planning (see
// docs/background.md): world keys that are booleans or integers the world
// supplies, conditions that compare a key in a direction, effects that are
// directions rather than amounts, and a resolver that chains backwards
// from a goal over an action graph computed once, when the domain is built.
//
// It sits beside package goap, the state-space planner, and answers a
// different question. goap simulates: it searches over whole states and
// returns a plan whose every step is known to be applicable. The resolver
// does not simulate: it evaluates conditions against the agent's snapshot
// of the world as it is now, serves an unmet condition with an action
// whose effect points the right way, and stops at an action that can run
// now, the head. Only the head is committed; the rest of the chain is
// advisory, and the next resolve plans from the world the head left.
//
// # The model
//
// A [Spec] declares [KeySpec]s, [ActionSpec]s and [GoalSpec]s. A condition
// on a boolean key is true or false; on an integer key it is >, >=, < or
// <= a constant, never =: an equality has no direction, so no effect could
// be said to serve it. An effect sets a boolean or moves an integer up or
// down, by an amount nobody writes down. A condition wanting a key
// greater is served by an action that increases it, smaller by one that
// decreases it, a boolean by one that sets the wanted value: that is the
// whole of the action graph, and [NewDomain] builds it ([Domain.Servers],
// [Domain.Edges]; [Domain.Unserved] and [Domain.ServesNothing] for lint).
//
// An action may happen at a target: a target key the game's sensors
// resolve per agent into a position in the [Snapshot], with a stopping
// distance and a [MoveMode]. Movement is not an action: the runtime asks
// the game's mover to get there. What getting there costs enters the
// chain's cost through a [DistanceModel]: straight lines by default, path
// lengths on a grid with walls from package navgrid, +Inf where there is
// no way.
//
// A [Profile] is one kind of agent: a capabilities mask and cost
// overrides, over the one graph every profile shares.
//
// # Resolving
//
// [Resolver.Resolve] returns a least-cost chain, head first: Dijkstra's
// search over partial chains, exact, checked against enumeration on
// thousands of random action graphs. It is bounded by a node budget, a
// depth limit and a work limit, and failures name the goal
// ([*SearchError]); a [Trace], off by default, records every action it
// turned down and why. A warm resolver allocates nothing.
// [Resolver.Begin] and [Resolver.Continue] carry a resolve out a slice of
// expansions at a time, for a per-frame budget: a resolve stopped at the
// end of a slice goes on exactly where it stopped and ends as the whole
// resolve does. docs/resolver.md has the rules, the exactness argument,
// and when to use the resolver rather than package goap.
package resolver
