package replay

import (
	"bufio"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/internal/report"
	"github.com/ploy-ai/ploy/resolver"
)

// WriteText writes the answer for a person: the decision and why it was
// asked for, the goal options as weighed, the plan with its costs, what
// the search turned down, what changed since the agent's previous
// decision, and what the search read.
func (a *Answer) WriteText(w io.Writer) error {
	bw := bufio.NewWriter(w)
	p := func(format string, args ...any) { fmt.Fprintf(bw, format, args...) }
	kind := a.Kind
	if a.AgentKind != "" {
		kind += ", kind " + a.AgentKind
	}
	p("%s (%s), tick %d", a.Agent, kind, a.Tick)
	if a.Asked != a.Tick {
		p(" (asked at tick %d)", a.Asked)
	}
	switch a.Decided {
	case "interruption":
		verdict := "kept the running plan"
		if a.Taken {
			verdict = "took the new plan"
		}
		p(": an interruption check, because %s: it %s\n", a.Reason, verdict)
	case "goal":
		if a.Goal != "" {
			p(": a goal choice, on which commitment kept %s against an option that outscored it\n", a.Goal)
			break
		}
		p(": a goal choice, and no goal option applies")
		if a.Current != "" {
			p(" (it pursued %s)", a.Current)
		}
		p("\n")
	case "choice":
		p(": a utility selector's choice of what to do")
		if a.Current != "" {
			p(" (it was doing %s)", a.Current)
		}
		p("\n")
	default:
		p(": a plan, because %s\n", a.Reason)
	}
	if len(a.Options) > 0 {
		p("\ngoal options:\n")
		width := 0
		for _, o := range a.Options {
			width = max(width, len(o.Goal))
		}
		for _, o := range a.Options {
			mark := " "
			if o.Chosen {
				mark = "*"
			}
			score := "-"
			switch {
			case o.Why == "goal holds" || o.Why == "when is false" || o.Why == whyBlocked:
			case o.Utility:
				score = "utility " + report.FormatCost(o.Score)
			default:
				score = "priority " + report.FormatCost(o.Score)
			}
			p("  %s %-*s  %-18s %s\n", mark, width, o.Goal, score, o.Why)
		}
	}
	if c := a.Commitment; c.MinTicks != 0 || c.Margin != 0 || c.FinishAction {
		p("commitment: %s\n", commitmentText(c))
	}
	switch {
	case a.Task != "":
		p("\ntask: %s\n", a.Task)
	case a.Goal != "":
		p("\ngoal: %s", a.Goal)
		if a.Current != "" && a.Current != a.Goal {
			p(" (was %s)", a.Current)
		}
		p("\n")
	}
	status := a.Status
	if a.Bound != "" {
		status += " (" + a.Bound + ")"
	}
	switch {
	case a.Decided == "goal":
	case a.Decided == "choice" && len(a.Plan) > 0:
		p("\naction: %s, cost %s\n", a.Plan[0].Action, report.FormatCost(a.Plan[0].Cost))
	case len(a.Plan) == 0:
		p("no plan: %s; %d expanded\n", status, a.Stats.Expanded)
	default:
		p("plan, cost %s (%s; %d expanded):\n", report.FormatCost(a.Cost), status, a.Stats.Expanded)
		for i, s := range a.Plan {
			p("  %d. %s  %s\n", i+1, s.Action, report.FormatCost(s.Cost))
		}
	}
	if len(a.MTR) > 0 {
		p("MTR %v\n", []int32(a.MTR))
	}
	if a.Decided != "goal" && a.Decided != "choice" {
		a.writeRejected(p)
	}
	if s := a.Since; s != nil {

		p("\nsince its previous decision (tick %d):\n", s.Tick)
		lines := s.lines()
		if len(lines) == 0 {
			p("  nothing it reads changed\n")
		}
		for _, l := range lines {
			p("  %s\n", l)
		}
	} else {
		p("\nits first decision in the recording\n")
	}
	p("\nwhat it read: %s\n", a.snapshotText())
	return bw.Flush()
}

func (s *Since) lines() []string {
	var out []string
	if s.Goal != "" {
		out = append(out, "its goal was "+s.Goal)
	}
	if len(s.FactsTrue) > 0 {
		out = append(out, "now true: "+strings.Join(s.FactsTrue, ", "))
	}
	if len(s.FactsFalse) > 0 {
		out = append(out, "now false: "+strings.Join(s.FactsFalse, ", "))
	}
	for _, k := range slices.Sorted(maps.Keys(s.Values)) {
		v := s.Values[k]
		out = append(out, fmt.Sprintf("%s %d → %d", k, v[0], v[1]))
	}
	if s.From != nil {
		out = append(out, "moved from "+report.FormatPoint(*s.From))
	}
	if len(s.TargetsNew) > 0 {
		out = append(out, "targets found: "+strings.Join(s.TargetsNew, ", "))
	}
	if len(s.TargetsGone) > 0 {
		out = append(out, "targets lost: "+strings.Join(s.TargetsGone, ", "))
	}
	for _, t := range slices.Sorted(maps.Keys(s.TargetsMoved)) {
		m := s.TargetsMoved[t]
		out = append(out, fmt.Sprintf("%s moved %s → %s", t, report.FormatPoint(m[0]), report.FormatPoint(m[1])))
	}
	return out
}

func (a *Answer) snapshotText() string {
	s := &a.Snapshot
	if !s.Resolver {
		if len(s.Facts) == 0 {
			return "no fact true"
		}
		return strings.Join(s.Facts, ", ")
	}
	var parts []string
	for i, k := range s.Keys {
		parts = append(parts, fmt.Sprintf("%s %d", k, s.Values[i]))
	}
	text := strings.Join(parts, ", ") + "; at " + report.FormatPoint(s.At)
	if len(s.Targets) > 0 {
		var ts []string
		for _, t := range s.Targets {
			ts = append(ts, t.Name+" "+report.FormatPoint(resolver.Point(t.At)))
		}
		text += "; targets " + strings.Join(ts, ", ")
	}
	return text
}

func (a *Answer) writeRejected(p func(string, ...any)) {
	p("\nturned down:\n")
	if len(a.Rejected) == 0 {
		if a.RejectedNote != "" {
			p("  (the search could not be run again: %s)\n", a.RejectedNote)
		} else {
			p("  nothing\n")
		}
	}
	for _, r := range a.Rejected {
		p("  %s: %s\n", r.Action, r.Reason)
	}
}

// commitmentText describes a recorded commitment and what it was applied
// to: "margin 0.5, min_ticks 30 (12 ticks on the goal), exempt
// GetHealthy, finish_action (a step under way)".
func commitmentText(c agent.DecisionCommitment) string {
	var parts []string
	if c.Margin != 0 {
		parts = append(parts, "margin "+report.FormatCost(c.Margin))
	}
	if c.MinTicks != 0 {
		parts = append(parts, fmt.Sprintf("min_ticks %d (%d ticks on the goal)", c.MinTicks, c.OnGoal))
	}
	if len(c.Exempt) > 0 {
		parts = append(parts, "exempt "+strings.Join(c.Exempt, ", "))
	}
	if c.FinishAction {
		step := "no step under way"
		if c.Acting {
			step = "a step under way"
		}
		parts = append(parts, "finish_action ("+step+")")
	}
	return strings.Join(parts, ", ")
}
