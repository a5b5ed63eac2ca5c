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

// NewDomain validates spec against the GOAP domain g and compiles it. It
// reports every problem at once: duplicate or empty names, a task named
// like an action, a compound task with no methods, unknown facts, subtasks
// naming nothing (with a suggestion), a root that does not exist, and
// compound tasks that can never finish because every method leads back
// into a recursion with no base case.
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
	names := d.subtaskNames()
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
			cond, err := g.Condition(ms.Conditions)
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
					if s := suggest.Closest(name, names); s != "" {
						msg += fmt.Sprintf("; did you mean %q?", s)
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
// base case, or needs a task that does.
func (d *Domain) checkBaseCases() Errors {
	finishes := make([]bool, len(d.tasks))
	for changed := true; changed; {
		changed = false
		for i := range d.tasks {
			if finishes[i] {
				continue
			}
			for _, m := range d.methods[d.tasks[i].firstMethod:d.tasks[i].endMethod] {
				if d.allFinish(m, finishes) {
					finishes[i] = true
					changed = true
					break
				}
			}
		}
	}
	var errs Errors
	for i, c := range d.tasks {
		if finishes[i] {
			continue
		}
		path := fmt.Sprintf("htn.tasks[%d]", i)
		if d.reaches(Task(i), Task(i), finishes) {
			errs = append(errs, &Error{Path: path, Msg: fmt.Sprintf("task %q recurses with no base case: every method leads back to %q", c.name, c.name)})
			continue
		}
		errs = append(errs, &Error{Path: path, Msg: fmt.Sprintf("task %q can never finish: every method needs a task that recurses with no base case", c.name)})
	}
	return errs
}

func (d *Domain) allFinish(m method, finishes []bool) bool {
	for _, t := range d.subtasks[m.firstSubtask:m.endSubtask] {
		if !t.IsPrimitive() && !finishes[t] {
			return false
		}
	}
	return true
}

// reaches reports whether from leads to target through unfinishable tasks.
func (d *Domain) reaches(from, target Task, finishes []bool) bool {
	seen := make([]bool, len(d.tasks))
	var walk func(t Task) bool
	walk = func(t Task) bool {
		for _, m := range d.methods[d.tasks[t].firstMethod:d.tasks[t].endMethod] {
			for _, s := range d.subtasks[m.firstSubtask:m.endSubtask] {
				if s.IsPrimitive() || finishes[s] {
					continue
				}
				if s == target {
					return true
				}
				if !seen[s] {
					seen[s] = true
					if walk(s) {
						return true
					}
				}
			}
		}
		return false
	}
	return walk(from)
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
