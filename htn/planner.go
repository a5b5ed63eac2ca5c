package htn

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/ploy-ai/ploy/goap"
)

// Status is the outcome of a decomposition.
type Status uint8

const (
	// Found: Result.Plan is the decomposition of the root (possibly empty).
	Found Status = iota
	// NoPlan: every method choice was tried and none decomposes.
	NoPlan
	// StepLimit: the cap on decomposition steps was reached first.
	StepLimit
)

func (s Status) String() string {
	switch s {
	case Found:
		return "found"
	case NoPlan:
		return "no_plan"
	case StepLimit:
		return "step_limit"
	}
	return "status(?)"
}

// DefaultMaxSteps is the step cap of a decomposition whose Options leave it
// zero.
const DefaultMaxSteps = 100_000

// ErrStepLimit is matched by errors.Is on a *StepLimitError.
var ErrStepLimit = errors.New("decomposition step limit reached")

// StepLimitError reports a decomposition stopped by its step cap. It names
// the root task.
type StepLimitError struct {
	Root  string
	Limit int
}

func (e *StepLimitError) Error() string {
	return fmt.Sprintf("htn: task %q: step limit of %d reached", e.Root, e.Limit)
}

func (e *StepLimitError) Unwrap() error { return ErrStepLimit }

// MTR is a method traversal record: the method chosen at each compound
// task, in decomposition order, numbered from 1 as lesson 5 prints it.
type MTR []int32

// Compare orders MTRs like version numbers: element by element, a proper
// prefix first. A smaller MTR came from higher-priority methods.
func (m MTR) Compare(other MTR) int { return slices.Compare(m, other) }

// Less reports whether m came from higher-priority methods than other.
func (m MTR) Less(other MTR) bool { return slices.Compare(m, other) < 0 }

// String returns the MTR as "2, 2, 2".
func (m MTR) String() string {
	var sb strings.Builder
	for i, v := range m {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(strconv.Itoa(int(v)))
	}
	return sb.String()
}

// Options tune one decomposition. The zero value decomposes the domain's
// root with the default step cap and no trace.
type Options struct {
	// Root, if set, is decomposed instead of the domain's root.
	Root Task
	// HasRoot says Root is set (Task 0 is a valid compound task).
	HasRoot bool
	// Profile, if set, makes primitives its agent cannot do fail.
	Profile *goap.Profile
	// MaxSteps caps decomposition steps; 0 means DefaultMaxSteps.
	MaxSteps int
	// Trace, if not nil, records every step; nil costs nothing.
	Trace *Trace
}

// Result is a decomposition's outcome. Plan and MTR are appended to the
// slices of the Result passed to Plan, so a caller that reuses one Result
// allocates nothing.
type Result struct {
	Status Status
	Plan   []goap.ActionID
	MTR    MTR
	// Tasks holds, for each MTR entry, the compound task it chose for.
	Tasks []Task
	// Steps counts tasks taken off the list plus method conditions tested
	// (failing tests included); Backtracks counts method choices undone.
	Steps, Backtracks int
}

// Planner decomposes tasks of one domain with total-order forward
// decomposition and chronological backtracking. It keeps an explicit task
// stack and an undo log instead of copying the task list for each method,
// and reuses them: once warm, a decomposition allocates nothing. It is not
// safe for concurrent use; give each goroutine its own.
type Planner struct {
	d       *Domain
	facts   []uint64
	stack   []Task // the task list, first task on top (at the end)
	log     []undo
	saved   []uint64 // facts before each primitive, W words each
	choices []choice
}

// undo is one undo-log entry: a task popped (task >= 0 or primitive), n
// tasks pushed, or the facts before a primitive (saved[at:at+W]).
type undo struct {
	kind undoKind
	task Task
	n    int32
}

type undoKind uint8

const (
	undoPop undoKind = iota
	undoPush
	undoFacts
)

// choice is a method choice point: task t chose method (0-based), with the
// log, plan and MTR lengths to unwind to.
type choice struct {
	task             Task
	method           int32
	logLen, planLen  int32
	mtrLen, savedLen int32
}

// NewPlanner returns a planner for d.
func NewPlanner(d *Domain) *Planner {
	if d == nil {
		panic("htn: NewPlanner(nil)")
	}
	return &Planner{d: d, facts: make([]uint64, len(d.g.Initial().Words()))}
}

// Domain returns the planner's domain.
func (p *Planner) Domain() *Domain { return p.d }

// Plan decomposes the root task from facts s into res, reusing res.Plan and
// res.MTR. Finding no decomposition is a normal outcome with a nil error;
// reaching the step cap returns a *StepLimitError (and Status StepLimit),
// never a partial plan.
func (p *Planner) Plan(res *Result, s goap.State, opt Options) error {
	d := p.d
	if len(s.Words()) != len(p.facts) {
		panic("htn: state does not belong to the planner's domain")
	}
	if opt.Profile != nil && opt.Profile.Domain() != d.g {
		panic("htn: profile belongs to another domain")
	}
	root := d.root
	if opt.HasRoot {
		root = opt.Root
	}
	maxSteps := opt.MaxSteps
	if maxSteps <= 0 {
		maxSteps = DefaultMaxSteps
	}
	tr := opt.Trace
	if tr != nil {
		tr.reset(d)
	}
	res.Status, res.Steps, res.Backtracks = NoPlan, 0, 0
	plan := res.Plan[:0]
	mtr := res.MTR[:0]
	tasks := res.Tasks[:0]
	W := len(p.facts)
	copy(p.facts, s.Words())
	facts := p.facts
	p.stack = append(p.stack[:0], root)
	p.log = p.log[:0]
	p.saved = p.saved[:0]
	p.choices = p.choices[:0]
	steps, backtracks := 0, 0

	// tryMethods tests t's methods from the 0-based method from on, and
	// commits to the first whose condition holds. It reports false if none
	// does, or the step cap came first (limited).
	limited := false
	tryMethods := func(t Task, from int32) bool {
		c := &d.tasks[t]
		for m := c.firstMethod + from; m < c.endMethod; m++ {
			if steps >= maxSteps {
				limited = true
				return false
			}
			steps++
			meth := &d.methods[m]
			ok := meth.cond.Holds(goap.StateFromWords(facts))
			if tr != nil {
				tr.add(TraceStep{Kind: TestMethod, Task: t, Method: m - c.firstMethod, Holds: ok, Depth: int32(len(p.choices))})
			}
			if !ok {
				continue
			}
			p.choices = append(p.choices, choice{
				task: t, method: m - c.firstMethod,
				logLen: int32(len(p.log)), planLen: int32(len(plan)),
				mtrLen: int32(len(mtr)), savedLen: int32(len(p.saved)),
			})
			mtr = append(mtr, m-c.firstMethod+1)
			tasks = append(tasks, t)
			subs := d.subtasks[meth.firstSubtask:meth.endSubtask]
			for i := len(subs) - 1; i >= 0; i-- {
				p.stack = append(p.stack, subs[i])
			}
			p.log = append(p.log, undo{kind: undoPush, n: int32(len(subs))})
			return true
		}
		return false
	}

	for {
		if len(p.stack) == 0 {
			res.Status = Found
			break
		}
		if steps >= maxSteps {
			limited = true
		}
		ok := false
		if !limited {
			t := p.stack[len(p.stack)-1]
			p.stack = p.stack[:len(p.stack)-1]
			p.log = append(p.log, undo{kind: undoPop, task: t})
			steps++
			if t.IsPrimitive() {
				a := t.Action()
				ok = d.g.Applicable(a, goap.StateFromWords(facts)) && (opt.Profile == nil || opt.Profile.Capable(a))
				if tr != nil {
					tr.add(TraceStep{Kind: TakeTask, Task: t, Holds: ok, Depth: int32(len(p.choices))})
				}
				if ok {
					plan = append(plan, a)
					p.log = append(p.log, undo{kind: undoFacts})
					p.saved = append(p.saved, facts...)
					d.g.Apply(a, goap.StateFromWords(facts))
				}
			} else {
				if tr != nil {
					tr.add(TraceStep{Kind: TakeTask, Task: t, Holds: true, Depth: int32(len(p.choices))})
				}
				ok = tryMethods(t, 0)
			}
		}
		if ok {
			continue
		}
		// Backtrack: undo the most recent choice and try its next method,
		// going further back while a task has none left.
		for !ok && !limited && len(p.choices) > 0 {
			cp := p.choices[len(p.choices)-1]
			p.choices = p.choices[:len(p.choices)-1]
			backtracks++
			if tr != nil {
				tr.add(TraceStep{Kind: Backtrack, Task: cp.task, Method: cp.method, Depth: int32(len(p.choices))})
			}
			p.unwind(int(cp.logLen), W)
			plan = plan[:cp.planLen]
			mtr = mtr[:cp.mtrLen]
			tasks = tasks[:cp.mtrLen]
			p.saved = p.saved[:cp.savedLen]
			ok = tryMethods(cp.task, cp.method+1)
		}
		if !ok {
			if limited {
				res.Status = StepLimit
			}
			break
		}
	}
	res.Steps, res.Backtracks = steps, backtracks
	if res.Status != Found {
		plan, mtr, tasks = plan[:0], mtr[:0], tasks[:0]
	}
	res.Plan, res.MTR, res.Tasks = plan, mtr, tasks
	if tr != nil {
		tr.Status, tr.StepsTaken, tr.Backtracks = res.Status, steps, backtracks
	}
	if res.Status == StepLimit {
		return &StepLimitError{Root: d.TaskName(root), Limit: maxSteps}
	}
	return nil
}

// unwind undoes the log back to length n: tasks pushed are dropped, tasks
// popped are put back, and facts are restored.
func (p *Planner) unwind(n, W int) {
	saved := len(p.saved)
	for i := len(p.log) - 1; i >= n; i-- {
		switch e := p.log[i]; e.kind {
		case undoPush:
			p.stack = p.stack[:len(p.stack)-int(e.n)]
		case undoPop:
			p.stack = append(p.stack, e.task)
		case undoFacts:
			saved -= W
			copy(p.facts, p.saved[saved:saved+W])
		}
	}
	p.log = p.log[:n]
}

// Interrupt replans from s while a plan with MTR running is being carried
// out, and reports whether the new plan should replace it: only when it was
// found and its MTR is smaller, that is, it comes from higher-priority
// methods. A plan from the same or lower-priority methods is refused, so an
// agent does not flicker between equivalent plans.
func (p *Planner) Interrupt(res *Result, running MTR, s goap.State, opt Options) (replace bool, err error) {
	err = p.Plan(res, s, opt)
	return err == nil && res.Status == Found && res.MTR.Less(running), err
}
