package agent

import (
	"fmt"

	"github.com/ploy-ai/ploy/htn"
)

// htnLeaf is a tree's PlanHTN leaf.
type htnLeaf struct {
	name     string
	task     htn.Task
	resolved bool
	waiting  bool // its request is in the agent's queue
	retryAt  int  // after no decomposition, the tick from which it tries again
}

// PlanHTN is a leaf that decomposes the compound task named task with the
// agent's HTN (Config.HTN) and runs the plan: it succeeds when the plan is
// done (at once for an empty one), fails when the task does not decompose,
// and decomposes again when the plan breaks. The HTN counterpart of Plan:
// a tree for the structure, a designer's recipes in a leaf.
func PlanHTN(task string) Node { return &htnLeaf{name: task} }

func (l *htnLeaf) Tick(a *Agent) Status {
	if a.tick < l.retryAt {
		return Failure
	}
	if !l.resolved {
		l.task, _ = a.cfg.HTN.TaskByName(l.name) // checked by New
		l.resolved = true
	}
	if l.waiting {
		// The queue has answered (the agent does not tick its tree while
		// a request is pending).
		l.waiting = false
		if st, settled := l.settle(a); settled {
			return st
		}
	} else if a.leaf != l || a.plan == nil || a.wantPlan != "" {
		reason := a.wantPlan
		if reason == "" {
			reason = ReasonStart
		}
		a.wantPlan = ""
		a.dropPlan()
		a.goal, a.leaf = nil, l
		a.request(request{kind: planRequest, reason: reason, task: l.task, byTask: true})
		if a.pending {
			l.waiting = true
			return Running
		}
		if st, settled := l.settle(a); settled {
			return st
		}
	}
	a.execute()
	if a.plan == nil && a.done {
		a.leaf = nil
		return Success
	}
	return Running // a broken plan is decomposed again on the next tick
}

// settle judges a decomposition's answer: an empty plan succeeds at once,
// none fails until the retry; otherwise the plan runs.
func (l *htnLeaf) settle(a *Agent) (Status, bool) {
	if a.plan != nil {
		return Running, false
	}
	a.leaf = nil
	if a.idle {
		return Success, true
	}
	l.retryAt = a.tick + max(a.cfg.RetryAfter, 1)
	return Failure, true
}

func (l *htnLeaf) Halt(a *Agent) {
	l.waiting = false
	if a.leaf == l {
		a.dropPlan()
		a.leaf = nil
	}
}

// checkHTNLeaves checks that every PlanHTN leaf of a tree names a compound
// task of h, the agent's HTN.
func checkHTNLeaves(n Node, h *htn.Domain) error {
	switch n := n.(type) {
	case *htnLeaf:
		if h == nil {
			return fmt.Errorf("the tree's PlanHTN(%q) needs the agent's HTN (Config.HTN)", n.name)
		}
		if t, ok := h.TaskByName(n.name); !ok || t.IsPrimitive() {
			return fmt.Errorf("the tree's PlanHTN(%q) names no compound task of the agent's HTN", n.name)
		}
	case *sequence:
		for _, c := range n.children {
			if err := checkHTNLeaves(c, h); err != nil {
				return err
			}
		}
	case *selector:
		for _, c := range n.children {
			if err := checkHTNLeaves(c, h); err != nil {
				return err
			}
		}
	}
	return nil
}
