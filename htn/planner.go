package htn

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/search"
)

// Status is the outcome of a decomposition: search.Status, shared by
// every planner. Its zero value is NotSearched.
type Status = search.Status

// Bound names the limit that stopped a decomposition: search.Steps,
// search.Bytes, search.Canceled or search.Deadline.
type Bound = search.Bound

const (
	// Found: Result.Plan is the decomposition of the root (possibly empty).
	Found = search.Found
	// NoPlan: every method choice was tried and none decomposes.
	NoPlan = search.NoPlan
	// LimitReached: a limit stopped the decomposition first: the step cap
	// (Result.Bound search.Steps), the memory cap (search.Bytes) or
	// Options.Context (search.Canceled or search.Deadline).
	LimitReached = search.LimitReached

	// Deprecated: StepLimit is LimitReached with Result.Bound search.Steps.
	StepLimit = search.LimitReached
	// Deprecated: MemoryLimit is LimitReached with Result.Bound
	// search.Bytes.
	MemoryLimit = search.LimitReached
	// Deprecated: Canceled is LimitReached with Result.Bound
	// search.Canceled or search.Deadline.
	Canceled = search.LimitReached
)

// StatusName returns the name ploy's JSON and text outputs give an HTN
// outcome, as they have since before the shared search.Status: "found",
// "no_plan", "step_limit", "memory_limit" or "canceled".
func StatusName(s Status, b Bound) string {
	if s != LimitReached {
		return s.String()
	}
	switch b {
	case search.Steps:
		return "step_limit"
	case search.Bytes:
		return "memory_limit"
	}
	return "canceled"
}

// DefaultMaxSteps is the step cap of a decomposition whose Options leave it
// zero.
const DefaultMaxSteps = 100_000

// DefaultMaxMemory is the cap, in bytes, on a decomposition's working
// memory when its Options leave it zero: search.DefaultMaxBytes, 256 MiB
// (64 MiB before every planner shared one default; ploy's htn command and
// its web server still pass 64 MiB). Steps alone do not bound memory,
// since one step can push a method's subtasks, however many, and save a
// copy of the facts; the battle mage's HTN needs about a kilobyte.
//
// Deprecated: use search.DefaultMaxBytes.
const DefaultMaxMemory = search.DefaultMaxBytes

// errAbandoned ends a sliced decomposition that was abandoned, as a
// canceled context's error would.
var errAbandoned = errors.New("htn: the decomposition was abandoned")

// contextCheckSteps is how many steps a decomposition takes between two
// looks at Options.Context: a look costs a few nanoseconds, a step
// several, so that looking is free and a canceled decomposition stops
// within microseconds.
const contextCheckSteps = 1024

// CanceledError reports a decomposition stopped because Options.Context
// was done. errors.Is matches the context's error (context.Canceled or
// context.DeadlineExceeded).
type CanceledError struct {
	Root string
	Err  error // the context's
}

func (e *CanceledError) Error() string {
	return fmt.Sprintf("htn: decomposing %q stopped: %v", e.Root, e.Err)
}

// Unwrap returns the context's error and a *search.LimitError, so that
// errors.Is matches context.Canceled (or DeadlineExceeded) and
// search.ErrLimit.
func (e *CanceledError) Unwrap() []error {
	return []error{e.Err, &search.LimitError{Planner: "htn", Goal: e.Root, Bound: search.ContextBound(e.Err)}}
}

// ErrStepLimit is matched by errors.Is on a *StepLimitError; it matches
// search.ErrLimit in turn.
var ErrStepLimit = search.LimitSentinel("decomposition step limit reached")

// ErrMemoryLimit is matched by errors.Is on a *MemoryLimitError; it
// matches search.ErrLimit in turn.
var ErrMemoryLimit = search.LimitSentinel("decomposition memory limit reached")

// StepLimitError reports a decomposition stopped by its step cap.
//
// Root is the task decomposed. The other fields say where the steps went,
// as far as the planner can tell when it stops, from the method choices
// still held for backtracking. Some of those are done (a task decomposed
// and finished, kept in case a later task fails) and some are in
// progress: their subtasks are still being worked on, so each is open
// inside the one before. Depth is how many are in progress. Task is the
// compound task in progress the most times over, each inside the last,
// and Repeats how many (ties go to the outermost): a task open inside
// itself is a recursion, and one that never ends shows as a task open
// thousands of times over. When no task is open inside itself (Repeats 1,
// or 0 when no choice is open) there is no recursion: the decomposition
// needs more steps than the limit, Task is the innermost task in
// progress, and MostDecomposed is the task decomposed the most times so
// far, Decompositions of them (the widest part of the decomposition).
type StepLimitError struct {
	Root           string
	Limit          int
	Task           string
	Repeats        int
	Depth          int
	MostDecomposed string
	Decompositions int
}

func (e *StepLimitError) Error() string {
	return fmt.Sprintf("htn: step limit of %d reached decomposing %q%s", e.Limit, e.Root, whereStopped(e.stop(), "steps"))
}

func (e *StepLimitError) Unwrap() error {
	return &search.LimitError{Planner: "htn", Goal: e.Root, Bound: search.Steps, Limit: int64(e.Limit), Err: ErrStepLimit}
}

// Recursion reports whether a task was open inside itself when the limit
// was reached: raising the limit then may not help.
func (e *StepLimitError) Recursion() bool { return e.Repeats >= 2 }

func (e *StepLimitError) stop() stopPoint {
	return stopPoint{e.Task, e.Repeats, e.Depth, e.MostDecomposed, e.Decompositions}
}

// MemoryLimitError reports a decomposition stopped because what its task
// stack, undo log, saved facts, choice points, plan and trace hold would
// have passed Options.MaxMemory bytes. The fields after Limit are as in
// StepLimitError.
type MemoryLimitError struct {
	Root           string
	Limit          int
	Task           string
	Repeats        int
	Depth          int
	MostDecomposed string
	Decompositions int
}

func (e *MemoryLimitError) Error() string {
	return fmt.Sprintf("htn: memory limit of %d bytes reached decomposing %q%s", e.Limit, e.Root, whereStopped(e.stop(), "memory"))
}

func (e *MemoryLimitError) Unwrap() error {
	return &search.LimitError{Planner: "htn", Goal: e.Root, Bound: search.Bytes, Limit: int64(e.Limit), Err: ErrMemoryLimit}
}

// Recursion reports whether a task was open inside itself when the limit
// was reached.
func (e *MemoryLimitError) Recursion() bool { return e.Repeats >= 2 }

func (e *MemoryLimitError) stop() stopPoint {
	return stopPoint{e.Task, e.Repeats, e.Depth, e.MostDecomposed, e.Decompositions}
}

// stopPoint is where a decomposition was when a limit stopped it (see
// StepLimitError).
type stopPoint struct {
	task           string
	repeats, depth int
	mostDecomposed string
	decompositions int
}

// whereStopped words a stop point after the limit's message. Only a task
// really open inside itself is called a recursion: a deep or wide
// decomposition that needs more than the limit is said to, with its
// depth and its widest part, so that nobody hunts for a loop that is not
// there.
func whereStopped(at stopPoint, what string) string {
	if at.repeats >= 2 {
		return fmt.Sprintf(": task %q was open %d times, each inside the last; does it recurse without end?", at.task, at.repeats)
	}
	msg := fmt.Sprintf(": no task was open inside itself, so this is no endless recursion: the decomposition needs more %s", what)
	if at.depth == 0 {
		return msg
	}
	tasks := "tasks"
	if at.depth == 1 {
		tasks = "task"
	}
	msg += fmt.Sprintf(" (it was %d %s deep, working on %q", at.depth, tasks, at.task)
	if at.decompositions >= 2 {
		msg += fmt.Sprintf("; %q was decomposed the most, %d times", at.mostDecomposed, at.decompositions)
	}
	return msg + ")"
}

// MTR is a method traversal record: the method chosen at each compound
// task, in decomposition order, numbered from 1 for the first method, as
// the HTN lesson prints it (see docs/background.md).
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
	// Limits bound the decomposition (a value past an int's range is
	// taken as the largest int; zero or less is the default):
	//
	//   - MaxSteps caps decomposition steps (tasks taken off the task list
	//     plus method conditions tested); 0 means DefaultMaxSteps.
	//   - MaxBytes caps, in bytes, what the task stack, the undo log, the
	//     saved facts, the choice points, the plan and MTR being built and
	//     the trace hold, counted by length; 0 means
	//     search.DefaultMaxBytes. The slices grow by doubling, and the old
	//     array is live while one grows, so the heap they take can reach a
	//     few times the cap.
	//
	// Budget, MaxDepth and MaxWork do not apply. A non-zero field here wins
	// over the deprecated field of the same meaning below.
	Limits search.Limits
	// Deprecated: use Limits.MaxSteps, which wins when both are set.
	MaxSteps int
	// Deprecated: use Limits.MaxBytes, which wins when both are set.
	MaxMemory int
	// Trace, if not nil, records every step; nil costs nothing.
	Trace *Trace
	// Context, if not nil, stops the decomposition when it is done: it is
	// looked at every contextCheckSteps steps (and before the first), and
	// the decomposition ends with Status Canceled and a *CanceledError.
	// Nil costs nothing.
	Context context.Context
}

// Result is a decomposition's outcome. Plan and MTR are appended to the
// slices of the Result passed to Plan, so a caller that reuses one Result
// allocates nothing.
type Result struct {
	Status Status
	Bound  Bound // the limit that stopped it, when Status is LimitReached
	Plan   []goap.ActionID
	MTR    MTR
	// Tasks holds, for each MTR entry, the compound task it chose for.
	Tasks []Task
	// Steps counts tasks taken off the list plus method conditions tested
	// (failing tests included); Backtracks counts method choices undone.
	Steps, Backtracks int
	// Stats are the counts every planner shares, in a decomposition's
	// terms: Expanded the tasks taken off the task list, Generated the
	// method conditions tested (the two add up to Steps); Work 0 (a
	// decomposition counts steps, not work); PeakBytes the most the memory
	// cap counted at its checks, which come before each growth; Depth the
	// plan's length when Found, 0 otherwise.
	Stats search.Stats
}

// Planner decomposes tasks of one domain with total-order forward
// decomposition and chronological backtracking. It keeps an explicit task
// stack and an undo log instead of copying the task list for each method,
// and reuses them: once warm, a decomposition allocates nothing. It is not
// safe for concurrent use; give each goroutine its own.
type Planner struct {
	d         *Domain
	facts     []uint64
	stack     []Task // the task list, first task on top (at the end)
	log       []undo
	saved     []uint64 // facts before each primitive, W words each
	choices   []choice
	lastWord  uint64  // the bits of the state's last word that are facts
	openCount []int32 // per compound task, filled only when a limit is hit
	inChain   []int32 // per compound task, filled only when a limit is hit
	chain     []int32 // the choices in progress, outermost first, when a limit is hit
	// slicer runs the decomposition Begin started, nil when none is under
	// way; slicing is its storage, made by the first Begin and kept for
	// the next (slice.go).
	slicer, slicing *slicer
}

// Sizes of what the memory cap counts, per element.
const (
	taskBytes = int(unsafe.Sizeof(Task(0)))
	undoBytes = int(unsafe.Sizeof(undo{}))
	wordBytes = 8
	// a choice point comes with its MTR entry and the task it chose for
	choiceBytes    = int(unsafe.Sizeof(choice{})) + int(unsafe.Sizeof(int32(0))) + taskBytes
	planBytes      = int(unsafe.Sizeof(goap.ActionID(0)))
	traceStepBytes = int(unsafe.Sizeof(TraceStep{}))
)

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
	// base is the task stack's length once task was taken off it: the
	// choice is done when the stack is back down to base.
	base int32
}

// NewPlanner returns a planner for d.
func NewPlanner(d *Domain) *Planner {
	if d == nil {
		panic("htn: NewPlanner(nil)")
	}
	w := len(d.g.Initial().Words())
	last := ^uint64(0)
	if n := d.g.NumFacts() - (w-1)*64; n < 64 {
		last = 1<<uint(max(n, 0)) - 1
	}
	return &Planner{d: d, facts: make([]uint64, w), lastWord: last}
}

// Domain returns the planner's domain.
func (p *Planner) Domain() *Domain {
	p.check()
	return p.d
}

// check panics, saying what to call, on a nil or zero Planner, which has
// no domain to decompose.
func (p *Planner) check() {
	if p == nil || p.d == nil {
		panic("htn: Planner not made by NewPlanner: a nil or zero Planner has no domain; call htn.NewPlanner(domain)")
	}
}

// Plan decomposes the root task from facts s into res, reusing res.Plan and
// res.MTR. Finding no decomposition is a normal outcome with a nil error;
// reaching the step cap returns a *StepLimitError (and Status StepLimit),
// and the memory cap a *MemoryLimitError (Status MemoryLimit), never a
// partial plan.
//
// Plan panics, with a message saying which, on misuse: a state of another
// width than the domain's, a state with bits set beyond the domain's facts
// (it comes from another domain, or from StateFromWords with stray bits),
// a profile of another GOAP domain, or an Options.Root that is no compound
// task of the domain. A state from another domain with the same facts
// count cannot be told apart, and is taken as it is.
func (p *Planner) Plan(res *Result, s goap.State, opt Options) error {
	p.check()
	p.abandon() // the planner's storage is this decomposition's now
	p.checkState(s)
	root := p.checkOptions(&opt)
	return p.plan(res, s, &opt, root)
}

// checkOptions panics on options of another domain, and returns the task
// they decompose.
func (p *Planner) checkOptions(opt *Options) Task {
	d := p.d
	if opt.Profile != nil && opt.Profile.Domain() != d.g {
		panic("htn: profile belongs to another domain")
	}
	root := d.root
	if opt.HasRoot {
		root = opt.Root
		if root < 0 || int(root) >= len(d.tasks) {
			panic(fmt.Sprintf("htn: Options.Root %d is not a compound task of the domain (it has %d, numbered from 0)", root, len(d.tasks)))
		}
	}
	return root
}

// plan is Plan's decomposition of root, run by Plan at once and by
// Begin's coroutine a slice at a time (slice.go): its caller has checked
// the state and options.
func (p *Planner) plan(res *Result, s goap.State, opt *Options, root Task) error {
	d := p.d
	maxSteps, maxMemory := opt.limits()
	// stepCap is the step count at which the loop must look up from its
	// work: the step cap, or sooner the end of a sliced decomposition's
	// slice, where it pauses (pause), so that a whole decomposition's
	// loop tests one count, as before slicing.
	stepCap := maxSteps
	sl := p.slicer
	if sl != nil {
		sl.pauseAt = sl.left
		stepCap = min(maxSteps, sl.pauseAt)
	}
	tr := opt.Trace
	if tr != nil {
		tr.reset(d)
	}
	res.Status, res.Bound, res.Steps, res.Backtracks = NoPlan, search.NoBound, 0, 0
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
	tested := 0 // the method conditions tested, of the steps
	peak := 0   // the most held() counted, at a check that passed

	// held is what the memory cap counts, with extra bytes about to be
	// added.
	held := func(plan, extra int) int {
		n := len(p.stack)*taskBytes + len(p.log)*undoBytes + len(p.saved)*wordBytes + len(p.choices)*choiceBytes + plan*planBytes + extra
		if tr != nil {
			n += len(tr.Steps) * traceStepBytes
		}
		return n
	}
	// tryMethods tests t's methods from the 0-based method from on, and
	// commits to the first whose condition holds. It reports false if none
	// does, or a cap came first (limited, memLimited).
	limited, memLimited := false, false
	// popped says a cap was hit while a task taken off the stack was
	// being worked on, poppedTask, so that it still counts as open.
	popped, poppedTask := false, Task(-1)
	ctx, nextCheck := opt.Context, 0
	var ctxErr error // the context's, once it stopped the decomposition
	// pause hands control back to the Continue whose slice is spent, and
	// reports false if the decomposition must end: it was abandoned (it
	// ends at once, as a canceled one: nobody reads its result, and its
	// trace says canceled), or its context is done, which is looked at as
	// every slice starts. While it waits, the slicer counts the plan, MTR
	// and tasks it holds (Bytes).
	pause := func() bool {
		sl.steps = steps
		sl.held = sliceBytes(plan) + sliceBytes(mtr) + sliceBytes(tasks)
		if !sl.run.Pause() {
			ctxErr = errAbandoned
			return false
		}
		sl.pauseAt = steps + min(sl.left, math.MaxInt-steps)
		stepCap = min(maxSteps, sl.pauseAt)
		if ctx != nil {
			if ctxErr = ctx.Err(); ctxErr != nil {
				return false
			}
			nextCheck = steps + contextCheckSteps
		}
		return true
	}
	tryMethods := func(t Task, from int32) bool {
		c := &d.tasks[t]
		for m := c.firstMethod + from; m < c.endMethod; m++ {
			if steps >= stepCap && (steps >= maxSteps || !pause()) {
				limited, popped, poppedTask = true, true, t
				return false
			}
			steps++
			tested++
			meth := &d.methods[m]
			ok := meth.cond.Holds(goap.StateFromWords(facts))
			if tr != nil {
				tr.add(TraceStep{Kind: TestMethod, Task: t, Method: m - c.firstMethod, Holds: ok, Depth: int32(len(p.choices))})
			}
			if !ok {
				continue
			}
			subs := d.subtasks[meth.firstSubtask:meth.endSubtask]
			h := held(len(plan), len(subs)*taskBytes+undoBytes+choiceBytes)
			if h > maxMemory {
				limited, memLimited, popped, poppedTask = true, true, true, t
				return false
			}
			peak = max(peak, h)
			p.choices = append(p.choices, choice{
				task: t, method: m - c.firstMethod,
				logLen: int32(len(p.log)), planLen: int32(len(plan)),
				mtrLen: int32(len(mtr)), savedLen: int32(len(p.saved)),
				base: int32(len(p.stack)),
			})
			mtr = append(mtr, m-c.firstMethod+1)
			tasks = append(tasks, t)
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
		if steps >= stepCap && (steps >= maxSteps || !pause()) {
			limited = true
		} else if ctx != nil && steps >= nextCheck {
			if ctxErr = ctx.Err(); ctxErr != nil {
				limited = true
			}
			nextCheck = steps + contextCheckSteps
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
				h := 0
				if ok {
					h = held(len(plan)+1, 2*undoBytes+W*wordBytes)
				}
				if h > maxMemory {
					ok, limited, memLimited, popped = false, true, true, true
				} else if peak = max(peak, h); tr != nil {
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
			switch {
			case memLimited:
				res.Status, res.Bound = LimitReached, search.Bytes
			case ctxErr != nil:
				res.Status, res.Bound = LimitReached, search.ContextBound(ctxErr)
			case limited:
				res.Status, res.Bound = LimitReached, search.Steps
			}
			break
		}
	}
	res.Steps, res.Backtracks = steps, backtracks
	res.Stats = search.Stats{Expanded: int64(steps - tested), Generated: int64(tested), PeakBytes: int64(peak)}
	if res.Status == Found {
		res.Stats.Depth = int64(len(plan))
	}
	if res.Status != Found {
		plan, mtr, tasks = plan[:0], mtr[:0], tasks[:0]
	}
	res.Plan, res.MTR, res.Tasks = plan, mtr, tasks
	if tr != nil {
		tr.Status, tr.Bound, tr.StepsTaken, tr.Backtracks = res.Status, res.Bound, steps, backtracks
	}
	switch res.Bound {
	case search.Steps:
		at := p.stopPoint(popped, poppedTask)
		return &StepLimitError{Root: d.TaskName(root), Limit: maxSteps, Task: at.task, Repeats: at.repeats, Depth: at.depth, MostDecomposed: at.mostDecomposed, Decompositions: at.decompositions}
	case search.Bytes:
		at := p.stopPoint(popped, poppedTask)
		return &MemoryLimitError{Root: d.TaskName(root), Limit: maxMemory, Task: at.task, Repeats: at.repeats, Depth: at.depth, MostDecomposed: at.mostDecomposed, Decompositions: at.decompositions}
	case search.Canceled, search.Deadline:
		return &CanceledError{Root: d.TaskName(root), Err: ctxErr}
	}
	return nil
}

// limits returns the step and memory caps in force: Limits winning over
// the deprecated fields (search.Limits.Or), zero or less meaning the
// default.
func (opt *Options) limits() (maxSteps, maxMemory int) {
	lim := opt.Limits.Or(search.Limits{MaxSteps: int64(opt.MaxSteps), MaxBytes: int64(opt.MaxMemory)})
	maxSteps, maxMemory = search.ClampInt(lim.MaxSteps), search.ClampInt(lim.MaxBytes)
	if maxSteps <= 0 {
		maxSteps = DefaultMaxSteps
	}
	if maxMemory <= 0 {
		maxMemory = search.DefaultMaxBytes
	}
	return maxSteps, maxMemory
}

// checkState panics unless s is a state of the planner's domain as far as
// its words can tell.
func (p *Planner) checkState(s goap.State) {
	w := s.Words()
	if len(w) != len(p.facts) {
		panic(fmt.Sprintf("htn: state has %d words, the domain's %d facts need %d: make states with the domain", len(w), p.d.g.NumFacts(), len(p.facts)))
	}
	if stray := w[len(w)-1] &^ p.lastWord; stray != 0 {
		panic(fmt.Sprintf("htn: state has bit %d set, beyond the domain's %d facts: it comes from another domain", (len(w)-1)*64+bits.TrailingZeros64(stray), p.d.g.NumFacts()))
	}
}

// stopPoint says, once a cap is hit, where the decomposition was (see
// StepLimitError); popped says a task taken off the stack, poppedTask if
// compound, was being worked on. It runs only then, in time linear in the
// choices held (reset included, as only the tasks counted are cleared).
//
// The choices in progress are found from the stack lengths alone. Between
// two choices held, the stack only shrinks (a task taken off it either
// chooses a method or is a primitive; a failure is backtracked, its
// effects undone), down to the later choice's base plus its own task. So
// a choice is done by the time of a later one if its base is at least
// that one's base plus one, and at the end if its base is at least the
// stack's length (plus one for a task popped and still worked on).
func (p *Planner) stopPoint(popped bool, poppedTask Task) stopPoint {
	if len(p.openCount) < len(p.d.tasks) {
		p.openCount = make([]int32, len(p.d.tasks))
		p.inChain = make([]int32, len(p.d.tasks))
	}
	chain := p.chain[:0]
	finish := func(stackLen int32) {
		for len(chain) > 0 && p.choices[chain[len(chain)-1]].base >= stackLen {
			chain = chain[:len(chain)-1]
		}
	}
	for i, c := range p.choices {
		finish(c.base + 1)
		chain = append(chain, int32(i))
		p.openCount[c.task]++
	}
	end := int32(len(p.stack))
	if popped {
		end++
	}
	finish(end)
	p.chain = chain

	var at stopPoint
	most := int32(0)
	for _, c := range p.choices {
		if n := p.openCount[c.task]; n > most {
			at.mostDecomposed, most = p.d.TaskName(c.task), n
		}
	}
	at.decompositions = int(most)
	for _, c := range p.choices {
		p.openCount[c.task] = 0
	}
	best, repeats := Task(-1), int32(0)
	for _, i := range chain {
		p.inChain[p.choices[i].task]++
	}
	for _, i := range chain {
		if t := p.choices[i].task; p.inChain[t] > repeats {
			best, repeats = t, p.inChain[t]
		}
	}
	for _, i := range chain {
		p.inChain[p.choices[i].task] = 0
	}
	// A compound task taken off the stack and having its methods tested
	// is open too, one deeper, though no method of it is chosen yet.
	at.depth = len(chain)
	if popped && poppedTask >= 0 {
		at.depth++
	}
	switch {
	case repeats >= 2:
	case popped && poppedTask >= 0:
		best, repeats = poppedTask, 1
	case len(chain) > 0:
		best = p.choices[chain[len(chain)-1]].task
	}
	at.repeats = int(repeats)
	if best >= 0 {
		at.task = p.d.TaskName(best)
	}
	return at
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
