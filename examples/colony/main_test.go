package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/domain"
	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/replay"
)

// short is the tests' game: the default colony, 300 ticks.
var short = options{agents: 200, ticks: 300, seed: 1, workers: 2}

// played returns a colony that has played o's ticks.
func played(t *testing.T, o options) *colony {
	t.Helper()
	c, err := newColony(o, new(bytes.Buffer))
	if err != nil {
		t.Fatal(err)
	}
	c.play()
	return c
}

// goalID returns the index of the file's goal named name.
func goalID(t *testing.T, c *colony, name string) int {
	t.Helper()
	for i, g := range c.domain.Goals() {
		if g.Name() == name {
			return i
		}
	}
	t.Fatalf("no goal %q", name)
	return -1
}

func actionID(t *testing.T, c *colony, name string) int {
	t.Helper()
	id, ok := c.domain.ActionByName(name)
	if !ok {
		t.Fatalf("no action %q", name)
	}
	return int(id)
}

// TestEveryKindResolvesAndActs: each of the three kinds is in the colony,
// resolves chains, finishes steps and pursues several goals, each of its
// own (a worker never drives raiders off, a guard never gathers).
func TestEveryKindResolvesAndActs(t *testing.T) {
	c := played(t, short)
	var resolves, steps [3]int
	for _, s := range c.settlers {
		st := s.agent.Stats()
		resolves[s.kind] += st.Plans
		steps[s.kind] += st.StepsDone
	}
	for k, name := range kindNames {
		st := &c.stats[k]
		goals := 0
		for _, n := range st.chosen {
			if n > 0 {
				goals++
			}
		}
		if st.agents == 0 || resolves[k] < st.agents || steps[k] < st.agents || goals < 3 {
			t.Errorf("%s: %d agents, %d resolves, %d steps, %d goals pursued; want every agent resolving and acting, 3 goals or more", name, st.agents, resolves[k], steps[k], goals)
		}
	}
	if n := c.stats[worker].chosen[goalID(t, c, "RaidersGone")]; n != 0 {
		t.Errorf("workers pursued RaidersGone %d times: it is not among their goals", n)
	}
	for _, a := range []string{"ChopWood", "PickBerries", "Hunt"} {
		if n := c.stats[guard].done[actionID(t, c, a)]; n != 0 {
			t.Errorf("guards did %s %d times: they cannot", a, n)
		}
	}
	if c.stats[hunter].done[actionID(t, c, "Hunt")] == 0 || c.stats[worker].done[actionID(t, c, "ChopWood")] == 0 || c.stats[guard].done[actionID(t, c, "KeepWatch")] == 0 {
		t.Error("a kind never did its own work (hunters Hunt, workers ChopWood, guards KeepWatch)")
	}
}

// TestSitesRunOutAndRegrow: some site is emptied by the settlers, is then
// no target (the sensor finds none there), and grows back.
func TestSitesRunOutAndRegrow(t *testing.T) {
	c, err := newColony(short, new(bytes.Buffer))
	if err != nil {
		t.Fatal(err)
	}
	sites := append(append(append([]*site(nil), c.groves...), c.patches...), c.wells...)
	wasEmpty := make([]bool, len(sites))
	regrown := 0
	for range short.ticks {
		c.step()
		for i, st := range sites {
			if st.amount == 0 {
				wasEmpty[i] = true
			} else if wasEmpty[i] && st.amount >= st.load {
				regrown++
				wasEmpty[i] = false
			}
		}
	}
	if regrown == 0 {
		t.Fatalf("no site ran out and grew back to a load in %d ticks", short.ticks)
	}
	// An empty grove is no target: with every grove empty, a worker's
	// sensor finds no trees.
	for _, g := range c.groves {
		g.amount = 0
	}
	w := c.settlers[0]
	if w.kind != worker {
		t.Fatalf("settler 0 is a %s", kindNames[w.kind])
	}
	if where := c.targetSensors(w, nil)["trees"](w.agent); where.Found {
		t.Errorf("trees found at %v with every grove empty", where.At)
	}
}

// TestNeedsChangeGoals: when every settler is suddenly starving, nearly
// all turn to Fed within a few ticks, of every kind, when goal choice has
// no commitment; with the file's, fewer within the few, and every one
// once min_ticks and the running step let it.
func TestNeedsChangeGoals(t *testing.T) {
	starve := func(o options, ticks int) (pursued int, c *colony, before [3]int) {
		c = played(t, o)
		fed := goalID(t, c, "Fed")
		for k := range before {
			before[k] = c.stats[k].chosen[fed]
		}
		c.raiders.next = 1 << 30 // no raid to get in the way
		for _, s := range c.settlers {
			s.hunger = 95
		}
		turned := make([]bool, len(c.settlers))
		for range ticks {
			c.step()
			for i, s := range c.settlers {
				if g := s.agent.Goal(); g != nil && g.Name() == "Fed" {
					turned[i] = true
				}
			}
		}
		for _, p := range turned {
			if p {
				pursued++
			}
		}
		return pursued, c, before
	}
	free := options{agents: 200, ticks: 100, seed: 2, workers: 2, noCommitment: true}
	pursued, c, before := starve(free, 20)
	if pursued < len(c.settlers)*9/10 {
		t.Errorf("without commitment, %d of %d starving settlers pursued Fed within 20 ticks", pursued, len(c.settlers))
	}
	fed := goalID(t, c, "Fed")
	for k, name := range kindNames {
		if c.stats[k].chosen[fed] == before[k] {
			t.Errorf("no %s turned to Fed when starving", name)
		}
	}
	committed := free
	committed.noCommitment = false
	if soon, _, _ := starve(committed, 20); soon >= pursued {
		t.Errorf("with the file's commitment, %d starving settlers pursued Fed within 20 ticks, as many as the %d without: it holds no goal", soon, pursued)
	}
	// A goal is kept 60 ticks at most by min_ticks, and by finish_action
	// until the running step ends, which the game's step timeout (200
	// ticks) bounds: by then, every one.
	if all, c, _ := starve(committed, 205); all != len(c.settlers) {
		t.Errorf("with the file's commitment, %d of %d starving settlers pursued Fed within 205 ticks", all, len(c.settlers))
	}
}

// TestNeedsDrift: every settler's hunger, thirst and fatigue grow by
// themselves, each at the settler's own rate (hunger every 4 to 6 ticks,
// thirst 3 to 5, fatigue 5 to 7), and the rates differ among settlers.
func TestNeedsDrift(t *testing.T) {
	c, err := newColony(short, new(bytes.Buffer))
	if err != nil {
		t.Fatal(err)
	}
	const ticks = 120
	needs := func(s *settler) [3]int64 { return [3]int64{s.hunger, s.thirst, s.fatigue} }
	start := make([][3]int64, len(c.settlers))
	for i, s := range c.settlers {
		start[i] = needs(s)
	}
	for range ticks {
		c.tick++
		for _, s := range c.settlers {
			c.drift(s)
		}
	}
	rates := map[[3]int64]bool{}
	for i, s := range c.settlers {
		var grew [3]int64
		for n, v := range needs(s) {
			grew[n] = v - start[i][n]
			slow, fast := []int64{6, 5, 7}[n], []int64{4, 3, 5}[n]
			if grew[n] < ticks/slow || grew[n] > ticks/fast+1 {
				t.Fatalf("%s: need %d grew by %d in %d ticks, want %d to %d", s.name, n, grew[n], ticks, ticks/slow, ticks/fast+1)
			}
		}
		rates[grew] = true
	}
	if len(rates) < 5 {
		t.Errorf("%d different rates among %d settlers", len(rates), len(c.settlers))
	}
}

// TestRaidsComeAndGo: left to its seeded schedule, raiders come again and
// again, each raid over (driven off or leaving) within 300 ticks, with a
// quiet spell of at least 300 ticks before the next; another seed brings
// them at other ticks.
func TestRaidsComeAndGo(t *testing.T) {
	arrivals := func(seed uint64) []int {
		c, err := newColony(options{agents: 20, ticks: 3000, seed: seed, workers: 1}, new(bytes.Buffer))
		if err != nil {
			t.Fatal(err)
		}
		var came []int
		was, left := false, 0
		for range c.opts.ticks {
			c.step()
			switch r := &c.raiders; {
			case r.present && !was:
				came = append(came, c.tick)
				if len(came) > 1 && c.tick-left < 300 {
					t.Errorf("seed %d: raiders back at tick %d, %d ticks after the last left", seed, c.tick, c.tick-left)
				}
			case !r.present && was:
				left = c.tick
				if d := c.tick - came[len(came)-1]; d > 300 {
					t.Errorf("seed %d: a raid of %d ticks", seed, d)
				}
			}
			was = c.raiders.present
		}
		if len(came) < 3 || c.raiders.raids != len(came) {
			t.Errorf("seed %d: raids at %v (%d counted) in %d ticks; want 3 or more", seed, came, c.raiders.raids, c.opts.ticks)
		}
		return came
	}
	if a, b := arrivals(1), arrivals(2); fmt.Sprint(a) == fmt.Sprint(b) {
		t.Errorf("seeds 1 and 2 bring raiders at the same ticks %v", a)
	}
}

// TestRaidersChangeBehaviour plays one colony twice from the same seed,
// once with a raid at tick 40 and once with none: only with raiders do
// guards and hunters arm and go for them, and settlers near them grow
// afraid and hide; once they are gone, no one pursues them.
func TestRaidersChangeBehaviour(t *testing.T) {
	const raidAt, ticks = 40, 300
	game := func(raid bool) *colony {
		c, err := newColony(short, new(bytes.Buffer))
		if err != nil {
			t.Fatal(err)
		}
		c.raiders.next = 1 << 30
		if raid {
			c.raiders.next = raidAt
		}
		for c.tick < ticks {
			c.step()
			if c.raiders.raids > 0 && !c.raiders.present {
				c.raiders.next = 1 << 30 // one raid only
			}
		}
		return c
	}
	calm, quiet := game(false), game(true)
	quiet, raided := calm, quiet
	gone, afraid := goalID(t, raided, "RaidersGone"), goalID(t, raided, "Calm")
	fight, hide := actionID(t, raided, "Fight"), actionID(t, raided, "Hide")
	for k, name := range kindNames {
		q := &quiet.stats[k]
		if q.chosen[gone]+q.chosen[afraid]+q.done[fight]+q.done[hide] != 0 {
			t.Errorf("%s without raiders: RaidersGone %d, Calm %d, Fight %d, Hide %d; want none", name, q.chosen[gone], q.chosen[afraid], q.done[fight], q.done[hide])
		}
	}
	if raided.raiders.raids != 1 || raided.raiders.ticks == 0 {
		t.Fatalf("%d raids over %d ticks, want one", raided.raiders.raids, raided.raiders.ticks)
	}
	g, h := &raided.stats[guard], &raided.stats[hunter]
	if g.chosenRaid[gone] < g.agents || g.chosen[gone] != g.chosenRaid[gone] {
		t.Errorf("guards chose RaidersGone %d times, %d of them with raiders there; want every guard, only then", g.chosen[gone], g.chosenRaid[gone])
	}
	if h.chosenRaid[gone] == 0 {
		t.Error("no hunter went for the raiders")
	}
	// Fear is what raiders bring: settlers near them want calm while
	// they are there, and hide (by the time they reach the refuge the
	// raiders may be gone).
	var afraidThen, hid, fought int
	for k := range raided.stats {
		afraidThen += raided.stats[k].chosenRaid[afraid]
		hid += raided.stats[k].done[hide]
		fought += raided.stats[k].done[fight]
	}
	if afraidThen == 0 || hid == 0 || fought == 0 {
		t.Errorf("with raiders: Calm chosen %d times while they were there, %d hid, %d fights won; want all three", afraidThen, hid, fought)
	}
	// After the raid, no one still pursues it.
	for _, s := range raided.settlers {
		if g := s.agent.Goal(); g != nil && g.Name() == "RaidersGone" {
			t.Errorf("%s still pursues RaidersGone at tick %d, raiders gone since", s.name, raided.tick)
		}
	}
}

// runGame runs the command with args, recording to dir/colony.jsonl, and
// returns its output (the recording line without the path) and the
// recording.
func runGame(t *testing.T, dir string, args ...string) (string, []byte) {
	t.Helper()
	path := filepath.Join(dir, "colony.jsonl")
	var out, errs bytes.Buffer
	if err := run(append(args, "-record", path), &out, &errs); err != nil {
		t.Fatalf("run %v: %v\n%s", args, err, errs.String())
	}
	rec, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.ReplaceAll(out.String(), path, "FILE"), rec
}

// TestDeterministic: the same flags give the same summary and the same
// recording, byte for byte, twice and with one worker or two.
func TestDeterministic(t *testing.T) {
	args := []string{"-agents", "200", "-ticks", "300", "-seed", "7"}
	out1, rec1 := runGame(t, t.TempDir(), append(args, "-workers", "1")...)
	out2, rec2 := runGame(t, t.TempDir(), append(args, "-workers", "2")...)
	again, recAgain := runGame(t, t.TempDir(), append(args, "-workers", "2")...)
	if out1 != out2 || !bytes.Equal(rec1, rec2) {
		t.Errorf("1 and 2 workers differ:\n%s\n%s\n(recordings equal: %v)", out1, out2, bytes.Equal(rec1, rec2))
	}
	// A share of 16 requests a worker: the first frames (200 settlers
	// asking, 50 a frame) run on both workers, the later ones (about 14
	// requests) on one; the game is the same.
	shared, recShared := runGame(t, t.TempDir(), append(args, "-workers", "2", "-min-share", "16")...)
	if shared != out2 || !bytes.Equal(recShared, rec2) {
		t.Errorf("-min-share 16 changes the game:\n%s\n%s\n(recordings equal: %v)", out2, shared, bytes.Equal(rec2, recShared))
	}
	if out2 != again || !bytes.Equal(rec2, recAgain) {
		t.Error("two runs with the same flags differ")
	}
	other, _ := runGame(t, t.TempDir(), "-agents", "200", "-ticks", "300", "-seed", "8")
	if other == out1 {
		t.Error("seeds 7 and 8 give the same game: the seed is not used")
	}
	// Recording changes nothing in the game.
	var plain, errs bytes.Buffer
	if err := run(args, &plain, &errs); err != nil {
		t.Fatal(err, errs.String())
	}
	if want, _, _ := strings.Cut(out1, "recording: "); plain.String() != want {
		t.Errorf("without -record:\n%s\nwith:\n%s", plain.String(), out1)
	}
}

// TestVerbose: the summary alone, some twenty lines, unless -v asks for
// every event.
func TestVerbose(t *testing.T) {
	for _, v := range []bool{false, true} {
		args := []string{"-agents", "20", "-ticks", "50"}
		if v {
			args = append(args, "-v")
		}
		var out, errs bytes.Buffer
		if err := run(args, &out, &errs); err != nil {
			t.Fatal(err)
		}
		lines := strings.Count(out.String(), "\n")
		// With -v the events come first, the summary after them.
		if v != (lines > 100) || strings.HasPrefix(out.String(), "colony: 20 settlers") == v {
			t.Errorf("-v %v: %d lines:\n%.300s", v, lines, out.String())
		}
		if v && !strings.Contains(out.String(), " worker-01 plan_made ") {
			t.Errorf("-v: no plan of worker-01 said:\n%.300s", out.String())
		}
	}
}

// TestRecording: -record writes a header naming the format, the file and
// its hash, and the count, then every decision of the game (none
// dropped), each a resolver agent's of the kind its name says. Decided
// again from the file alone (package replay, as `ploy replay` does: each
// from its recorded snapshot, with the kind's goal options, profile and
// the straight-line distances), every one comes out as it did; against
// the file with hunting made dear, hunters' decisions change and no one
// else's.
func TestRecording(t *testing.T) {
	out, raw := runGame(t, t.TempDir(), "-agents", "200", "-ticks", "300")
	rec, err := agent.ReadRecording(bytes.NewReader(raw), "colony.jsonl", 0)
	if err != nil {
		t.Fatal(err)
	}
	src, _ := fs.ReadFile(domains.Files, "colony.yaml")
	h := rec.Header
	if h.Format != "ploy-decisions" || h.Version != 1 || h.Domain != "colony.yaml" || h.DomainHash != agent.DomainHash(src) || h.Dropped != 0 || h.Decisions < 200 || h.Decisions != len(rec.Decisions) {
		t.Fatalf("header %+v, %d decisions read", h, len(rec.Decisions))
	}
	if !bytes.HasPrefix(raw, []byte(`{"format":"ploy-decisions","version":1,`)) {
		t.Errorf("first line %.60s…", raw)
	}
	if !strings.Contains(out, "recording: "+itoa(h.Decisions)+" decisions (0 dropped) in FILE\n") {
		t.Errorf("output does not say the recording's %d decisions:\n%s", h.Decisions, out)
	}
	chains := 0
	for i, d := range rec.Decisions {
		if kind, _, _ := strings.Cut(d.Agent, "-"); d.Kind != "resolver" || d.AgentKind != kind {
			t.Fatalf("decision %d: agent %q of kind %q, file kind %q", i, d.Agent, d.Kind, d.AgentKind)
		}
		if len(d.Plan) > 0 {
			chains++
		}
	}
	if chains < len(rec.Decisions)/2 {
		t.Errorf("%d of %d decisions have a chain", chains, len(rec.Decisions))
	}

	f, err := domain.Parse("colony.yaml", src)
	if err != nil {
		t.Fatal(err)
	}
	same := replay.New(replay.FromFile(f)).Run(rec.Decisions, 3)
	for _, c := range same.Changes {
		t.Errorf("decision %d (tick %d, %s) came out otherwise (%v): recorded %+v, now %+v", c.Index, c.Tick, c.Agent, c.What, c.Before, c.After)
	}
	if same.Changed != 0 || same.Decisions != len(rec.Decisions) {
		t.Errorf("%d of %d decisions came out otherwise", same.Changed, same.Decisions)
	}
	// The kinds' commitment is in the records, and some decisions are
	// commitment keeping a goal: without the recorded commitment, a
	// replay decides some of them otherwise.
	kept, committed := 0, 0
	bare := make([]agent.Decision, len(rec.Decisions))
	for i, d := range rec.Decisions {
		if d.Commitment.MinTicks == 60 {
			committed++
		}
		if d.Decided == "goal" && d.Reason == agent.ReasonCommitment {
			kept++
		}
		bare[i] = d
		bare[i].Commitment = agent.DecisionCommitment{}
	}
	if kept == 0 || committed < len(rec.Decisions)*9/10 {
		t.Errorf("%d decisions of commitment keeping a goal, %d of %d recording the kinds' commitment", kept, committed, len(rec.Decisions))
	}
	if without := replay.New(replay.FromFile(f)).Run(bare, 0); without.Changed == 0 {
		t.Error("without their recorded commitment, no decision comes out otherwise: the replay does not test it")
	}

	dear := strings.Replace(string(src), "costs: {Hunt: 2,", "costs: {Hunt: 20,", 1)
	if dear == string(src) {
		t.Fatal("the hunter's Hunt cost is not in the file as the test expects")
	}
	edited, err := domain.Parse("edited.yaml", []byte(dear))
	if err != nil {
		t.Fatal(err)
	}
	what := replay.New(replay.FromFile(edited)).Run(rec.Decisions, -1)
	if what.Changed == 0 {
		t.Error("hunting at 20 changes no decision")
	}
	for _, c := range what.Changes {
		if !strings.HasPrefix(c.Agent, "hunter-") {
			t.Errorf("decision %d of %s changed; only hunters hunt", c.Index, c.Agent)
		}
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestMinShareReachesTheQueue: -min-share is the queue's share
// (agent.Queue.SetMinShare); without it, the default 1.
func TestMinShareReachesTheQueue(t *testing.T) {
	for _, c := range []struct{ set, want int }{{0, 1}, {1, 1}, {64, 64}} {
		col, err := newColony(options{agents: 3, seed: 1, workers: 2, minShare: c.set}, new(bytes.Buffer))
		if err != nil {
			t.Fatal(err)
		}
		if got := col.queue.MinShare(); got != c.want {
			t.Errorf("-min-share %d: the queue's share is %d, want %d", c.set, got, c.want)
		}
	}
}

// TestFlags: bad flags are usage errors, said on stderr; nothing is
// played.
func TestFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-agents", "0"}, {"-agents", "100001"}, {"-ticks", "-1"}, {"-workers", "0"}, {"-workers", "257"}, {"-min-share", "0"}, {"-min-share", "100001"},
		{"-seed", "x"}, {"-nope"}, {"extra"},
	} {
		var out, errs bytes.Buffer
		err := run(args, &out, &errs)
		var usage usageError
		if !errors.As(err, &usage) || errs.Len() == 0 || out.Len() != 0 {
			t.Errorf("%v: error %v, stderr %q, stdout %q; want a usage error said on stderr", args, err, errs.String(), out.String())
		}
	}
	var out, errs bytes.Buffer
	if err := run([]string{"-agents", "3", "-ticks", "5", "-record", filepath.Join(t.TempDir(), "no", "such", "dir.jsonl")}, &out, &errs); err == nil {
		t.Error("a recording to a directory that does not exist: no error")
	}
}

// TestCommitmentFlag: the file's commitment keeps settlers on their goals
// (fewer goals left unmet, fewer goal changes, for every kind, in the
// same game), and -commitment=false plays without it, as the summary
// says.
func TestCommitmentFlag(t *testing.T) {
	o := options{agents: 200, ticks: 1000, seed: 1, workers: 2}
	with := played(t, o)
	o.noCommitment = true
	without := played(t, o)
	for k, name := range kindNames {
		w, wo := with.stats[k], without.stats[k]
		if w.dropped >= wo.dropped || w.goalChanges >= wo.goalChanges {
			t.Errorf("%s: %d goals left unmet and %d goal changes with commitment, %d and %d without", name, w.dropped, w.goalChanges, wo.dropped, wo.goalChanges)
		}
	}
	var sb strings.Builder
	without.summary(&sb)
	if !strings.Contains(sb.String(), "; commitment: none (-commitment=false)\n") {
		t.Errorf("the summary without commitment does not say so:\n%s", sb.String())
	}
}
