// Package htn is hierarchical task network planning over the facts and
// actions of a GOAP domain: compound tasks with methods in priority order,
// total-order forward decomposition with chronological backtracking, the
// method traversal record (MTR), and interruptions.
//
// A primitive task is a GOAP action, with the same preconditions and
// effects. A compound task has methods, each a condition and a list of
// subtasks. Decomposition takes the first task off the list: a primitive's
// preconditions are checked against the predicted facts and its effects
// applied to them; a compound task's methods are tried in order, and the
// first whose condition holds puts its subtasks at the front of the list.
// A failure anywhere later unwinds to the most recent method choice with
// methods left.
//
// [Planner] does this with an explicit task stack and an undo log, never a
// copy of the task list, and allocates nothing once warm. It counts steps
// as the HTN lesson does (tasks taken off the list plus method conditions
// tested, failing tests included) and backtracks as method choices undone,
// and caps both steps and the bytes its stack and undo log hold, each with
// a typed outcome ([ErrStepLimit], [ErrMemoryLimit]) that names the task
// the work went into.
//
// The [MTR] records the method chosen at each compound task, numbered from
// 1. MTRs compare like version numbers, a smaller one coming from
// higher-priority methods, which is what [Planner.Interrupt] uses to decide
// whether a replan should replace the running plan.
package htn
