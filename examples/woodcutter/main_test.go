package main

import "testing"

func run(t *testing.T) *Forest {
	t.Helper()
	f, err := NewForest([]float64{10, 14, 30}, 2, 4)
	if err != nil {
		t.Fatal(err)
	}
	for (f.Left() > 0 || anyCarrying(f)) && f.tick < 2000 {
		f.Step()
	}
	return f
}

// TestWoodIsDeliveredAndTreesAreNeverShared checks the ECS module's
// example: all the wood reaches the stockpile, no two woodcutters ever chop
// one tree, a tree taken after planning makes a woodcutter replan, and
// "every tree is occupied" is a no-plan outcome the woodcutters wait out.
func TestWoodIsDeliveredAndTreesAreNeverShared(t *testing.T) {
	f := run(t)
	if f.Stock() != 6 || f.Left() != 0 {
		t.Fatalf("delivered %d, %d left on the trees; want all 6 delivered", f.Stock(), f.Left())
	}
	if f.Violations != 0 {
		t.Errorf("two woodcutters chopped one tree on %d ticks", f.Violations)
	}
	failed, noPlan := 0, 0
	for _, c := range f.cutters {
		s := c.agent.Stats()
		failed += s.ReplanReasons["action failed"]
		noPlan += s.NoPlan
	}
	if failed == 0 || noPlan == 0 {
		t.Errorf("%d replans after a taken tree, %d times no free tree: the example should show both", failed, noPlan)
	}
	if again := run(t); again.Log.String() != f.Log.String() {
		t.Error("the same forest ran differently twice")
	}
}
