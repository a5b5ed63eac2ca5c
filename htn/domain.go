package htn

import (
	"fmt"
	"maps"
	"slices"

	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/internal/errlist"
	"github.com/ploy-ai/ploy/internal/suggest"
)

// Spec describes an HTN domain over a GOAP domain's facts and actions: its
// compound tasks and the root to decompose. A subtask names a compound task
// or a GOAP action (a primitive task).
type Spec struct {
	Root  string
	Tasks []TaskSpec
}

// TaskSpec is a compound task: its methods, in priority order.
type TaskSpec struct {
	Name    string
	Methods []MethodSpec
}

// MethodSpec is one way of doing a compound task: when its conditions hold,
// do its subtasks in order.
type MethodSpec struct {
	Name       string
	Conditions map[string]bool
	Subtasks   []string
}

// Task is a task reference: a compound task (Task >= 0, an index into the
// domain's tasks) or a primitive one (the GOAP action -Task-1).
type Task int32

// Primitive returns the task of GOAP action a.
func Primitive(a goap.ActionID) Task { return Task(-a - 1) }

// IsPrimitive reports whether t is a GOAP action.
func (t Task) IsPrimitive() bool { return t < 0 }

// Action returns the GOAP action of a primitive task.
func (t Task) Action() goap.ActionID { return goap.ActionID(-t - 1) }

// Domain is a compiled, validated HTN domain. It is immutable and safe to
// share between planners and goroutines.
type Domain struct {
	g         *goap.Domain
	tasks     []compound
	taskIndex map[string]Task
	methods   []method
	subtasks  []Task
	root      Task
}

type compound struct {
	name                   string
	firstMethod, endMethod int32
}

type method struct {
	name                     string
	cond                     goap.Condition
	firstSubtask, endSubtask int32
}

// Error is one problem with a Spec. Path locates it the way a domain file
// lays the HTN out, for instance "htn.tasks[1].methods[0].subtasks[2]".
type Error struct {
	Path string
	Msg  string
}

func (e *Error) Error() string { return "htn: " + e.Path + ": " + e.Msg }

// Errors is every problem NewDomain found, in spec order.
type Errors = errlist.List[*Error]

// MaxConditionBytes caps what a domain's method conditions take once
// compiled: each is two bitsets as wide as the GOAP domain's facts, so that
// 50 000 methods over 100 000 facts, a 3 MB file, would take 1.2 GB.
// Methods without a condition share one and are not counted.
const MaxConditionBytes = 64 << 20

// maxSuggestions is how many unknown subtask names get a "did you mean":
// a few, each costing a pass over every name.
const maxSuggestions = 10

// NewDomain validates spec against the GOAP domain g and compiles it. It
// reports every problem at once: duplicate or empty names, a task named
// like an action, a compound task with no methods, unknown facts, subtasks
// naming nothing (with a suggestion for the first few), a root that does
// not exist, compound tasks that can never finish because every method
// leads back into a recursion with no base case, and method conditions
// that would take more than MaxConditionBytes compiled. Its checks are
// linear in the size of the spec.
func NewDomain(g *goap.Domain, spec Spec) (*Domain, error) {
	if g == nil {
		panic("htn: NewDomain with a nil GOAP domain")
	}
	d := &Domain{g: g, taskIndex: make(map[string]Task, len(spec.Tasks)), root: -1}
	var errs Errors
	errorf := func(path, format string, args ...any) {
		errs = append(errs, &Error{Path: path, Msg: fmt.Sprintf(format, args...)})
	}
	for i, ts := range spec.Tasks {
		path := fmt.Sprintf("htn.tasks[%d]", i)
		_, dup := d.taskIndex[ts.Name]
		switch {
		case ts.Name == "":
			errorf(path+".name", "empty task name")
		case dup:
			errorf(path+".name", "task %q is defined twice", ts.Name)
		default:
			if _, isAction := g.ActionByName(ts.Name); isAction {
				errorf(path+".name", "task %q has the name of an action; a compound task needs a name of its own", ts.Name)
			}
			d.taskIndex[ts.Name] = Task(len(d.tasks))
		}
		d.tasks = append(d.tasks, compound{name: ts.Name})
	}
	// Each condition compiles to two bitsets as wide as the GOAP domain's
	// facts: refuse, before building any, what would pass the cap.
	conditioned := 0
	for _, ts := range spec.Tasks {
		for _, ms := range ts.Methods {
			if len(ms.Conditions) > 0 {
				conditioned++
			}
		}
	}
	words := len(g.NewState().Words())
	if size := conditioned * 2 * words * 8; size > MaxConditionBytes {
		errorf("htn.tasks", "the %d method conditions over %d facts would take %.1f MiB once compiled; at most %d MiB: use fewer facts or fewer conditions", conditioned, g.NumFacts(), float64(size)/(1<<20), MaxConditionBytes>>20)
		return nil, errs
	}
	empty, _ := g.Condition(nil) // shared by every method without a condition
	names := d.subtaskNames()
	suggested := 0
	for i, ts := range spec.Tasks {
		path := fmt.Sprintf("htn.tasks[%d]", i)
		c := &d.tasks[i]
		c.firstMethod = int32(len(d.methods))
		if len(ts.Methods) == 0 {
			errorf(path+".methods", "task %q has no methods", ts.Name)
		}
		for j, ms := range ts.Methods {
			mpath := fmt.Sprintf("%s.methods[%d]", path, j)
			m := method{name: ms.Name, firstSubtask: int32(len(d.subtasks))}
			if ms.Name == "" {
				errorf(mpath+".name", "empty method name")
			}
			cond, err := empty, error(nil)
			if len(ms.Conditions) > 0 {
				cond, err = g.Condition(ms.Conditions)
			}
			if err != nil {
				var ge goap.SpecErrors
				if asSpecErrors(err, &ge) {
					for _, e := range ge {
						errorf(mpath+".conditions."+e.Path, "%s", e.Msg)
					}
				}
			}
			m.cond = cond
			for k, name := range ms.Subtasks {
				t, ok := d.resolve(name)
				if !ok {
					msg := fmt.Sprintf("subtask %q names no task or action", name)
					// A suggestion compares the name with every task and
					// action: only the first few get one, so that a file
					// of 30 000 misspelled subtasks is not quadratic.
					if suggested < maxSuggestions {
						suggested++
						if s := suggest.Closest(name, names); s != "" {
							msg += fmt.Sprintf("; did you mean %q?", s)
						}
					}
					errorf(fmt.Sprintf("%s.subtasks[%d]", mpath, k), "%s", msg)
				}
				d.subtasks = append(d.subtasks, t)
			}
			m.endSubtask = int32(len(d.subtasks))
			d.methods = append(d.methods, m)
		}
		c.endMethod = int32(len(d.methods))
	}
	if spec.Root == "" {
		errorf("htn.root", "no root task")
	} else if t, ok := d.taskIndex[spec.Root]; ok {
		d.root = t
	} else {
		msg := fmt.Sprintf("root %q is not a compound task", spec.Root)
		if s := suggest.Closest(spec.Root, slices.Sorted(maps.Keys(d.taskIndex))); s != "" {
			msg += fmt.Sprintf("; did you mean %q?", s)
		}
		errorf("htn.root", "%s", msg)
	}
	if len(errs) > 0 {
		return nil, errs
	}
	if errs := d.checkBaseCases(); len(errs) > 0 {
		return nil, errs
	}
	return d, nil
}

func asSpecErrors(err error, target *goap.SpecErrors) bool {
	es, ok := err.(goap.SpecErrors)
	if ok {
		*target = es
	}
	return ok
}

func (d *Domain) subtaskNames() []string {
	var names []string
	for _, c := range d.tasks {
		names = append(names, c.name)
	}
	for a := 0; a < d.g.NumActions(); a++ {
		names = append(names, d.g.ActionName(goap.ActionID(a)))
	}
	return names
}

func (d *Domain) resolve(name string) (Task, bool) {
	if t, ok := d.taskIndex[name]; ok {
		return t, true
	}
	if a, ok := d.g.ActionByName(name); ok {
		return Primitive(a), true
	}
	return 0, false
}

// checkBaseCases finds compound tasks that can never be fully decomposed,
// whatever the facts: a task finishes if some method's subtasks all do, and
// primitives always do. What is left after the fixpoint recurses with no
// base case (it lies on a cycle of unfinishable tasks), or needs a task that
// does. Both passes are linear in tasks plus subtask references, so that a
// file with a cycle through 100 000 tasks is refused in milliseconds.
func (d *Domain) checkBaseCases() Errors {
	finishes := d.finishable()
	var errs Errors
	if !slices.Contains(finishes, false) {
		return nil
	}
	comp := d.components(func(t Task) bool { return !finishes[t] }, func(m int32) int32 { return d.methods[m].endSubtask })
	for i, c := range d.tasks {
		if finishes[i] {
			continue
		}
		path := fmt.Sprintf("htn.tasks[%d]", i)
		if comp[i] >= 0 {
			errs = append(errs, &Error{Path: path, Msg: fmt.Sprintf("task %q recurses with no base case: every method leads back to %q", c.name, c.name)})
			continue
		}
		errs = append(errs, &Error{Path: path, Msg: fmt.Sprintf("task %q can never finish: every method needs a task that recurses with no base case", c.name)})
	}
	return errs
}

// finishable is the least fixpoint of "task t can finish", found with a
// worklist: each method counts its compound subtasks not yet known to
// finish, and a task finishes when one of its methods' counts reaches
// zero. Every subtask reference is counted down at most once.
func (d *Domain) finishable() []bool {
	return d.leastFixpoint(true)
}

// leastFixpoint marks the tasks that finish when one of their methods
// does, a method finishing once all its subtasks do. Primitives finish if
// primitivesFinish; otherwise the fixpoint is of the tasks that can finish
// without any action. Counting a repeated subtask once per occurrence is
// fine: each occurrence is counted down once.
func (d *Domain) leastFixpoint(primitivesFinish bool) []bool {
	end := func(m int32) int32 { return d.methods[m].endSubtask }
	done := make([]bool, len(d.tasks))
	waiting := make([]int32, len(d.methods)) // compound subtasks of each method not yet done
	owner := make([]Task, len(d.methods))
	// users[usersAt[t]:usersAt[t+1]] are the methods t occurs in, once per
	// occurrence (a compressed adjacency list: two allocations in all).
	usersAt := make([]int32, len(d.tasks)+1)
	for i, c := range d.tasks {
		for m := c.firstMethod; m < c.endMethod; m++ {
			owner[m] = Task(i)
			for _, s := range d.subtasks[d.methods[m].firstSubtask:end(m)] {
				switch {
				case !s.IsPrimitive():
					usersAt[s+1]++
					waiting[m]++
				case !primitivesFinish:
					waiting[m]++ // never counted down
				}
			}
		}
	}
	for t := range d.tasks {
		usersAt[t+1] += usersAt[t]
	}
	users := make([]int32, usersAt[len(d.tasks)])
	fill := slices.Clone(usersAt[:len(d.tasks)])
	var work []Task
	for m := range d.methods {
		for _, s := range d.subtasks[d.methods[m].firstSubtask:end(int32(m))] {
			if !s.IsPrimitive() {
				users[fill[s]] = int32(m)
				fill[s]++
			}
		}
		if waiting[m] == 0 && !done[owner[m]] {
			done[owner[m]] = true
			work = append(work, owner[m])
		}
	}
	for len(work) > 0 {
		t := work[len(work)-1]
		work = work[:len(work)-1]
		for _, m := range users[usersAt[t]:usersAt[t+1]] {
			if waiting[m]--; waiting[m] == 0 && !done[owner[m]] {
				done[owner[m]] = true
				work = append(work, owner[m])
			}
		}
	}
	return done
}

// components finds the cycles of the graph whose nodes are the compound
// tasks keep accepts and whose edges go from a task to the compound
// subtasks in [firstSubtask, end(m)) of its methods m. A task on a cycle
// (in a strongly connected component of two or more tasks, or leading to
// itself) gets the number of its component, counted from 0; any other
// task gets -1. It is Tarjan's algorithm with an explicit stack, so a
// chain of 100 000 tasks needs no deep recursion; linear in tasks plus
// subtask references.
func (d *Domain) components(keep func(Task) bool, end func(m int32) int32) []int32 {
	n := len(d.tasks)
	cyclic := make([]bool, n)
	comp := make([]int32, n)
	for i := range comp {
		comp[i] = -1
	}
	comps := int32(0)
	index := make([]int32, n) // 0: not visited yet; else visit order + 1
	low := make([]int32, n)
	onStack := make([]bool, n)
	var stack []Task
	type frame struct {
		t      Task
		method int32 // the method whose subtasks are being walked
		sub    int32 // the next subtask of it to look at
	}
	var frames []frame
	next := int32(0)
	enter := func(t Task) {
		next++
		index[t], low[t] = next, next
		stack = append(stack, t)
		onStack[t] = true
		c := d.tasks[t]
		sub := int32(0)
		if c.firstMethod < c.endMethod {
			sub = d.methods[c.firstMethod].firstSubtask
		}
		frames = append(frames, frame{t: t, method: c.firstMethod, sub: sub})
	}
	for root := range d.tasks {
		if index[root] != 0 || !keep(Task(root)) {
			continue
		}
		enter(Task(root))
		for len(frames) > 0 {
			f := &frames[len(frames)-1]
			c := d.tasks[f.t]
			descended := false
			for f.method < c.endMethod && !descended {
				for f.sub < end(f.method) {
					s := d.subtasks[f.sub]
					f.sub++
					if s.IsPrimitive() || !keep(s) {
						continue
					}
					if s == f.t {
						cyclic[s] = true
					}
					if index[s] == 0 {
						enter(s)
						descended = true
						break
					}
					if onStack[s] {
						low[f.t] = min(low[f.t], index[s])
					}
				}
				if !descended {
					f.method++
					if f.method < c.endMethod {
						f.sub = d.methods[f.method].firstSubtask
					}
				}
			}
			if descended {
				continue
			}
			// Every edge of f.t is walked: close its component if it roots
			// one, then hand its low link to the parent.
			t := f.t
			frames = frames[:len(frames)-1]
			if low[t] == index[t] {
				i := len(stack) - 1
				for stack[i] != t {
					i--
				}
				if len(stack)-i > 1 || cyclic[t] {
					for _, u := range stack[i:] {
						comp[u] = comps
					}
					comps++
				}
				for _, u := range stack[i:] {
					onStack[u] = false
				}
				stack = stack[:i]
			}
			if len(frames) > 0 {
				parent := frames[len(frames)-1].t
				low[parent] = min(low[parent], low[t])
			}
		}
	}
	return comp
}

// MethodRef is one method of a compound task, numbered from 0.
type MethodRef struct {
	Task   Task
	Method int
}

// RecursionsWithoutProgress finds the ways a task can be decomposed again
// inside itself before any action runs: method m of task t leads to a
// compound subtask s if every subtask in front of s can finish without an
// action (it has a method whose subtasks all can, an empty method being
// the base case). Round such a cycle the facts never change, so once the
// planner goes round it, it goes round again with the same facts until a
// cap stops it. Each cycle is returned once per strongly connected
// component, as the methods taken, starting at the component's first task
// in spec order and leading back to it. The analysis is linear in tasks
// plus subtask references.
func (d *Domain) RecursionsWithoutProgress() [][]MethodRef {
	nullable := d.leastFixpoint(false)
	// leftEnd[m] ends the subtasks of m that can be reached with no action
	// in front: up to and including the first one that needs an action.
	leftEnd := make([]int32, len(d.methods))
	for m, meth := range d.methods {
		leftEnd[m] = meth.endSubtask
		for i := meth.firstSubtask; i < meth.endSubtask; i++ {
			if s := d.subtasks[i]; s.IsPrimitive() || !nullable[s] {
				leftEnd[m] = i + 1
				break
			}
		}
	}
	end := func(m int32) int32 { return leftEnd[m] }
	comp := d.components(func(Task) bool { return true }, end)
	var out [][]MethodRef
	// via[u] is how the search below reached u: from method m of a task.
	type edge struct {
		from   Task
		method int32
	}
	via := make([]edge, len(d.tasks))
	seen := make([]bool, len(d.tasks))
	reported := make([]bool, len(d.tasks)) // by component number
	for i := range d.tasks {
		start, c := Task(i), comp[i]
		if c < 0 || reported[c] {
			continue
		}
		reported[c] = true
		// Breadth first from start within its component, back to start.
		queue := []Task{start}
		seen[start] = true
		var back edge
		found := false
		for q := 0; q < len(queue) && !found; q++ {
			u := queue[q]
			for m := d.tasks[u].firstMethod; m < d.tasks[u].endMethod && !found; m++ {
				for _, s := range d.subtasks[d.methods[m].firstSubtask:leftEnd[m]] {
					if s.IsPrimitive() || comp[s] != c {
						continue
					}
					if s == start {
						back, found = edge{u, m}, true
						break
					}
					if !seen[s] {
						seen[s] = true
						via[s] = edge{u, m}
						queue = append(queue, s)
					}
				}
			}
		}
		for _, u := range queue {
			seen[u] = false
		}
		var cycle []MethodRef
		for e := back; ; e = via[e.from] {
			cycle = append(cycle, MethodRef{Task: e.from, Method: int(e.method - d.tasks[e.from].firstMethod)})
			if e.from == start {
				break
			}
		}
		slices.Reverse(cycle)
		out = append(out, cycle)
	}
	return out
}

// GOAP returns the GOAP domain whose facts and actions this domain uses.
func (d *Domain) GOAP() *goap.Domain { return d.g }

// Root returns the root task.
func (d *Domain) Root() Task { return d.root }

// NumTasks returns the number of compound tasks.
func (d *Domain) NumTasks() int { return len(d.tasks) }

// TaskByName returns the compound or primitive task with the given name.
func (d *Domain) TaskByName(name string) (Task, bool) { return d.resolve(name) }

// TaskName returns the name of a compound or primitive task.
func (d *Domain) TaskName(t Task) string {
	if t.IsPrimitive() {
		return d.g.ActionName(t.Action())
	}
	return d.tasks[t].name
}

// NumMethods returns the number of methods of compound task t.
func (d *Domain) NumMethods(t Task) int {
	return int(d.tasks[t].endMethod - d.tasks[t].firstMethod)
}

// MethodName returns the name of method i (0-based) of compound task t.
func (d *Domain) MethodName(t Task, i int) string {
	return d.methods[int(d.tasks[t].firstMethod)+i].name
}

// MethodCondition returns the condition of method i (0-based) of task t.
func (d *Domain) MethodCondition(t Task, i int) goap.Condition {
	return d.methods[int(d.tasks[t].firstMethod)+i].cond
}

// Subtasks returns the subtasks of method i (0-based) of compound task t.
// The caller must not modify the slice.
func (d *Domain) Subtasks(t Task, i int) []Task {
	m := d.methods[int(d.tasks[t].firstMethod)+i]
	return d.subtasks[m.firstSubtask:m.endSubtask]
}
