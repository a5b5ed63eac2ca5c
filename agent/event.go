package agent

import (
	"encoding/json"
	"io"
)

// EventKind is what happened.
type EventKind uint8

const (
	GoalChosen       EventKind = iota // goal choice picked Goal (empty: none applies; Satisfied and Why say why)
	PlanMade                          // a plan, with its cost and search statistics
	NoPlanFound                       // the search or decomposition found none
	Replanned                         // a plan is being redone, for Reason
	StepStarted                       // Action's behaviour started
	StepDone                          // Action's effects hold (or its tree leaf succeeded)
	ActionFailed                      // Action failed, timed out, or could not start, for Reason
	PlanDone                          // the plan ran to its end
	InterruptTaken                    // an HTN plan with a smaller MTR replaced the running one
	InterruptRefused                  // a replan found no smaller MTR; the running plan goes on
	MoveStarted                       // a resolver agent set off toward Action's target
	TargetReached                     // a resolver agent came within Action's stopping distance
	TargetLost                        // the target of a resolver agent's Action is gone (Reason: "not found" or "another target")
)

var eventNames = [...]string{
	GoalChosen:       "goal_chosen",
	PlanMade:         "plan_made",
	NoPlanFound:      "no_plan",
	Replanned:        "replan",
	StepStarted:      "step_started",
	StepDone:         "step_done",
	ActionFailed:     "action_failed",
	PlanDone:         "plan_done",
	InterruptTaken:   "interruption_taken",
	InterruptRefused: "interruption_refused",
	MoveStarted:      "move_started",
	TargetReached:    "target_reached",
	TargetLost:       "target_lost",
}

func (k EventKind) String() string {
	if int(k) < len(eventNames) {
		return eventNames[k]
	}
	return "event(?)"
}

// MarshalText writes the kind's name, for JSON.
func (k EventKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// Event is one decision of an agent: a goal chosen, a plan made with its
// statistics, a step started or done, a replan with its reason, an
// interruption taken or refused, an action that failed.
type Event struct {
	Tick     int       `json:"tick"`
	Agent    string    `json:"agent"`
	Kind     EventKind `json:"kind"`
	Goal     string    `json:"goal,omitempty"`
	Action   string    `json:"action,omitempty"`
	Target   string    `json:"target,omitempty"` // a resolver agent's target key, in target_lost
	Reason   string    `json:"reason,omitempty"`
	Plan     []string  `json:"plan,omitempty"`
	Cost     float64   `json:"cost,omitempty"`
	Expanded int       `json:"expanded,omitempty"`
	Steps    int       `json:"steps,omitempty"`
	MTR      []int32   `json:"mtr,omitempty"`
	TopLevel bool      `json:"top_level,omitempty"` // an interruption that changed the root's method
	// Satisfied and Why explain a goal_chosen event with no goal:
	// Satisfied names the goal the agent pursued if it now holds, and Why
	// says why no goal option applies, counting the options whose goal
	// holds, whose when is false, and which wait to plan again.
	Satisfied string `json:"satisfied,omitempty"`
	Why       string `json:"why,omitempty"`
}

// Recorder keeps events in order; its Record method is an OnEvent callback.
type Recorder struct {
	Events []Event
}

// Record appends e.
func (r *Recorder) Record(e Event) { r.Events = append(r.Events, e) }

// WriteJSONL writes the events one JSON object per line.
func (r *Recorder) WriteJSONL(w io.Writer) error {
	enc := json.NewEncoder(w)
	for _, e := range r.Events {
		if err := enc.Encode(e); err != nil {
			return err
		}
	}
	return nil
}
