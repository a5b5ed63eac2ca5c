package replay_test

import (
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/internal/testkit/camp"
	"github.com/ploy-ai/ploy/replay"
)

// TestAttackWhatIfOfEditsThatChangeNothing: edits that change nothing a
// search or goal choice reads (comments, a mapping's keys in another
// order, the keys: declared in another order, the unused initial world)
// change no decision of a camp recorded on a queue; an edit that should
// (Forage half a minute dearer) changes some, and only foraging ones.
func TestAttackWhatIfOfEditsThatChangeNothing(t *testing.T) {
	rec := recording(t, camp.Options{Agents: 10, Ticks: 200, Workers: 2})
	for _, tc := range []struct {
		name string
		edit func(string) string
	}{
		{"comments", func(s string) string {
			return strings.ReplaceAll(s, "\n  - name: ", "\n  # a designer's note\n  - name: ")
		}},
		{"mapping order", func(s string) string {
			return strings.Replace(s, "    effects: {has_food: true}\n    cost: 3\n    target: berries\n", "    target: berries\n    cost: 3\n    effects: {has_food: true}\n", 1)
		}},
		{"keys order", func(s string) string {
			return strings.Replace(s, "keys: {warmth: int, hunger: int, has_wood: bool, fire_lit: bool, has_food: bool}", "keys: {has_food: bool, fire_lit: bool, hunger: int, warmth: int, has_wood: bool}", 1)
		}},
		{"initial world", func(s string) string {
			return strings.Replace(s, "initial: {warmth: 20, hunger: 70}", "initial: {warmth: 90, hunger: 5, has_food: true}", 1)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := replay.New(replay.FromFile(survivorFile(t, tc.edit))).Run(rec.Decisions, 5)
			for _, c := range rep.Changes {
				t.Errorf("decision %d (tick %d, %s) changed (%v): %+v → %+v", c.Index, c.Tick, c.Agent, c.What, c.Before, c.After)
			}
		})
	}
	t.Run("forage dearer by half a minute", func(t *testing.T) {
		rep := replay.New(replay.FromFile(survivorFile(t, func(s string) string {
			return strings.Replace(s, "    cost: 3\n    target: berries", "    cost: 3.5\n    target: berries", 1)
		}))).Run(rec.Decisions, -1)
		if rep.Changed == 0 {
			t.Fatal("no decision changed")
		}
		for _, c := range rep.Changes {
			if !strings.Contains(strings.Join(c.Before.Plan, ",")+strings.Join(c.After.Plan, ","), "Forage") {
				t.Errorf("decision %d changed, and neither plan forages: %v → %v", c.Index, c.Before.Plan, c.After.Plan)
			}
		}
	})
}
