// Package report builds the JSON answers of ploy's commands: the bytes of
// `ploy plan --json`, `ploy trace --format json` and the others, shared by
// the command (cmd/ploy/cli) and the web API (package viewer), so that both
// answer the same question with the same bytes.
package report

import (
	"github.com/ploy-ai/ploy/internal/costfmt"
	"strings"

	"github.com/ploy-ai/ploy/domain"
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/htn"
)

// FormatCost writes a cost as every text output of ploy does
// (costfmt.Cost: two decimals at most, whole numbers bare); JSON keeps
// the full float64.
func FormatCost(c float64) string { return costfmt.Cost(c) }

// Plan is the contract of `ploy plan --json`.
type Plan struct {
	Status    string   `json:"status"`
	Plan      []string `json:"plan"`
	Cost      float64  `json:"cost"`
	Expanded  int      `json:"expanded"`
	Generated int      `json:"generated"`
	// Bound names the limit that ended a budget_exhausted search: "states",
	// "bytes" or "work" (absent otherwise).
	Bound string `json:"bound,omitempty"`
}

// PlanOf is res as `ploy plan --json` prints it.
func PlanOf(d *goap.Domain, res goap.Result) Plan {
	out := Plan{Status: goap.StatusName(res.Status, res.Bound), Plan: []string{}, Cost: res.Cost, Expanded: res.Expanded, Generated: res.Generated}
	if res.Status == goap.LimitReached && res.Bound != goap.BoundDepth {
		out.Bound = BoundName(res.Bound)
	}
	for _, a := range res.Plan {
		out.Plan = append(out.Plan, d.ActionName(a))
	}
	return out
}

// HTN is the contract of `ploy htn --json`.
type HTN struct {
	Status     string   `json:"status"`
	Plan       []string `json:"plan"`
	MTR        []int32  `json:"mtr"`
	Steps      int      `json:"steps"`
	Backtracks int      `json:"backtracks"`
	// Limit, when a limit stopped the decomposition, says where and why.
	Limit string `json:"limit,omitempty"`
}

// HTNOf is res as `ploy htn --json` prints it.
func HTNOf(g *goap.Domain, res *htn.Result) HTN {
	out := HTN{Status: htn.StatusName(res.Status, res.Bound), Plan: []string{}, MTR: append([]int32{}, res.MTR...), Steps: res.Steps, Backtracks: res.Backtracks}
	for _, a := range res.Plan {
		out.Plan = append(out.Plan, g.ActionName(a))
	}
	return out
}

// Lint is the answer of the lint endpoint: the warnings `ploy lint`
// prints, at most domain.MaxErrors of them, and how many there are.
type Lint struct {
	File     string        `json:"file"`
	Warnings []LintWarning `json:"warnings"`
	Count    int           `json:"count"`
}

// LintWarning is one warning at its position (line and column 1-based,
// absent when the warning has none).
type LintWarning struct {
	File    string `json:"file"`
	Line    int    `json:"line,omitempty"`
	Column  int    `json:"column,omitempty"`
	Message string `json:"message"`
}

// LintOf is the warnings of the file at path.
func LintOf(path string, warnings domain.ErrorList) Lint {
	out := Lint{File: path, Warnings: []LintWarning{}, Count: len(warnings)}
	for _, w := range warnings[:min(len(warnings), domain.MaxErrors)] {
		out.Warnings = append(out.Warnings, LintWarning{File: w.File, Line: w.Pos.Line, Column: w.Pos.Col, Message: w.Msg})
	}
	return out
}

// internalPrefixes are the library packages' error prefixes: useful in a
// program's log, noise to a person running the command.
var internalPrefixes = []string{"goap: ", "htn: ", "domain: ", "agent: ", "arena: ", "resolver: "}

// ErrorText is err's message for a person: without the library packages'
// prefixes, at its start or after another message's colon.
func ErrorText(err error) string {
	if err == nil {
		return "no error"
	}
	msg := err.Error()
	for _, p := range internalPrefixes {
		msg = strings.ReplaceAll(msg, ": "+p, ": ")
	}
	for trimmed := true; trimmed; {
		trimmed = false
		for _, p := range internalPrefixes {
			if rest, ok := strings.CutPrefix(msg, p); ok {
				msg, trimmed = rest, true
			}
		}
	}
	return msg
}

// BoundName is a GOAP search's bound as the JSON names it: "states" for
// the node budget (the JSON's name since before the shared search.Bound,
// whose String is "budget"), the bound's own name otherwise.
func BoundName(b goap.Bound) string {
	if b == goap.BoundStates {
		return "states"
	}
	return b.String()
}
