package agent

import (
	"encoding/json"
	"maps"
	"math"
	"slices"
	"unsafe"

	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/htn"
	"github.com/ploy-ai/ploy/resolver"
	"github.com/ploy-ai/ploy/search"
)

// DecisionSink receives an agent's decisions, each recorded whole
// (Config.Decisions). The *Decision it is given is the agent's buffer,
// valid only during the call: a sink that keeps a decision copies it (a
// FlightRecorder's agents fill a slot of its ring instead, and its JSON is
// made only when the recording is written). A sink is the game's code, as an event
// callback is: a Queue delivers the result of an agent that has one on the
// goroutine that calls Frame, after every worker is done (a
// FlightRecorder, which touches no agent, is delivered to as results come).
type DecisionSink interface {
	RecordDecision(d *Decision)
}

// Decision is one decision of an agent, whole: why it was asked, what the
// search read, what the agent weighed and what came of it. It is the line
// format of a decision recording (docs/records.md).
type Decision struct {
	// Tick is the agent's tick when the result reached it, Asked when it
	// asked (with a Queue, the frame may come ticks later; the snapshot is
	// Asked's).
	Tick  int    `json:"tick"`
	Asked int    `json:"asked"`
	Agent string `json:"agent"`
	// Kind is the agent's: "goap", "htn", "tree" or "resolver".
	Kind string `json:"kind"`
	// Decided is what was decided: "plan" (a search, a decomposition or a
	// resolve for the agent's goal or root task) or "interruption" (an
	// HTN agent's check whether a plan with a smaller MTR replaces the
	// running one; Taken says whether it did).
	Decided string `json:"decided"`
	Taken   bool   `json:"taken,omitempty"`
	// Reason is why the plan was asked for: a replan reason (ReasonStart,
	// ReasonPlanDone, ...).
	Reason string `json:"reason"`
	// AgentKind is the agent kind of a domain file's agents: section the
	// agent was configured from (Config.AgentKind; agentfile sets it), so
	// that a replay can weigh its goal options with that file's.
	AgentKind string `json:"agent_kind,omitempty"`
	// Goal is the goal planned for (empty for an HTN decomposition).
	Goal string `json:"goal,omitempty"`
	// Current is the goal the agent pursued when goal choice began that
	// tick (empty if none): goal choice keeps it at equal scores.
	Current string `json:"current,omitempty"`
	// Task is the HTN task decomposed: the agent's root task, or a tree's
	// PlanHTN leaf's.
	Task string `json:"task,omitempty"`
	// Options are the agent's goal options as goal choice weighed them on
	// the tick the plan was asked for (none for HTN and tree agents).
	Options []GoalScore `json:"options,omitempty"`
	// Snapshot is what the search read: the world as the agent knew it
	// when it asked (with a Queue, the copy taken at submit).
	Snapshot DecisionSnapshot `json:"snapshot"`
	// Plan is the plan found, each step with its cost, and Cost its total
	// (empty when none was found).
	Plan []DecisionStep `json:"plan"`
	Cost float64        `json:"cost"`
	// MTR is an HTN plan's method traversal record, and Running, for an
	// interruption, the running plan's, which MTR had to beat.
	MTR     htn.MTR `json:"mtr,omitempty"`
	Running htn.MTR `json:"running,omitempty"`
	// Profile is the agent's profile when it asked (none: the domain as
	// built), Limits its search limits (0: the planner's default), and
	// Distance "game" when a resolver agent's walks were priced by the
	// game's own distance model rather than straight lines: what shaped
	// the search besides the snapshot, so that a replay can search again
	// as it did.
	Profile  DecisionProfile `json:"profile,omitzero"`
	Limits   DecisionLimits  `json:"limits,omitzero"`
	Distance string          `json:"distance,omitempty"`
	// OwnProfile says that the game gave an agent of a file's agent kind
	// a profile other than the kind's (SetProfile: a guard wounded), so
	// that a replay searches with the recorded profile, not the kind's in
	// the file, which only the agents still on it follow.
	OwnProfile bool `json:"own_profile,omitempty"`
	// Status and Bound are the search's outcome in the shared vocabulary
	// ("found", "no_plan", "limit_reached"; the bound's name when a limit
	// stopped it), and Stats its counts.
	// Margin is a utility choice's hysteresis: how much more than the
	// running action's score another must have to replace it.
	Margin float64 `json:"margin,omitempty"`
	// Commitment is the agent's (Config.Commitment) and what its rules
	// were applied to when goal choice weighed the options: zero, and
	// absent in JSON, for an agent without one.
	Commitment DecisionCommitment `json:"commitment,omitzero"`
	Status     string             `json:"status"`
	Bound      string             `json:"bound,omitempty"`
	Stats      DecisionStats      `json:"stats"`
	// Rejected is what the search turned down and why, recorded only for
	// an agent that traces its decisions (Config.TraceDecisions): a trace
	// fills a list per search, which only an agent being looked at should
	// pay for.
	Rejected []DecisionRejected `json:"rejected,omitempty"`
	// Traced says the search ran with its trace on (TraceDecisions): a
	// traced GOAP search or resolve takes the general path, not a fast
	// one, and counts its work otherwise, so that a limit may stop it
	// where the untraced search finishes; a replay traces it too.
	Traced bool `json:"traced,omitempty"`

	// weighed is, in a FlightRecorder's slot, the goal options as goal
	// choice noted them, with their names and priorities as they were
	// when the record was made: the slot's Options are made of them only
	// when the recording is written (goalScoresOf). Made at every record,
	// in a ring of thousands, a GoalScore's reason and rounding cost a
	// 600-agent tick of the colony about 1 % at summary level, for
	// records most of which the ring drops unread (docs/records.md).
	weighed []optionNote
	// found is, in a FlightRecorder's slot of a resolver agent's record,
	// every target of the record's snapshot (the one the search read, or
	// for a goal choice the live one), found or not, and domain the
	// resolver domain whose names they take (resolver.Domain.Targets):
	// the slot's Snapshot.Targets are made of them only when the recording
	// is written (targetsOf). Copied whole, they are one copy of the
	// snapshot's array, with no pointers for the collector to scan, where
	// the targets found, each with its name, were a loop over them all:
	// about 240 instructions a record in the colony, whose settlers know
	// twenty targets (docs/records.md).
	found  []resolver.Target
	domain *resolver.Domain
	// chain is, in a FlightRecorder's slot of a resolver agent's plan, the
	// chain found, whose steps (their names and costs) are made only when
	// the recording is written (stepsOf), from the snapshot the slot keeps
	// (Snapshot.Values, found, Snapshot.At) and its Profile: the same
	// inputs give the same costs. Only for a domain whose actions are
	// priced by numbers and walks priced by straight lines: the game's
	// code (a CostFunc, a distance model) may answer otherwise later (a
	// door closed) and must not be called on the goroutine that writes
	// the recording, so with either the steps are made when the record is.
	chain []resolver.ActionID
}

// optionNote is one goal option as a record keeps it until its
// GoalScore is made: its goal's name and priority when the record was
// made (a game may retune or swap its options between ticks), its score,
// and its goalMemory's noteWord, with two flags of the record's own in
// the fourth byte (noteUtility, noteExempt).
type optionNote struct {
	goal     string
	priority float64
	score    float64
	noteWord
}

// An optionNote's noteWord, fourth byte: the option has a Utility; the agent's
// commitment exempts it.
const (
	noteUtility = 1 << 24
	noteExempt  = 1 << 25
)

// GoalScore is one goal option as goal choice weighed it.
type GoalScore struct {
	Goal     string  `json:"goal"`
	Priority float64 `json:"priority"`
	// Score is what goal choice compared: the option's Utility when it
	// has one (Utility true), else its Priority; 0 when the option did not
	// apply (see Why). A score or priority past the float range is
	// written as ±1.7976931348623157e308, one that is not a number as 0
	// (Why says so): JSON has no infinities.
	Score   float64 `json:"score"`
	Utility bool    `json:"utility,omitempty"`
	Chosen  bool    `json:"chosen"`
	// Current marks the option pursued when goal choice began (a utility
	// selector's running action): the decision's Current names its goal,
	// and two options of one goal need the mark to tell which it was.
	Current bool `json:"current,omitempty"`
	// Why says why it was chosen or not: "highest score", "kept: the
	// current goal at an equal or higher score", "lower score", "equal
	// score: the current goal kept", "equal score: an earlier option
	// first", "goal holds", "when is false", "no plan until a later
	// tick", or "score is not a number"; with a Commitment, also "kept:
	// committed to the current goal" (an option that outscored it was
	// held off), "exempt from commitment: replaces the current goal",
	// and for an option held off, WhyHeldFinishAction, WhyHeldMinTicks or
	// WhyHeldMargin.
	Why string `json:"why"`
}

// DecisionCommitment is an agent's Commitment as a record holds it, with
// what its rules were applied to: OnGoal, the ticks the agent had
// pursued its current goal, and Acting, whether a step of its plan was
// under way. A replay weighs the recorded options with them.
type DecisionCommitment struct {
	Margin       float64  `json:"margin,omitempty"`
	MinTicks     int      `json:"min_ticks,omitempty"`
	Exempt       []string `json:"exempt,omitempty"`
	FinishAction bool     `json:"finish_action,omitempty"`
	OnGoal       int      `json:"on_goal"`
	Acting       bool     `json:"acting,omitempty"`
}

// Commitment returns the commitment c records, without what it was
// applied to.
func (c *DecisionCommitment) Commitment() Commitment {
	return Commitment{Margin: c.Margin, MinTicks: c.MinTicks, Exempt: c.Exempt, FinishAction: c.FinishAction}
}

// Holds says which of the rules of commitment c keeps the current goal
// (scoring current) against an option of goal goal scoring score, more
// than current: "" for none, else "finish_action", "min_ticks" or
// "margin", tested in that order; an exempt goal is held by none. It is
// goal choice's test, for a replay to weigh recorded options with.
func (c *DecisionCommitment) Holds(goal string, score, current float64) string {
	own := c.Commitment()
	if !own.on() {
		return ""
	}
	own.exempt = []bool{slices.Contains(c.Exempt, goal)}
	return heldNames[own.holds(0, score, current, c.OnGoal, c.Acting)]
}

var heldNames = [...]string{heldNot: "", heldFinishAction: "finish_action", heldMinTicks: "min_ticks", heldMargin: "margin"}

// DecisionStep is one step of a recorded plan and its cost: for a GOAP or
// HTN plan the action's cost in the state it runs in, for a resolver
// chain the action's cost plus the way to its target
// (resolver.Domain.StepCosts).
type DecisionStep struct {
	Action string  `json:"action"`
	Cost   float64 `json:"cost"`
}

// DecisionSnapshot is the world a search read: the true facts (GOAP, HTN
// and tree agents), or a resolver snapshot: each key's value (Keys and
// Values side by side, the keys in the domain's order), the agent's
// position, and the targets found. In JSON, a resolver snapshot's values
// and targets are objects by name: {"values":{"hunger":80},
// "at":{"X":0,"Y":0},"targets":{"berries":{"X":5,"Y":0}}}.
type DecisionSnapshot struct {
	Facts    []string
	Keys     []string
	Values   []int64
	Resolver bool // a resolver snapshot: At and Targets apply
	At       resolver.Point
	Targets  []DecisionTarget
}

// DecisionTarget is a target a resolver snapshot found, and where.
type DecisionTarget struct {
	Name string
	At   resolver.Point
}

// snapshotJSON is DecisionSnapshot's JSON form.
type snapshotJSON struct {
	Facts   []string                  `json:"facts,omitempty"`
	Values  map[string]int64          `json:"values,omitempty"`
	At      *resolver.Point           `json:"at,omitempty"`
	Targets map[string]resolver.Point `json:"targets,omitempty"`
}

// MarshalJSON writes the snapshot's values and targets as objects by name.
func (s DecisionSnapshot) MarshalJSON() ([]byte, error) {
	j := snapshotJSON{Facts: s.Facts}
	if s.Resolver {
		j.Values = make(map[string]int64, len(s.Keys))
		for i, k := range s.Keys {
			j.Values[k] = s.Values[i]
		}
		j.At = &s.At
		if len(s.Targets) > 0 {
			j.Targets = make(map[string]resolver.Point, len(s.Targets))
			for _, t := range s.Targets {
				j.Targets[t.Name] = t.At
			}
		}
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads what MarshalJSON writes, keys and targets sorted by
// name.
func (s *DecisionSnapshot) UnmarshalJSON(b []byte) error {
	var j snapshotJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*s = DecisionSnapshot{Facts: j.Facts, Resolver: j.At != nil || j.Values != nil}
	for _, k := range slices.Sorted(maps.Keys(j.Values)) {
		s.Keys, s.Values = append(s.Keys, k), append(s.Values, j.Values[k])
	}
	if j.At != nil {
		s.At = *j.At
	}
	for _, name := range slices.Sorted(maps.Keys(j.Targets)) {
		s.Targets = append(s.Targets, DecisionTarget{Name: name, At: j.Targets[name]})
	}
	return nil
}

// ValueMap returns a resolver snapshot's values by key name, and
// TargetMap its targets, as resolver.Domain.SnapshotOf takes them.
func (s *DecisionSnapshot) ValueMap() map[string]int64 {
	m := make(map[string]int64, len(s.Keys))
	for i, k := range s.Keys {
		m[k] = s.Values[i]
	}
	return m
}

// TargetMap: see ValueMap.
func (s *DecisionSnapshot) TargetMap() map[string]resolver.Point {
	m := make(map[string]resolver.Point, len(s.Targets))
	for _, t := range s.Targets {
		m[t.Name] = t.At
	}
	return m
}

// copyFrom makes d a deep copy of src, reusing d's slices: a recorder
// keeps decisions so without allocating once its slots have grown. Names
// are the domain's strings, shared, not copied; so is Snapshot.Keys, the
// domain's key names, which no decision changes.
func (d *Decision) copyFrom(src *Decision) {
	options, plan, mtr, running, rejected := d.Options[:0], d.Plan[:0], d.MTR[:0], d.Running[:0], d.Rejected[:0]
	facts, values, targets := d.Snapshot.Facts[:0], d.Snapshot.Values[:0], d.Snapshot.Targets[:0]
	weighed, found, chain := d.weighed[:0], d.found[:0], d.chain[:0]
	*d = *src
	d.Options = append(options, src.Options...)
	d.Plan = append(plan, src.Plan...)
	d.MTR = append(mtr, src.MTR...)
	d.Running = append(running, src.Running...)
	d.Rejected = append(rejected, src.Rejected...)
	d.Snapshot.Facts = append(facts, src.Snapshot.Facts...)
	d.Snapshot.Values = append(values, src.Snapshot.Values...)
	d.Snapshot.Targets = append(targets, src.Snapshot.Targets...)
	d.weighed = append(weighed, src.weighed...)
	d.found = append(found, src.found...)
	d.chain = append(chain, src.chain...)
	if d.Plan == nil {
		d.Plan = []DecisionStep{} // written [] whatever the slot held
	}
}

// fitBytes is what d would hold in slices of its own length: the least a
// recorder keeping it needs.
func (d *Decision) fitBytes() int64 {
	fit := *d
	fit.Options, fit.Plan, fit.MTR = d.Options[:len(d.Options):len(d.Options)], d.Plan[:len(d.Plan):len(d.Plan)], d.MTR[:len(d.MTR):len(d.MTR)]
	fit.Running, fit.Rejected = d.Running[:len(d.Running):len(d.Running)], d.Rejected[:len(d.Rejected):len(d.Rejected)]
	s := &fit.Snapshot
	s.Facts, s.Values, s.Targets = s.Facts[:len(s.Facts):len(s.Facts)], s.Values[:len(s.Values):len(s.Values)], s.Targets[:len(s.Targets):len(s.Targets)]
	fit.weighed = d.weighed[:len(d.weighed):len(d.weighed)]
	fit.found = d.found[:len(d.found):len(d.found)]
	fit.chain = d.chain[:len(d.chain):len(d.chain)]
	return fit.bytes()
}

// bytes is the memory d's slices hold, as a recorder's byte bound counts
// it (the strings are the domain's, shared).
func (d *Decision) bytes() int64 {
	const str, word = 16, 8
	return int64(unsafe.Sizeof(*d)) +
		int64(cap(d.Options))*int64(unsafe.Sizeof(GoalScore{})) +
		int64(cap(d.Plan))*int64(unsafe.Sizeof(DecisionStep{})) +
		int64(cap(d.MTR)+cap(d.Running))*4 +
		int64(cap(d.Rejected))*int64(unsafe.Sizeof(DecisionRejected{})) + rejectedBytes(d.Rejected) +
		int64(cap(d.Snapshot.Facts))*str +
		int64(cap(d.Snapshot.Values))*word +
		int64(cap(d.Snapshot.Targets))*int64(unsafe.Sizeof(DecisionTarget{})) +
		int64(cap(d.weighed))*int64(unsafe.Sizeof(optionNote{})) +
		int64(cap(d.found))*int64(unsafe.Sizeof(resolver.Target{})) +
		int64(cap(d.chain))*int64(unsafe.Sizeof(resolver.ActionID(0)))
}

// DecisionStats are search.Stats under JSON names.
type DecisionStats struct {
	Expanded  int64 `json:"expanded"`
	Generated int64 `json:"generated"`
	Work      int64 `json:"work"`
	PeakBytes int64 `json:"peak_bytes"`
	Depth     int64 `json:"depth"`
}

// goalMemFor makes the goalMem of an agent with n goal options: an
// element for each, and one more after them for an agent that records
// its decisions into sink (choiceNotes).
func goalMemFor(n int, sink DecisionSink) []goalMemory {
	if sink != nil {
		n++
	}
	return make([]goalMemory, n)
}

// setDecisions readies the agent to record into sink, if not nil: its
// log, and the element of its goalMem after the options (goalMemFor),
// which holds what its ticks read of the recording's settings
// (recordTrace, recordGameCode) and the notes of the whole goal choice.
func (a *Agent) setDecisions(sink DecisionSink, trace bool) {
	if sink == nil {
		return
	}
	a.log = &decisionLog{}
	a.log.lender, _ = sink.(slotLender)
	n := a.choiceNotes()
	if _, ours := sink.(interface{ runsNoGameCode() }); !ours {
		n.note(recordGameCode)
	}
	if trace {
		n.note(recordTrace)
	}
}

// tracesDecisions reports whether the agent records what its searches
// turn down (the trace level).
func (a *Agent) tracesDecisions() bool {
	return a.log != nil && a.choiceNotes().notes()&recordTrace != 0
}

// recordsToGameCode reports whether the agent records into a sink of the
// game's, not a FlightRecorder: a Queue then delivers to it as to an
// agent with an event callback.
func (a *Agent) recordsToGameCode() bool {
	return a.log != nil && a.choiceNotes().notes()&recordGameCode != 0
}

// SetTraceDecisions turns on or off recording what each search turned
// down (Decision.Rejected) for an agent that records its decisions: the
// trace level, for the agents being looked at. It takes effect from the
// agent's next request; an agent with no Decisions sink ignores it.
func (a *Agent) SetTraceDecisions(on bool) {
	a.check()
	if a.log != nil {
		n := a.choiceNotes()
		n.unnote(recordTrace)
		if on {
			n.note(recordTrace)
		}
	}
}

// optionState is what goal choice found of a goal option.
type optionState uint8

const (
	optionApplies   optionState = iota
	optionHolds                 // its goal holds already
	optionWhenFalse             // its When is false
	optionBlocked               // it found no plan recently
)

var optionWhy = [...]string{
	optionHolds:     "goal holds",
	optionWhenFalse: "when is false",
	optionBlocked:   "no plan until a later tick",
}

// decisionLog is what an agent that records its decisions keeps for its
// records: the record it fills and hands to the sink, and buffers. How
// goal choice weighed the options is not here but in Agent.goalMem
// (goalMemory), which goal choice reads every tick anyway.
type decisionLog struct {
	// d is the record handed to a sink that lends no slot, made at the
	// first such record: a FlightRecorder's agents never need it, and a
	// Decision is 12 cache lines, which allocated beside every agent of a
	// crowd spread what their ticks read over that much more memory.
	d *Decision
	// lender is the sink as a slotLender (a FlightRecorder), nil for one
	// that lends no slot: asked once, not at every record.
	lender slotLender
	state  goap.State // a GOAP plan's states, step by step, for its costs
	// rejected is what a traced search turned down (TraceDecisions),
	// which a worker fills while the request waits (the agent does not
	// touch its log then).
	rejected []DecisionRejected
	// notes are the options as weighed, for a record's GoalScores when
	// the sink lends no slot.
	notes []optionNote
	// kindGOAP or kindResolver is the profile the agent was configured
	// with, its agent kind's when it has one (Config.AgentKind): a record
	// made with another says so (OwnProfile).
	kindGOAP     *goap.Profile
	kindResolver *resolver.Profile
}

// goalMemory is what an agent keeps of one goal option between ticks
// (Agent.goalMem): the tick before which goal choice passes over it after
// it found no plan, and how the last goal choice weighed it (weighAll), a
// state and a score, which goal choice chooses from and which, for an
// agent that records its decisions, are also the notes of the decision
// that choice may lead to (names and reasons are made only when it is
// recorded, that tick or when the plan it asks for comes back).
//
// The notes are here, beside what goal choice reads every tick anyway,
// rather than in the agent's decisionLog: noted there, every tick of
// every recording agent touched two cache lines of its own, about a
// third of what recording cost a 600-agent crowd at 20 decisions a tick
// (docs/records.md). A recording agent has one element more, after its
// options (goalMemFor), for the notes of the whole choice (onGoal,
// notedWeighed, notedActing, notedHolding) and the recording's settings
// (recordTrace, recordGameCode).
type goalMemory struct {
	// blockedUntil is the tick before which the option found no plan; in
	// the element after the options, which blocks none, the option an
	// agent with a commitment pursued as the last goal choice began (-1
	// for none): noted once a choice rather than flagged on every option
	// (notedCurrent).
	blockedUntil int
	// score is the option's score when it applied (else stale); in the
	// element after the options, the index of the option chosen (-1 for
	// none), exact as a float64 for any number of options (noteChoice).
	score float64
	// onGoal, in the element after the options: the ticks the agent had
	// pursued its current goal when a Commitment's rules were applied.
	onGoal uint32
	noteWord
}

// noteWord packs how goal choice found an option: its optionState in
// the low byte, the commitment rule that held it off in the next
// (heldNot: none), and its notes in the third (notedCurrent; after the
// options notedKept and the others). One word, so that noting an
// option, every tick for every option of every recording agent, is two
// stores at most; a record's optionNote keeps a copy.
type noteWord uint32

const (
	notedHeldShift  = 8
	notedNotesShift = 16
)

func (w noteWord) state() optionState { return optionState(w) }
func (w noteWord) held() uint8        { return uint8(w >> notedHeldShift) }
func (w noteWord) notes() uint8       { return uint8(w >> notedNotesShift) }

// note sets the notes in set.
func (w *noteWord) note(set uint8) { *w |= noteWord(set) << notedNotesShift }

// unnote clears the notes in clear.
func (w *noteWord) unnote(clear uint8) { *w &^= noteWord(clear) << notedNotesShift }

// noteWord.notes (its third byte).
const (
	// notedCurrent marks the option pursued when goal choice began, in
	// a record's optionNote and, for an agent without a commitment, on
	// the option's goalMemory (chooseUncommitted); an agent with one
	// notes it once, in the element after the options (its
	// blockedUntil).
	notedCurrent = 1 << iota
	// notedChosen marks the option chosen, and notedKept that it was
	// the current goal kept at an equal or higher score, in a record's
	// optionNote; the agent notes them once, in the element after the
	// options (noteChoice).
	notedChosen
	notedKept
	// The element after the options: goal choice has weighed the
	// options (an HTN or tree agent never does); a step of the plan was
	// under way (what a Commitment's rules were applied to); commitment
	// held the current goal against another option on the last goal
	// choice (its first such tick was recorded).
	notedWeighed
	notedActing
	notedHolding
	// Also there, the recording's settings that a tick or a request
	// reads: what each search turns down is recorded (the trace level),
	// and the sink is the game's code, not a FlightRecorder. Kept here,
	// not in the agent's decisionLog, for the same reason as the notes.
	recordTrace
	recordGameCode
)

// choiceNotes returns the element after the goal options: the notes of
// the whole goal choice and the recording's settings. Only an agent that
// records its decisions has it.
func (a *Agent) choiceNotes() *goalMemory { return &a.goalMem[len(a.cfg.Goals)] }

// noteWeighed records how the world weighed the option (weighAll): its
// state and its score (0 unless it applies), with no rule holding it off
// and no notes. Every agent's every option every tick, one store each.
func (m *goalMemory) noteWeighed(st optionState, score float64) {
	m.score, m.noteWord = score, noteWord(st)
}

// noteHeld records which of the commitment's rules (held, not heldNot)
// held the option off.
func (m *goalMemory) noteHeld(held uint8) {
	m.noteWord |= noteWord(held) << notedHeldShift
}

// The whys of options that outscored the current goal and were held off
// by a commitment's rule (GoalScore.Why).
const (
	WhyHeldFinishAction = "held off by commitment: the current step finishes first"
	WhyHeldMinTicks     = "held off by commitment: too few ticks on the current goal"
	WhyHeldMargin       = "held off by commitment: not more than the margin above the current goal"
)

var heldWhy = [...]string{heldFinishAction: WhyHeldFinishAction, heldMinTicks: WhyHeldMinTicks, heldMargin: WhyHeldMargin}

// noteChoice records the option chosen (-1 for none), and whether it was
// the current goal kept at an equal or higher score, after every option
// was noted; n is the choice's notes (choiceNotes). Both go in n, in one
// store each, not on the chosen option: its score field, which no
// option's score uses there, holds the chosen index.
func (a *Agent) noteChoice(n *goalMemory, chosen int, kept bool) {
	set := noteWord(notedWeighed)
	if kept {
		set |= notedKept
	}
	n.noteWord = n.noteWord&^(notedKept<<notedNotesShift) | set<<notedNotesShift
	n.score = float64(chosen)
}

// noteCommitted is noteChoice for goal choice with a commitment
// (chooseCommitted): it also notes whether a step of the plan was under
// way (notedActing) and, in set with notedKept, whether commitment held
// an option off (notedHolding), all in one store of the choice's notes,
// once every option was noted. Each flag set and cleared on its own was
// a read and a write of the word: about 10 000 instructions a tick of
// the 600-settler colony.
func (a *Agent) noteCommitted(n *goalMemory, chosen int, set uint8) {
	set |= notedWeighed
	if a.running && a.goal != nil {
		set |= notedActing
	}
	const choice = notedKept | notedActing | notedHolding
	n.noteWord = n.noteWord&^(choice<<notedNotesShift) | noteWord(set)<<notedNotesShift
	n.score = float64(chosen)
}

// weighed returns the options as the last goal choice weighed them
// (none if the agent never chose a goal), and the one pursued as it
// began (-1 for none): noted in the element after the options by the
// committed loop, flagged on the option by the other (chooseUncommitted).
func (a *Agent) weighed() (options []goalMemory, current int) {
	if options = a.weighedOptions(); options == nil {
		return nil, -1
	}
	if a.cfg.Commitment != nil {
		return options, a.choiceNotes().blockedUntil
	}
	for i := range options {
		if options[i].notes()&notedCurrent != 0 {
			return options, i
		}
	}
	return options, -1
}

// weighedOptions returns the options' notes of the last goal choice
// (none if the agent never chose a goal).
func (a *Agent) weighedOptions() []goalMemory {
	n := len(a.cfg.Goals)
	if len(a.goalMem) <= n || a.goalMem[n].notes()&notedWeighed == 0 {
		return nil
	}
	return a.goalMem[:n]
}

// recordOptions sets d's goal options as the last goal choice weighed
// them, and returns the option pursued as it began (-1 for none): in a
// FlightRecorder's slot, the notes with the options' names and
// priorities, from which the recording makes the GoalScores when it is
// written; for any other sink, the GoalScores.
func (a *Agent) recordOptions(d *Decision) (current int) {
	if a.log.lender == nil {
		d.Options, current = a.goalScores(d.Options)
		return current
	}
	d.weighed, current = a.noteOptions(d.weighed)
	return current
}

// goalScores appends the options as weighed to dst as the record's
// GoalScores, and returns the option pursued as the choice began.
func (a *Agent) goalScores(dst []GoalScore) ([]GoalScore, int) {
	var current int
	a.log.notes, current = a.noteOptions(a.log.notes[:0])
	return goalScoresOf(dst, a.log.notes), current
}

// noteOptions appends the options as the last goal choice weighed them
// to dst, each with its goal's name and priority as they are now (none
// if the agent never chose a goal), and returns the one pursued as the
// choice began (-1 for none).
func (a *Agent) noteOptions(dst []optionNote) ([]optionNote, int) {
	weighed, current := a.weighed()
	n := len(dst)
	dst = slices.Grow(dst, len(weighed))[:n+len(weighed)]
	var exempt []bool
	if c := a.cfg.Commitment; c != nil {
		exempt = c.exempt
	}
	for i := range weighed {
		w, note := &weighed[i], &dst[n+i]
		note.score, note.noteWord = w.score, w.noteWord
		if w.state() != optionApplies {
			note.score = 0 // the goalMemory's is stale
		}
		if exempt != nil && exempt[i] {
			note.noteWord |= noteExempt
		}
	}
	a.world.noteGoals(a, dst[n:])
	if current >= 0 { // flagged here when noted once (chooseCommitted)
		dst[n+current].noteWord |= notedCurrent << notedNotesShift
	}
	if c := a.choiceNotes(); len(weighed) > 0 && c.score >= 0 {
		set := noteWord(notedChosen)
		if c.notes()&notedKept != 0 {
			set |= notedKept
		}
		dst[n+int(c.score)].noteWord |= set << notedNotesShift
	}
	return dst, current
}

// goalScoresOf appends the options noted to dst as GoalScores, saying
// why each was chosen or not. It fills each slot in place, every field
// set (dst's storage may be a reused record's): a GoalScore built and
// then appended is a second copy of it.
func goalScoresOf(dst []GoalScore, notes []optionNote) []GoalScore {
	if len(notes) == 0 {
		return dst
	}
	chosen, chosenScore, kept, held := -1, math.NaN(), false, false
	for i := range notes {
		if notes[i].notes()&notedChosen != 0 {
			chosen, chosenScore, kept = i, notes[i].score, notes[i].notes()&notedKept != 0
		}
		held = held || notes[i].held() != heldNot
	}
	n := len(dst)
	dst = slices.Grow(dst, len(notes))[:n+len(notes)]
	for i := range dst[n:] {
		// An option that does not apply was noted with score 0, and a
		// NaN score is written 0 by finite.
		w := &notes[i]
		isChosen, why := false, ""
		switch {
		case w.state() != optionApplies:
			why = optionWhy[w.state()]
		case math.IsNaN(w.score):
			isChosen, why = i == chosen, "score is not a number"
		case w.held() != heldNot:
			why = heldWhy[w.held()]
		case i == chosen && kept && held:
			isChosen, why = true, "kept: committed to the current goal"
		case i == chosen && held && w.noteWord&noteExempt != 0:
			isChosen, why = true, "exempt from commitment: replaces the current goal"
		case i == chosen && kept:
			isChosen, why = true, "kept: the current goal at an equal or higher score"
		case i == chosen:
			isChosen, why = true, "highest score"
		case w.score == chosenScore && kept:
			why = "equal score: the current goal kept"
		case w.score == chosenScore:
			why = "equal score: an earlier option first"
		default:
			why = "lower score"
		}
		g := &dst[n+i]
		g.Goal, g.Priority, g.Utility = w.goal, finite(w.priority), w.noteWord&noteUtility != 0
		g.Score, g.Chosen, g.Current, g.Why = finite(w.score), isChosen, w.notes()&notedCurrent != 0, why
	}
	return dst
}

// recordedCommitment is the agent's commitment as its records hold it,
// with what goal choice applied it to (zero without one). Its Exempt is
// the agent's own copy, which nothing changes: shared, not copied.
func (a *Agent) recordedCommitment() DecisionCommitment {
	c := a.cfg.Commitment
	if c == nil {
		return DecisionCommitment{}
	}
	n := a.choiceNotes()
	return DecisionCommitment{Margin: c.Margin, MinTicks: c.MinTicks, Exempt: c.Exempt, FinishAction: c.FinishAction, OnGoal: int(n.onGoal), Acting: n.notes()&notedActing != 0}
}

// finite is f, with ±Inf as ±math.MaxFloat64 and NaN as 0: JSON has no
// infinities, and a record that cannot be written is worse than one that
// rounds a game's "must do now" score.
func finite(f float64) float64 {
	switch {
	case math.IsNaN(f):
		return 0
	case f > math.MaxFloat64:
		return math.MaxFloat64
	case f < -math.MaxFloat64:
		return -math.MaxFloat64
	}
	return f
}

// recordDecision fills the agent's record of request r's result and hands
// it to the sink.
func (a *Agent) recordDecision(r *request, res *result) {
	l := a.log
	d := a.startRecord()
	a.blank(d, "plan")
	d.Asked, d.Reason = r.asked, r.reason
	// The options and the MTR are the agent's buffers: copied, as the
	// decision may be kept.
	current := a.recordOptions(d)
	d.Commitment = a.recordedCommitment()
	d.Cost, d.MTR = res.cost, append(d.MTR, res.mtr...)
	d.Status = res.status.String()
	d.Stats = DecisionStats{Expanded: res.stats.Expanded, Generated: res.stats.Generated, Work: res.stats.Work, PeakBytes: res.stats.PeakBytes, Depth: res.stats.Depth}
	if r.kind == interruptRequest {
		d.Decided, d.Taken = "interruption", res.replace
	}
	if r.traced {
		d.Rejected = append(d.Rejected, l.rejected...)
	}
	_, decomposed := r.planner.(htnPlanner)
	d.Traced = r.traced && !decomposed // a decomposition runs untraced
	if res.bound != search.NoBound {
		d.Bound = res.bound.String()
	}
	switch {
	case decomposed:
		d.Task = a.taskName(r)
		if r.kind == interruptRequest {
			d.Running = append(d.Running[:0], r.running...)
		}
	case r.goal != nil && a.goal == nil:
		d.Goal = r.goal.Name() // a tree's Plan leaf
	case a.goal != nil:
		d.Goal = a.goalName()
		if current >= 0 {
			d.Current = a.world.optionGoal(a, current) // by index: goalName searches
		}
	}
	var plan = res.plan
	if !res.found {
		plan, d.Cost = nil, 0
	}
	a.world.record(a, r, plan, d)
	if decomposed {
		// A decomposition has no cost of its own: its plan's is its
		// steps'.
		d.Cost = 0
		for _, s := range d.Plan {
			d.Cost += s.Cost
		}
	}
	a.finishRecord(d)
}

// startRecord returns the decision to fill: the slot a FlightRecorder
// lends, so that it is filled once rather than filled here and copied
// there, or the agent's own buffer. The caller fills it whole, reusing
// its slices, and calls finishRecord.
func (a *Agent) startRecord() *Decision {
	if a.log.lender != nil {
		return a.log.lender.lendSlot()
	}
	if a.log.d == nil {
		a.log.d = new(Decision)
	}
	return a.log.d
}

// finishRecord hands d to the sink.
func (a *Agent) finishRecord(d *Decision) {
	if d.Plan == nil {
		d.Plan = []DecisionStep{} // written [] whatever the buffer held
	}
	if a.log.lender != nil {
		a.log.lender.keepSlot()
		return
	}
	a.cfg.Decisions.RecordDecision(d)
}

// blank resets d for a new record of the agent's, keeping its slices'
// storage.
//
// It zeroes d in place and then sets its fields one by one: a composite
// literal assigned to *d that reads d's slices is built in a temporary
// on the stack and copied over, an extra pass over 768 bytes for each
// record (TestBlankLeavesNothingOfTheLastDecision checks that no field
// of an earlier record is left).
func (a *Agent) blank(d *Decision, decided string) {
	options, plan, mtr, running, rejected := d.Options[:0], d.Plan[:0], d.MTR[:0], d.Running[:0], d.Rejected[:0]
	facts, values, targets := d.Snapshot.Facts[:0], d.Snapshot.Values[:0], d.Snapshot.Targets[:0]
	weighed, found, chain := d.weighed[:0], d.found[:0], d.chain[:0]
	*d = Decision{}
	d.Tick, d.Asked, d.Agent, d.Kind, d.AgentKind, d.Decided = a.tick, a.tick, a.cfg.Name, a.kind(), a.cfg.AgentKind, decided
	d.Options, d.Plan, d.MTR, d.Running, d.Rejected = options, plan, mtr, running, rejected
	d.Snapshot.Facts, d.Snapshot.Values, d.Snapshot.Targets = facts, values, targets
	d.weighed, d.found, d.chain = weighed, found, chain
}

// recordNoGoal records a goal choice that left the agent nothing to
// pursue (a choice of a goal is recorded with the plan it asks for):
// which goal it had, and every option as weighed, on what it knew.
func (a *Agent) recordNoGoal(previous *GoalOption) {
	d := a.startRecord()
	a.blank(d, "goal")
	d.Reason, d.Status = "no goal option applies", search.NotSearched.String()
	a.recordOptions(d)
	d.Commitment = a.recordedCommitment()
	if previous != nil {
		d.Current = a.world.goalName(a, previous)
	}
	a.world.recordLive(a, d)
	a.finishRecord(d)
}

// recordKept records a goal choice on which commitment kept the current
// goal against an option that would otherwise have replaced it (the
// first tick of a run of such choices; a plan asked for records them
// too): every option as weighed, the held ones saying which rule held
// them.
func (a *Agent) recordKept() {
	d := a.startRecord()
	a.blank(d, "goal")
	d.Reason, d.Status = ReasonCommitment, search.NotSearched.String()
	a.recordOptions(d)
	d.Commitment = a.recordedCommitment()
	d.Goal = a.goalName()
	d.Current = d.Goal
	a.world.recordLive(a, d)
	a.finishRecord(d)
}

// ReasonCommitment is the reason of a "goal" decision on which commitment
// kept the current goal against an option that outscored it.
const ReasonCommitment = "commitment kept the current goal"

// slotLender is a sink that lends the agent the slot a decision is kept
// in (FlightRecorder): lendSlot returns it, to be filled whole, and
// keepSlot keeps what was filled; nothing else may use the sink between
// the two.
type slotLender interface {
	lendSlot() *Decision
	keepSlot()
}

// kind names the agent's kind for its records.
func (a *Agent) kind() string {
	switch {
	case a.headOnly:
		return "resolver"
	case a.cfg.Tree != nil:
		return "tree"
	case a.cfg.HTN != nil:
		return "htn"
	}
	return "goap"
}

// taskName names the HTN task request r decomposes: a tree's PlanHTN
// leaf's, the agent's HTNRoot, or the HTN's root task.
func (a *Agent) taskName(r *request) string {
	switch {
	case r.byTask:
		return a.cfg.HTN.TaskName(r.task)
	case a.cfg.HTNRoot != "":
		return a.cfg.HTNRoot
	}
	return a.cfg.HTN.TaskName(a.cfg.HTN.Root())
}

// rejectedBytes is the memory d.Rejected's strings and plans hold: made
// for the record (reasons with costs, chains), unlike the domain's names.
func rejectedBytes(rs []DecisionRejected) int64 {
	var n int64
	for _, r := range rs {
		n += int64(len(r.Reason)) + int64(cap(r.Plan))*16
	}
	return n
}
