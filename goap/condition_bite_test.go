package goap_test

import (
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/domains"
)

// TestConditionWithOneUnknownFact: a condition naming one unknown fact is
// refused, naming it (a mutant that lived let a single error through).
func TestConditionWithOneUnknownFact(t *testing.T) {
	d := mustDomain(t, domains.BattleMage())
	if _, err := d.Condition(map[string]bool{"in_rnage": true}); err == nil || !strings.Contains(err.Error(), `unknown fact "in_rnage"`) {
		t.Errorf("Condition: %v, want the unknown fact named", err)
	}
	if g, err := d.NewGoal("G", map[string]bool{"in_rnage": true, "in_range": true}); g != nil || err == nil {
		t.Errorf("NewGoal: %v, %v; want an error", g, err)
	}
	if _, err := d.Condition(map[string]bool{"in_range": true}); err != nil {
		t.Errorf("a known fact: %v", err)
	}
}
