package host

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/ploy-ai/ploy/internal/report"
	"github.com/ploy-ai/ploy/pddl"
	"github.com/ploy-ai/ploy/search"
	"github.com/ploy-ai/ploy/strips"
)

// pddlTask is a PDDL domain and problem, parsed, checked and grounded
// once at load.
type pddlTask struct {
	g *pddl.Grounding
}

// Limits of a PDDL plan call: a game or page that plans a PDDL problem
// shares its process, so the search holds what a server's does, not the
// command's gigabytes.
const (
	// MaxPDDLBytes is the memory one PDDL search may hold.
	MaxPDDLBytes = 256 << 20
	// DefaultPDDLBudget is a PDDL search's states expanded when the
	// request sets no budget, and the most it may set.
	DefaultPDDLBudget = 1_000_000
	// MaxPDDLWork is a PDDL search's counted work (strips.Options'
	// Limits.MaxWork: a unit per state expanded and successor made, and
	// per 32 steps of the estimates) when the request sets none, and the
	// most it may set. The states' budget alone does not bound the time:
	// a 400-byte problem whose states have 380 successors each took over
	// two minutes to expand its million (TestPDDLWorkBounded's problem);
	// at this bound it ends in 1.8 s (blind) to 5.0 s (the portfolio,
	// whose two searches have it each) on a two-core machine at load 5.
	MaxPDDLWork = 1 << 25
)

// LoadPDDL parses, checks and grounds a PDDL domain and problem (their
// errors are pddl.ErrorLists, positioned in the names given) and holds
// the task. Call answers "plan" on it.
func LoadPDDL(domainSrc []byte, domainName string, problemSrc []byte, problemName string) (h Handle, err error) {
	defer protect(&err)
	if domainName == "" {
		domainName = "<domain>"
	}
	if problemName == "" {
		problemName = "<problem>"
	}
	for _, name := range []string{domainName, problemName} {
		if err := checkName("a file's name", name); err != nil {
			return 0, err
		}
	}
	for _, f := range []struct {
		name string
		src  []byte
	}{{domainName, domainSrc}, {problemName, problemSrc}} {
		if err := PDDLTooLarge(f.name, uint64(len(f.src))); err != nil {
			return 0, err
		}
	}
	d, err := pddl.ParseDomain(domainName, domainSrc)
	if err != nil {
		return 0, err
	}
	p, err := pddl.ParseProblem(problemName, problemSrc)
	if err != nil {
		return 0, err
	}
	if err := p.Check(d); err != nil {
		return 0, err
	}
	g, err := pddl.Ground(d, p)
	if err != nil {
		return 0, err
	}
	return hold(&Domain{pddl: &pddlTask{g: g}})
}

// PDDLTooLarge is LoadPDDL's error for a PDDL file of size bytes named
// name, or nil if LoadPDDL takes that size.
func PDDLTooLarge(name string, size uint64) error {
	if size > pddl.MaxSize {
		return fmt.Errorf("%s: the file is %d bytes, more than the %d a PDDL file may have", name, size, pddl.MaxSize)
	}
	return nil
}

// pddlRequest is a PDDL plan call's request: `ploy plan`'s flags on a
// PDDL problem (--heuristic, --budget, --max-work).
type pddlRequest struct {
	Heuristic string `json:"heuristic"`
	Budget    int64  `json:"budget"`
	Work      int64  `json:"work"`
}

func (t *pddlTask) call(method string, request []byte) (int, []byte) {
	if method != "plan" {
		return http.StatusNotFound, errorJSON(http.StatusNotFound, fmt.Sprintf("unknown method %q on a PDDL domain: it answers plan", method))
	}
	var q pddlRequest
	if len(bytes.TrimSpace(request)) > 0 {
		dec := json.NewDecoder(bytes.NewReader(request))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&q); err != nil {
			return http.StatusBadRequest, errorJSON(http.StatusBadRequest, "malformed request: "+strings.TrimPrefix(err.Error(), "json: "))
		}
	}
	opt := strips.Options{Heuristic: strips.Portfolio} // ploy plan's default
	if q.Heuristic != "" {
		h, err := strips.ParseHeuristic(q.Heuristic)
		if err != nil {
			return http.StatusBadRequest, fieldError("heuristic", http.StatusBadRequest, fmt.Sprintf("heuristic must be portfolio, lmcut, hmax or blind, not %q", q.Heuristic))
		}
		opt.Heuristic = h
	}
	switch {
	case q.Budget < 0 || q.Budget > DefaultPDDLBudget:
		return http.StatusBadRequest, fieldError("budget", http.StatusBadRequest, fmt.Sprintf("budget must be from 1 to %d, not %d", DefaultPDDLBudget, q.Budget))
	case q.Budget == 0:
		q.Budget = DefaultPDDLBudget
	}
	switch {
	case q.Work < 0 || q.Work > MaxPDDLWork:
		return http.StatusBadRequest, fieldError("work", http.StatusBadRequest, fmt.Sprintf("work must be from 1 to %d, not %d", MaxPDDLWork, q.Work))
	case q.Work == 0:
		q.Work = MaxPDDLWork
	}
	opt.Limits = search.Limits{Budget: q.Budget, MaxBytes: MaxPDDLBytes, MaxWork: q.Work}
	res, err := strips.Search(t.g.Task, opt)
	if err != nil && res.Status != strips.LimitReached {
		return http.StatusUnprocessableEntity, errorJSON(http.StatusUnprocessableEntity, err.Error())
	}
	b, err := json.Marshal(report.PDDLPlan(t.g.Task, res))
	if err != nil {
		return http.StatusInternalServerError, errorJSON(http.StatusInternalServerError, err.Error())
	}
	return http.StatusOK, append(b, '\n')
}

// errorJSON is an error answer as the JSON API sends it, with its status.
func errorJSON(status int, message string) []byte { return fieldError("", status, message) }

// fieldError is an error answer naming the request field at fault, if
// any (the API's "field").
func fieldError(field string, status int, message string) []byte {
	b, _ := json.Marshal(struct {
		Error  string `json:"error"`
		Field  string `json:"field,omitempty"`
		Status int    `json:"status"`
	}{message, field, status})
	return append(b, '\n')
}

// withStatus adds "status" to an error object the API made.
func withStatus(answer []byte, status int) []byte {
	body := bytes.TrimRight(answer, "\n")
	if !bytes.HasSuffix(body, []byte("}")) {
		return answer
	}
	out := append([]byte(nil), body[:len(body)-1]...)
	out = append(out, `,"status":`...)
	out = strconv.AppendInt(out, int64(status), 10)
	return append(out, "}\n"...)
}
