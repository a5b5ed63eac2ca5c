package viewer

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math/bits"
	"net/http"
	"slices"

	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/htn"
	"github.com/ploy-ai/ploy/internal/report"
)

// decompositionRow is one entry of an HTN trace as `ploy trace --htn
// --format json` writes it, with what figure 3 shows beside it: the task
// list and the predicted facts once the entry is done.
type decompositionRow struct {
	report.HTNStep
	// Tasks is the task list, first task first; Facts the facts true in
	// the predicted state.
	Tasks []string `json:"tasks"`
	Facts []string `json:"facts"`
}

// replayChoice is a method choice the replay can back out of: the task
// list and the facts as they were before the method's subtasks went on.
type replayChoice struct {
	task   htn.Task
	method int32
	rest   []htn.Task
	facts  goap.State
}

// decompositionHead is the decomposition's answer before its trace.
type decompositionHead struct {
	Status     string   `json:"status"`
	Steps      int      `json:"steps"`
	Backtracks int      `json:"backtracks"`
	Plan       []string `json:"plan"`
	MTR        []int32  `json:"mtr"`
	Limit      string   `json:"limit,omitempty"`
}

// decomposition answers POST /api/v1/decomposition: the HTN trace of the
// root task (as /api/v1/trace with htn), each entry with the task list
// and the predicted facts after it. The planner keeps neither in its
// trace, so they are rebuilt here by replaying the trace against the
// domain's methods and effects. The answer is held to the trace's size
// cap, which also bounds the replay's work: each row written costs at
// least as much as the copy of the task list it made.
func (s *Server) decomposition(ctx context.Context, body []byte) ([]byte, error) {
	var q htnRequest
	if err := decode(body, &q); err != nil {
		return nil, err
	}
	f, err := s.load(q.source)
	if err != nil {
		return nil, err
	}
	if f.EngineModel() || f.HTN == nil {
		return nil, &apiError{Status: http.StatusUnprocessableEntity, Field: "domain", Message: fmt.Sprintf("%s: the domain has no htn section", f.Path)}
	}
	steps, err := s.htnSteps(q.MaxSteps)
	if err != nil {
		return nil, err
	}
	start, err := q.state(f.GOAP)
	if err != nil {
		return nil, err
	}
	d := f.HTN
	var tr htn.Trace
	var res htn.Result
	planErr := htn.NewPlanner(d).Plan(&res, start, htn.Options{Limits: htnLimits(steps), Trace: &tr, Context: ctx})
	limit := ""
	if planErr != nil {
		limit = s.htnLimitText(planErr)
	}
	g := d.GOAP()
	plan := make([]string, len(res.Plan))
	for i, a := range res.Plan {
		plan[i] = g.ActionName(a)
	}
	head := decompositionHead{htn.StatusName(res.Status, res.Bound), res.Steps, res.Backtracks, plan, append([]int32{}, res.MTR...), limit}
	// The head lists the plan whole, before the capped rows: counted
	// first, so that a long plan of long names is refused unmade.
	if err := s.answerFits(head, "the decomposition's plan", "max_steps", decompositionTooLarge); err != nil {
		return nil, err
	}
	return s.traceAnswer(func(w *bufio.Writer) error {
		head, err := json.Marshal(head)
		if err != nil {
			return err
		}
		w.Write(head[:len(head)-1])
		w.WriteString(`,"trace":[`)
		list := []htn.Task{d.Root()} // first task first
		facts := start.Clone()
		var rest []htn.Task // the list after the last compound task taken
		var restFacts goap.State
		var choices []replayChoice
		step := 0
		for i, e := range tr.Steps {
			row := decompositionRow{HTNStep: report.HTNStepOf(d, e, &step)}
			switch e.Kind {
			case htn.TakeTask:
				if len(list) == 0 || list[0] != e.Task {
					return fmt.Errorf("viewer: the replay of the decomposition lost its way at entry %d", i+1)
				}
				list = list[1:]
				if !e.Task.IsPrimitive() {
					rest, restFacts = slices.Clone(list), facts.Clone()
				} else if e.Holds {
					g.Apply(e.Task.Action(), facts)
				}
			case htn.TestMethod:
				if e.Holds {
					choices = append(choices, replayChoice{e.Task, e.Method, rest, restFacts})
					list = append(slices.Clone(d.Subtasks(e.Task, int(e.Method))), rest...)
				}
			case htn.Backtrack:
				for len(choices) > 0 {
					c := choices[len(choices)-1]
					choices = choices[:len(choices)-1]
					if c.task == e.Task && c.method == e.Method {
						// The next method of the same task starts from here.
						list, rest, facts, restFacts = slices.Clone(c.rest), c.rest, c.facts.Clone(), c.facts
						break
					}
				}
			}
			row.Tasks = make([]string, len(list))
			for j, t := range list {
				row.Tasks[j] = d.TaskName(t)
			}
			// The true facts, a word at a time: a row costs the state's
			// words, not its facts (a 60 000-fact file made this replay
			// take 4 s of CPU, one test per fact per row).
			row.Facts = []string{}
			names := g.Facts()
			for k, word := range facts.Words() {
				for word != 0 {
					row.Facts = append(row.Facts, names[k*64+bits.TrailingZeros64(word)])
					word &= word - 1
				}
			}
			b, err := json.Marshal(row)
			if err != nil {
				return err
			}
			if i > 0 {
				w.WriteByte(',')
			}
			if _, err := w.Write(b); err != nil {
				return err // past the size cap: stop replaying
			}
		}
		w.WriteString("]}\n")
		return nil
	})
}
