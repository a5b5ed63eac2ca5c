package agentfile

import (
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/domain"
	"github.com/ploy-ai/ploy/goap"
)

// TestTreeOfAnotherDomainIsRefused: a file's tree names actions by their
// index in the file's domain; given a smaller domain, an index past its
// last action, in an action leaf or a utility option, is an error rather
// than a panic, and the last action itself is accepted.
func TestTreeOfAnotherDomainIsRefused(t *testing.T) {
	d, err := goap.NewDomain(goap.Spec{Name: "small", Facts: []string{"a"}, Actions: []goap.ActionSpec{
		{Name: "First", Effects: map[string]bool{"a": true}, Cost: goap.Const(1)},
		{Name: "Last", Effects: map[string]bool{"a": false}, Cost: goap.Const(1)},
	}})
	if err != nil {
		t.Fatal(err)
	}
	noInputs := func(*agent.Agent) []float64 { return nil }
	for _, c := range []struct {
		node *domain.Node
		ok   bool
	}{
		{&domain.Node{Kind: domain.Act, Action: 1}, true},
		{&domain.Node{Kind: domain.Act, Action: 2}, false},
		{&domain.Node{Kind: domain.UtilitySelector, Options: []domain.UtilityOption{{Action: 0}, {Action: 1}}}, true},
		{&domain.Node{Kind: domain.UtilitySelector, Options: []domain.UtilityOption{{Action: 0}, {Action: 2}}}, false},
	} {
		_, err := treeOf(d, c.node, noInputs)
		if c.ok && err != nil {
			t.Errorf("%+v: %v", c.node, err)
		}
		if !c.ok && (err == nil || !strings.Contains(err.Error(), "action 2 is not in domain small")) {
			t.Errorf("%+v: %v, want action 2 refused", c.node, err)
		}
	}
}
