package host_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/ploy-ai/ploy/bindings/host"
)

// survivorCamp is an engine driving a world of survivors, as a game
// would: it walks each one a unit a frame towards the destination it
// names and, when an action succeeds, pushes the keys the action
// changes. Everything it does follows from what the agents ask, so a
// camp whose plans come later does the same things later.
type survivorCamp struct {
	t      *testing.T
	w      host.Handle
	agents []host.Handle
	at     [][2]float64
	keys   []map[string]float64
	events [][]json.RawMessage // each agent's events, their tick dropped
}

// newSurvivorCamp adds n agents of survivor.yaml's two kinds to world
// w, each cold and hungry to its own degree and standing in its own
// place, so that their searches differ.
func newSurvivorCamp(t *testing.T, w host.Handle, n int) *survivorCamp {
	c := &survivorCamp{t: t, w: w}
	for i := range n {
		kind := "survivor"
		if i%3 == 2 {
			kind = "wounded"
		}
		a := newAgent(t, w, kind, fmt.Sprintf("s%d", i))
		at := [2]float64{float64(i%7 - 3), float64(i%5 - 2)}
		keys := map[string]float64{"warmth": float64(10 + i%40), "hunger": float64(40 + i%55)}
		for _, k := range []string{"warmth", "hunger"} {
			if err := host.Set(a, k, keys[k]); err != nil {
				t.Fatal(err)
			}
		}
		if err := host.SetPosition(a, at[0], at[1]); err != nil {
			t.Fatal(err)
		}
		c.agents = append(c.agents, a)
		c.at = append(c.at, at)
		c.keys = append(c.keys, keys)
		c.events = append(c.events, nil)
	}
	return c
}

// frame runs one frame of the world and the engine's answers to it, and
// returns the plans the frame made and what it did.
func (c *survivorCamp) frame() (int, host.FrameStatsJSON) {
	t := c.t
	t.Helper()
	made, err := host.Frame(c.w)
	if err != nil {
		t.Fatal(err)
	}
	var st host.FrameStatsJSON
	if b, err := host.FrameStats(c.w); err != nil {
		t.Fatal(err)
	} else if err := json.Unmarshal(b, &st); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	for i, a := range c.agents {
		c.act(i, a)
		for _, e := range events(t, a) {
			delete(e, "tick") // the frame it happened in, which a slice may delay
			line, _ := json.Marshal(e)
			c.events[i] = append(c.events[i], line)
		}
	}
	return made, st
}

// events returns the events agent a has had since it was last asked.
func events(t *testing.T, a host.Handle) []map[string]any {
	t.Helper()
	b, err := host.Events(a)
	if err != nil {
		t.Fatal(err)
	}
	var got struct{ Events []map[string]any }
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	return got.Events
}

func (c *survivorCamp) act(i int, a host.Handle) {
	t := c.t
	name, doing, err := host.Action(a)
	if err != nil {
		t.Fatal(err)
	}
	keys := c.keys[i]
	push := func(k string, v float64) {
		keys[k] = v
		if err := host.Set(a, k, v); err != nil {
			t.Fatal(err)
		}
	}
	switch doing {
	case host.Walking:
		x, y, _, _ := host.Destination(a)
		dx, dy := x-c.at[i][0], y-c.at[i][1]
		n := max(1, abs(dx)+abs(dy))
		c.at[i] = [2]float64{c.at[i][0] + dx/n, c.at[i][1] + dy/n}
		if err := host.SetPosition(a, c.at[i][0], c.at[i][1]); err != nil {
			t.Fatal(err)
		}
	case host.Acting:
		switch name {
		case "GatherWoodNorth", "GatherWoodSouth":
			push("has_wood", 1)
		case "LightFire":
			push("fire_lit", 1)
			push("has_wood", 0)
		case "WarmUp":
			push("warmth", keys["warmth"]+10)
		case "Forage", "Hunt":
			push("has_food", 1)
		case "Eat":
			push("hunger", max(0, keys["hunger"]-40))
			push("has_food", 0)
		}
		if err := host.Report(a, host.Success); err != nil {
			t.Fatal(err)
		}
	}
}

// TestSlicedWorldMakesTheSamePlans runs the same camp of survivors twice:
// whole searches, and searches sliced to a chain or two a frame. The
// sliced camp makes every plan the whole one makes, in the same order,
// with the same costs and counts (each agent's events, their frame
// aside, are the same), only later; and no frame of it expands more than
// PlansPerFrame × slice chains, though the whole camp's first frame
// does.
func TestSlicedWorldMakesTheSamePlans(t *testing.T) {
	const agents = 300 // more than a frame plans: some wait in line
	d := load(t, "survivor.yaml")

	whole := newSurvivorCamp(t, newWorld(t, d, 2), agents)
	var wholeMade []int
	mostChains := 0
	for range 150 {
		made, st := whole.frame()
		wholeMade = append(wholeMade, made)
		mostChains = max(mostChains, st.Chains)
		if st.Slice != 0 || st.Suspended != 0 {
			t.Fatalf("a world with no slice: %+v", st)
		}
	}

	for _, slice := range []int{1, 2} {
		t.Run(fmt.Sprintf("slice=%d", slice), func(t *testing.T) {
			w := newWorld(t, d, 2)
			if err := host.SetSlice(w, int64(slice)); err != nil {
				t.Fatal(err)
			}
			sliced := newSurvivorCamp(t, w, agents)
			suspended := 0
			var firstMade int
			for f := range 450 {
				made, st := sliced.frame()
				if f == 0 {
					firstMade = made
				}
				if st.Slice != slice {
					t.Fatalf("frame %d: slice %d, set %d", f, st.Slice, slice)
				}
				if bound := host.PlansPerFrame * slice; st.Chains > bound {
					t.Fatalf("frame %d expanded %d chains, past %d × %d: %+v", f, st.Chains, host.PlansPerFrame, slice, st)
				}
				if st.Ended+st.Suspended != st.Taken {
					t.Fatalf("frame %d: %+v", f, st)
				}
				suspended += st.Suspended
			}
			// The bound says something only if a whole frame goes past
			// it, and slicing happened only if searches were suspended.
			if mostChains <= host.PlansPerFrame*slice {
				t.Fatalf("the whole camp's frames expand at most %d chains: no test of a bound of %d", mostChains, host.PlansPerFrame*slice)
			}
			if suspended == 0 || firstMade >= wholeMade[0] {
				t.Fatalf("%d searches suspended; the first frame made %d plans, %d whole", suspended, firstMade, wholeMade[0])
			}
			plans := 0
			for i := range agents {
				a, b := whole.events[i], sliced.events[i]
				n := min(len(a), len(b))
				for j := range n {
					if string(a[j]) != string(b[j]) {
						t.Fatalf("agent s%d's event %d: whole %s, sliced %s", i, j, a[j], b[j])
					}
				}
				for _, e := range b[:n] {
					if strings.Contains(string(e), `"kind":"plan_made"`) {
						plans++
					}
				}
				// The sliced camp ran three times the frames: it must have
				// caught up with all the whole camp did.
				if len(b) < len(a) {
					t.Errorf("agent s%d: %d events sliced, %d whole", i, len(b), len(a))
				}
			}
			if plans < agents {
				t.Fatalf("only %d plans made by %d agents: too few to compare", plans, agents)
			}
			t.Logf("slice %d: %d plans compared, %d suspensions; whole frames up to %d chains", slice, plans, suspended, mostChains)
		})
	}
}

// TestSetSliceErrors: a negative slice, a bad handle and a handle of
// another kind are errors saying so, and leave the world's slice as it
// was; FrameStats says the slice the last frame ran with.
func TestSetSliceErrors(t *testing.T) {
	d := load(t, "survivor.yaml")
	w := newWorld(t, d, 1)
	if err := host.SetSlice(w, 3); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		h     host.Handle
		slice int64
		says  string
	}{
		{w, -1, "slice -1: a slice is 0 (none) or a number of chain expansions"},
		{w, -1 << 63, "slice -9223372036854775808:"},
		{0, 1, "no such handle 0"},
		{d, 1, "is a domain, not a world"},
	} {
		err := host.SetSlice(c.h, c.slice)
		if err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("SetSlice(%d, %d): %v, want %q", c.h, c.slice, err, c.says)
		}
	}
	// The stats say the slice the last frame ran with: none before the
	// first, then the 3 the errors left as it was.
	for _, want := range []string{
		`{"slice":0,"taken":0,"ended":0,"suspended":0,"chains":0,"states":0,"steps":0,"workers":0}`,
		`{"slice":3,"taken":0,"ended":0,"suspended":0,"chains":0,"states":0,"steps":0,"workers":1}`,
	} {
		b, err := host.FrameStats(w)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != want {
			t.Errorf("FrameStats: %s, want %s", b, want)
		}
		if _, err := host.Frame(w); err != nil {
			t.Fatal(err)
		}
	}
	// A slice set after a frame is the next frame's, not that one's.
	if err := host.SetSlice(w, 5); err != nil {
		t.Fatal(err)
	}
	if b, _ := host.FrameStats(w); !strings.HasPrefix(string(b), `{"slice":3,`) {
		t.Errorf("FrameStats after SetSlice(5): %s, want the last frame's slice, 3", b)
	}
	if _, err := host.FrameStats(d); err == nil || !strings.Contains(err.Error(), "is a domain, not a world") {
		t.Errorf("FrameStats of a domain: %v", err)
	}
	// A slice past any int is as good as none.
	if err := host.SetSlice(w, 1<<62); err != nil {
		t.Fatal(err)
	}
	host.Release(w)
	if err := host.SetSlice(w, 1); err == nil || !strings.Contains(err.Error(), "no such handle") {
		t.Errorf("SetSlice on a released world: %v", err)
	}
}

// TestSliceWhileFramesRun sets a world's slice and share (SetMinShare)
// and reads its stats from one goroutine while another runs its frames,
// for the race detector: each stats read says the slice its frame ran
// with, one of those set, no more chains than that slice allows and no
// more workers than the world has.
func TestSliceWhileFramesRun(t *testing.T) {
	d := load(t, "survivor.yaml")
	w := newWorld(t, d, 2)
	newSurvivorCamp(t, w, 40)
	var wg sync.WaitGroup
	wg.Go(func() {
		for range 60 {
			if _, err := host.Frame(w); err != nil {
				t.Error(err)
				return
			}
		}
	})
	wg.Go(func() {
		for i := range 200 {
			if err := host.SetSlice(w, int64(1+i%3)); err != nil {
				t.Error(err)
				return
			}
			if err := host.SetMinShare(w, int64(1+i%50)); err != nil {
				t.Error(err)
				return
			}
			b, err := host.FrameStats(w)
			if err != nil {
				t.Error(err)
				return
			}
			var st host.FrameStatsJSON
			if err := json.Unmarshal(b, &st); err != nil {
				t.Error(err)
				return
			}
			if st.Slice < 0 || st.Slice > 3 || (st.Slice > 0 && st.Chains > host.PlansPerFrame*st.Slice) || st.Workers > 2 {
				t.Errorf("stats %s", b)
			}
		}
	})
	wg.Wait()
}

// TestSlicedWorldSlicesDecompositions: a world of battlemage.yaml's HTN
// agents sliced to 2 steps a frame spends at most PlansPerFrame × 2 steps
// a frame (FrameStats' steps), suspends decompositions, and makes each
// agent's first plan, the same plan as a whole world's, some frames later.
func TestSlicedWorldSlicesDecompositions(t *testing.T) {
	const agents = 40
	d := load(t, "battlemage.yaml")
	firstPlans := func(slice int) ([]string, int, int) {
		w := newWorld(t, d, 2)
		if err := host.SetSlice(w, int64(slice)); err != nil {
			t.Fatal(err)
		}
		var as []host.Handle
		for i := range agents {
			as = append(as, newAgent(t, w, "htn", fmt.Sprintf("k%d", i)))
		}
		plans := make([]string, agents)
		steps, suspended := 0, 0
		for f := range 60 {
			if _, err := host.Frame(w); err != nil {
				t.Fatal(err)
			}
			var st host.FrameStatsJSON
			if b, err := host.FrameStats(w); err != nil {
				t.Fatal(err)
			} else if err := json.Unmarshal(b, &st); err != nil {
				t.Fatalf("%s: %v", b, err)
			}
			if slice > 0 && st.Steps > host.PlansPerFrame*slice {
				t.Fatalf("frame %d took %d steps, past %d × %d: %+v", f, st.Steps, host.PlansPerFrame, slice, st)
			}
			steps += st.Steps
			suspended += st.Suspended
			for i, a := range as {
				for _, e := range events(t, a) {
					if e["kind"] == "plan_made" && plans[i] == "" {
						delete(e, "tick")
						line, _ := json.Marshal(e)
						plans[i] = string(line)
					}
				}
			}
		}
		return plans, steps, suspended
	}
	whole, wholeSteps, _ := firstPlans(0)
	sliced, slicedSteps, suspended := firstPlans(2)
	if suspended == 0 || slicedSteps == 0 || wholeSteps == 0 {
		t.Fatalf("%d steps sliced (%d suspensions), %d whole: nothing sliced", slicedSteps, suspended, wholeSteps)
	}
	for i := range agents {
		if whole[i] == "" || sliced[i] != whole[i] {
			t.Fatalf("agent k%d's first plan: sliced %s, whole %s", i, sliced[i], whole[i])
		}
	}
	t.Logf("%d suspensions; %d steps sliced, %d whole; first plan %s", suspended, slicedSteps, wholeSteps, whole[0])
}

// TestSetMinShare: a world's frames run on at most n / share of its
// workers (FrameStats says how many), the camp plays the same whatever
// the share, and a share below 1 or a bad handle is an error that says
// so.
func TestSetMinShare(t *testing.T) {
	d := load(t, "survivor.yaml")
	play := func(share int64) ([]int, [][]json.RawMessage) {
		w := newWorld(t, d, 2)
		if share > 0 {
			if err := host.SetMinShare(w, share); err != nil {
				t.Fatal(err)
			}
		}
		c := newSurvivorCamp(t, w, 40)
		var workers []int
		for range 30 {
			_, st := c.frame()
			workers = append(workers, st.Workers)
		}
		return workers, c.events
	}
	all, want := play(0)
	few, got := play(64)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("a share of 64 changed what the camp did")
	}
	for i := range all {
		// 40 survivors ask at once in the first frame; later frames
		// take fewer.
		if few[i] != 1 {
			t.Errorf("share 64, frame %d: ran on %d workers, want 1", i, few[i])
		}
	}
	if all[0] != 2 {
		t.Errorf("the default share, the first frame of 40 plans: ran on %d workers, want 2", all[0])
	}
	w := newWorld(t, d, 2)
	for _, c := range []struct {
		h     host.Handle
		share int64
		says  string
	}{
		{w, 0, "share 0: a share is at least 1 plan a worker"},
		{w, -1 << 63, "share -9223372036854775808:"},
		{0, 1, "no such handle 0"},
		{d, 1, "is a domain, not a world"},
	} {
		err := host.SetMinShare(c.h, c.share)
		if err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("SetMinShare(%d, %d): %v, want %q", c.h, c.share, err, c.says)
		}
	}
	for _, share := range []int64{1, 2, 1 << 62} { // the least, and one past any frame
		if err := host.SetMinShare(w, share); err != nil {
			t.Errorf("SetMinShare(%d): %v", share, err)
		}
	}
}
