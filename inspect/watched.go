package inspect

import (
	"maps"
	"slices"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/resolver"
)

// watched is one agent and the inspector's copy of it. The copy's fields
// are written at Frame (mu held for writing) and read by the handlers (mu
// held for reading); a and res are touched only at Frame and Watch, on
// the game's goroutine.
type watched struct {
	a    *agent.Agent
	res  *agent.ResolverAgent // a resolver agent's typed view, else nil
	gd   *goap.Domain         // a GOAP, HTN or tree agent's domain
	rd   *resolver.Domain     // a resolver agent's
	name string
	kind string

	// The copy.
	version int64 // bumped whenever the copy changes
	changed int   // the tick it last changed
	now     int   // the agent's own tick
	goal    string
	plan    []int32 // action ids, GOAP's or the resolver's
	// prevPlan is the plan before the last copy changed it, and
	// planChanged says whether it did: the steps an agent ran within a
	// frame are read from them.
	prevPlan    []int32
	planChanged bool
	step        int
	running     bool
	walking     bool
	current     int32
	mtr         []int32
	facts       goap.State // GOAP, HTN and tree agents
	values      []int64    // a resolver agent's snapshot
	targets     []resolver.Target
	at          resolver.Point
	hasAt       bool
	stats       agent.Stats // ReplanReasons is the copy's own map
	traced      bool        // the inspector turned its trace on
	recorded    int64       // decisions ever recorded

	// The recent decisions: a ring, oldest at head.
	ring       []agent.Decision
	head, n    int
	seenDecide int64 // recorded at the last copy
}

// copyFrom reads the agent into the copy (mu held for writing), and
// reports whether anything changed. Only what changed is copied.
func (w *watched) copyFrom(in *Inspector, tick int) bool {
	a := w.a
	changed := false
	w.planChanged = false
	w.now = a.Now()
	if g := w.goalName(); g != w.goal {
		w.goal, changed = g, true
	}
	if w.res != nil {
		chain := w.res.Chain()
		if !sameIDs(w.plan, chain) {
			w.prevPlan, w.plan = w.plan, w.prevPlan[:0]
			w.planChanged = true
			for _, id := range chain {
				w.plan = append(w.plan, int32(id))
			}
			changed = true
		}
		cur, running := w.res.Current()
		if running != w.running || int32(cur) != w.current || w.walking != w.res.Moving() {
			w.running, w.current, w.walking, changed = running, int32(cur), w.res.Moving(), true
		}
		if s := w.res.Snapshot(); s != nil {
			if !slices.Equal(w.values, s.Values) {
				w.values, changed = append(w.values[:0], s.Values...), true
			}
			if !slices.Equal(w.targets, s.Targets) {
				w.targets, changed = append(w.targets[:0], s.Targets...), true
			}
			if !w.hasAt || w.at != s.At {
				w.at, w.hasAt, changed = s.At, true, true
			}
		}
	} else {
		plan := a.Plan()
		if !sameIDs(w.plan, plan) {
			w.prevPlan, w.plan = w.plan, w.prevPlan[:0]
			w.planChanged = true
			for _, id := range plan {
				w.plan = append(w.plan, int32(id))
			}
			changed = true
		}
		cur, running := a.Current()
		if running != w.running || int32(cur) != w.current {
			w.running, w.current, changed = running, int32(cur), true
		}
		if f := a.Facts(); f.Words() != nil {
			if w.facts.Words() == nil {
				w.facts, changed = f.Clone(), true
			} else if !w.facts.Equal(f) {
				w.facts.CopyFrom(f)
				changed = true
			}
		}
		if in.opt.Position != nil {
			at, ok := in.opt.Position(a)
			if ok != w.hasAt || at != w.at {
				w.at, w.hasAt, changed = at, ok, true
			}
		}
		if mtr := a.MTR(); !slices.Equal(w.mtr, mtr) {
			w.mtr, changed = append(w.mtr[:0], mtr...), true
		}
	}
	if a.Step() != w.step {
		w.step, changed = a.Step(), true
	}
	st := a.Stats()
	if st.Plans != w.stats.Plans || st.StepsDone != w.stats.StepsDone || st.ActionsFailed != w.stats.ActionsFailed ||
		st.NoPlan != w.stats.NoPlan || st.Interruptions != w.stats.Interruptions || st.InterruptsRefused != w.stats.InterruptsRefused ||
		st.TreeTicks != w.stats.TreeTicks {
		reasons := w.stats.ReplanReasons
		if reasons == nil {
			reasons = map[string]int{}
		}
		if st.Replans != w.stats.Replans {
			// The agent's map is its own, written as it ticks: copied,
			// into the copy's own (a handler clones it to answer).
			clear(reasons)
			maps.Copy(reasons, st.ReplanReasons)
		}
		w.stats = st
		w.stats.ReplanReasons = reasons
		changed = true
	}
	if w.recorded != w.seenDecide {
		w.seenDecide, changed = w.recorded, true
	}
	if changed {
		w.version++
		w.changed = tick
	}
	return changed
}

// goalName is the name of the goal the agent pursues, "" for none.
func (w *watched) goalName() string {
	if w.res != nil {
		if g := w.res.Goal(); g != nil {
			return g.Name()
		}
		return ""
	}
	if g := w.a.Goal(); g != nil {
		return g.Name()
	}
	return ""
}

// sameIDs reports whether ids holds plan's action ids.
func sameIDs[ID ~int32](ids []int32, plan []ID) bool {
	if len(ids) != len(plan) {
		return false
	}
	for i, id := range plan {
		if ids[i] != int32(id) {
			return false
		}
	}
	return true
}

// actionName names action id of the agent's domain.
func (w *watched) actionName(id int32) string {
	if w.rd != nil {
		return w.rd.ActionName(resolver.ActionID(id))
	}
	return w.gd.ActionName(goap.ActionID(id))
}

// actionID finds an action of the agent's domain by name.
func (w *watched) actionID(name string) (int32, bool) {
	if w.rd != nil {
		for id := range w.rd.NumActions() {
			if w.rd.ActionName(resolver.ActionID(id)) == name {
				return int32(id), true
			}
		}
		return 0, false
	}
	id, ok := w.gd.ActionByName(name)
	return int32(id), ok
}

// status is the one word the agent list shows and filters by:
// "walking" (to a resolver step's target), "acting" (a step's behaviour
// runs), "no_plan" (its last search found none), "idle" (no goal, no
// step), or "waiting" (for a plan, or for its next step to start).
func (w *watched) status() string {
	switch {
	case w.running && w.walking:
		return "walking"
	case w.running:
		return "acting"
	}
	if d := w.last(); d != nil && d.Decided == "plan" && d.Status != "found" {
		return "no_plan"
	}
	if w.goal == "" && len(w.plan) == 0 {
		return "idle"
	}
	return "waiting"
}

// keep copies d into the ring of at most max decisions (mu held for
// writing), reusing the slot's slices once it is full.
func (w *watched) keep(d *agent.Decision, max int) {
	var slot *agent.Decision
	if w.n < max {
		// The ring fills as decisions come (head is 0 until it is full):
		// an agent that decides little holds little. Its slots are made
		// at its first decision, at once, not grown by copying.
		if w.ring == nil {
			w.ring = make([]agent.Decision, 0, max)
		}
		w.ring = append(w.ring, agent.Decision{})
		slot = &w.ring[w.n]
		w.n++
	} else {
		slot = &w.ring[w.head]
		w.head = (w.head + 1) % len(w.ring)
	}
	copyDecision(slot, d)
	w.recorded++
}

// last returns the most recent decision kept, or nil.
func (w *watched) last() *agent.Decision {
	if w.n == 0 {
		return nil
	}
	return &w.ring[(w.head+w.n-1)%len(w.ring)]
}

// decisions returns the kept decisions, oldest first (mu held).
func (w *watched) decisions() []*agent.Decision {
	out := make([]*agent.Decision, w.n)
	for i := range w.n {
		out[i] = &w.ring[(w.head+i)%len(w.ring)]
	}
	return out
}

// lastWith returns the most recent decision kept for which ok holds.
func (w *watched) lastWith(ok func(*agent.Decision) bool) *agent.Decision {
	for i := w.n - 1; i >= 0; i-- {
		if d := &w.ring[(w.head+i)%len(w.ring)]; ok(d) {
			return d
		}
	}
	return nil
}

// copyDecision makes dst a deep copy of src, reusing dst's slices: the
// agent's decision is its buffer, reused for its next one. Names are the
// domain's strings, shared.
func copyDecision(dst, src *agent.Decision) {
	options, plan, mtr, running, rejected := dst.Options[:0], dst.Plan[:0], dst.MTR[:0], dst.Running[:0], dst.Rejected[:0]
	facts, keys, values, targets := dst.Snapshot.Facts[:0], dst.Snapshot.Keys[:0], dst.Snapshot.Values[:0], dst.Snapshot.Targets[:0]
	*dst = *src
	dst.Options = append(options, src.Options...)
	dst.Plan = append(plan, src.Plan...)
	dst.MTR = append(mtr, src.MTR...)
	dst.Running = append(running, src.Running...)
	dst.Rejected = append(rejected, src.Rejected...)
	for i := range dst.Rejected {
		dst.Rejected[i].Plan = slices.Clone(dst.Rejected[i].Plan)
	}
	dst.Snapshot.Facts = append(facts, src.Snapshot.Facts...)
	dst.Snapshot.Keys = append(keys, src.Snapshot.Keys...)
	dst.Snapshot.Values = append(values, src.Snapshot.Values...)
	dst.Snapshot.Targets = append(targets, src.Snapshot.Targets...)
	if dst.Plan == nil {
		dst.Plan = []agent.DecisionStep{}
	}
}

// copyAgents copies every watched agent (mu held for writing), checks the
// breakpoints, and returns the names of the agents that changed.
func (in *Inspector) copyAgents(tick int) []string {
	changed := in.changed[:0]
	for _, w := range in.agents {
		before := frameMarks{plans: w.stats.Plans, done: w.stats.StepsDone, goal: w.goal, running: w.running, current: w.current, step: w.step}
		if w.copyFrom(in, tick) {
			changed = append(changed, w.name)
			if len(in.bps) > 0 {
				in.checkBreakpoints(w, before, tick)
			}
		}
	}
	in.changed = changed // reused: the frame event is made before the next
	in.copiedAt, in.copiedTk = in.frames.Load(), tick
	close(in.fresh)
	in.fresh = make(chan struct{})
	return changed
}

// frameMarks is what the breakpoints compare across a frame.
type frameMarks struct {
	plans   int
	done    int // steps done
	goal    string
	running bool
	current int32
	step    int
}

// checkBreakpoints records a hit of each breakpoint on w that the frame
// set off (mu held for writing).
func (in *Inspector) checkBreakpoints(w *watched, before frameMarks, tick int) {
	for i := range in.bps {
		b := &in.bps[i]
		if b.Agent != w.name {
			continue
		}
		var what string
		switch b.On {
		case "plan":
			if w.stats.Plans > before.plans {
				what = "planned (plan " + itoa(w.stats.Plans) + ")"
			}
		case "goal":
			if w.goal != before.goal {
				what = "goal " + quoteOrNone(before.goal) + " → " + quoteOrNone(w.goal)
			}
		case "action":
			if w.startedThisFrame(b.Action, before) {
				what = "started " + b.Action
			}
		}
		if what == "" {
			continue
		}
		b.Hits++
		if len(in.pause.hits) == 0 {
			in.pause.holder = b.Client
			in.pause.reason = "breakpoint"
		}
		in.pause.hits = append(in.pause.hits, Hit{Breakpoint: b.ID, Agent: w.name, On: b.On, Action: b.Action, Tick: tick, What: what})
	}
}

// startedThisFrame reports whether a step of action began in the frame:
// the agent runs it now and ran no step, or another step, before (a
// resolver agent's running step kept by a new chain is no new start); or
// a step of it began and ended within the frame (an instant behaviour),
// which the plans show as steps passed: in the same plan, from the step
// running or next before; or, when the plan changed, the steps done of the
// new plan and the rest of those done, from the old plan.
func (w *watched) startedThisFrame(action string, before frameMarks) bool {
	if w.running && w.actionName(w.current) == action &&
		(!before.running || before.current != w.current || before.step != w.step) {
		return true
	}
	from := before.step
	if before.running {
		from++ // that step had begun in an earlier frame
	}
	passed := func(plan []int32, from, to int) bool {
		for i := max(from, 0); i < to && i < len(plan); i++ {
			if w.actionName(plan[i]) == action {
				return true
			}
		}
		return false
	}
	if !w.planChanged {
		return passed(w.plan, from, w.step)
	}
	done := w.stats.StepsDone - before.done
	return passed(w.plan, 0, min(w.step, done)) || passed(w.prevPlan, from, before.step+done-min(w.step, done))
}

func quoteOrNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return `"` + s + `"`
}
