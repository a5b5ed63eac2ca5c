package ctest_test

import (
	"bufio"
	"bytes"
	"io/fs"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/agent/agentfile"
	"github.com/ploy-ai/ploy/bindings/host"
	"github.com/ploy-ai/ploy/domain"
	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/goap"
)

// The benchmarks set the same work three ways: in Go with ploy's packages
// (go), through package host as the C library calls it but from Go, with
// no C boundary (host), and from a C program through libploy.so
// (c, testdata/bench.c). c minus host is what the boundary costs: cgo's
// call, the C strings copied in and the answers copied out.
//
//	go test -run '^$' -bench . -count 6 ./bindings/c/ctest
//
// The c benchmarks run the C program once per b.N the harness tries,
// for at least 5 000 plans or 300 frames whatever b.N says, time the loop
// inside the program and report that as ns/op (the program's start and
// the library's load are not counted; the iteration count the harness
// prints is its b.N, not the program's). They report no allocations:
// the library's happen in another process.

var benchFacts = []string{"in_range", "in_cover", "staff_charged", "spare_crystals", "carrying_potion", "potion_at_shrine", "healthy", "enemy_dead"}

// warmUp is the frames run before the timing starts: every mage has
// planned, acted and filled its events by then.
const warmUp = 100

var benchKinds = []string{"goap", "htn", "htn-break", "bt", "utility"}

func battlemage(b *testing.B) []byte {
	b.Helper()
	src, err := fs.ReadFile(domains.Files, "battlemage.yaml")
	if err != nil {
		b.Fatal(err)
	}
	return src
}

// BenchmarkPlanKill plans the battle mage's Kill from the file's initial
// facts (cost 7). go: goap.Planner.Plan, warm. host: host.Call("plan",
// `{"goal":"Kill"}`), the JSON API's plan (the request decoded, the
// goal's planner run with the API's limits, the answer encoded). c: the
// same through ploy_call from C, the answer freed with ploy_free.
func BenchmarkPlanKill(b *testing.B) {
	src := battlemage(b)
	b.Run("go", func(b *testing.B) {
		f, err := domain.Parse("battlemage.yaml", src)
		if err != nil {
			b.Fatal(err)
		}
		d := f.GOAP
		p := goap.NewPlanner(d)
		start, goal := d.Initial(), d.Goal("Kill")
		plan := make([]goap.ActionID, 0, 16)
		b.ReportAllocs()
		for b.Loop() {
			res, err := p.Plan(plan[:0], start, goal, goap.Options{})
			if err != nil || res.Cost != 7 {
				b.Fatalf("%+v %v", res, err)
			}
		}
	})
	b.Run("host", func(b *testing.B) {
		d, err := host.Load(src, "battlemage.yaml")
		if err != nil {
			b.Fatal(err)
		}
		defer host.Release(d)
		req := []byte(`{"goal":"Kill"}`)
		b.ReportAllocs()
		for b.Loop() {
			if ans := host.Call(d, "plan", req); !bytes.Contains(ans, []byte(`"cost":7`)) {
				b.Fatalf("%s", ans)
			}
		}
	})
	b.Run("c", func(b *testing.B) {
		m := runBench(b, "plan", max(b.N, 5000))
		b.ReportMetric(m["plan_ns"], "ns/op")
	})
}

// BenchmarkFrame1000 is one frame of 1 000 battle mages, 200 of each of
// the file's five kinds, on a queue of 2 workers resolving up to
// host.PlansPerFrame plans a frame, in the same tiny arena each way
// (testdata/bench.c): every action succeeds on the second frame the engine runs it and
// changes the facts as the file says, and a killed enemy comes back 20
// frames later. After 100 frames of warm-up (bench.c's too), per frame:
//   - go: the Go runtime (agent.Agent, agent.Queue) with Go behaviours
//     and a sensor reading the arena's facts: every agent's Tick, then
//     the queue's Frame.
//   - host/frame and c/frame: host.Frame, or ploy_world_frame from C,
//     alone: what the go benchmark does (the engine's side aside).
//   - host/loop and c/loop: the engine's whole frame through the API:
//     8 facts pushed per agent (ploy_agent_set), the frame, and each
//     agent's action read and reported.
func BenchmarkFrame1000(b *testing.B) {
	src := battlemage(b)
	b.Run("go", func(b *testing.B) {
		f, err := domain.Parse("battlemage.yaml", src)
		if err != nil {
			b.Fatal(err)
		}
		q := agent.NewQueue(2, host.PlansPerFrame)
		var mages []*goMage
		for i := range 1000 {
			mages = append(mages, newGoMage(b, f, benchKinds[i%5], q))
		}
		frame := func() {
			for _, m := range mages {
				m.arena()
				m.a.Tick()
			}
			q.Frame()
		}
		for range warmUp {
			frame()
		}
		b.ReportAllocs()
		for b.Loop() {
			frame()
		}
	})
	b.Run("host", func(b *testing.B) {
		for _, loop := range []bool{false, true} {
			name := "frame"
			if loop {
				name = "loop"
			}
			b.Run(name, func(b *testing.B) { hostFrames(b, src, loop) })
		}
	})
	for _, what := range []string{"frame", "loop"} {
		b.Run("c/"+what, func(b *testing.B) {
			m := runBench(b, "frame", max(b.N, 300))
			b.ReportMetric(m[what+"_ns"], "ns/op")
		})
	}
}

// hostFrames is BenchmarkFrame1000's host case: bench.c's loop, in Go.
func hostFrames(b *testing.B, src []byte, timeLoop bool) {
	d, err := host.Load(src, "battlemage.yaml")
	if err != nil {
		b.Fatal(err)
	}
	defer host.Release(d)
	w, err := host.NewWorld(d, 2)
	if err != nil {
		b.Fatal(err)
	}
	type mage struct {
		a                     host.Handle
		fact                  map[string]bool
		action                string
		framesOn, enemyBackIn int
	}
	mages := make([]*mage, 1000)
	for i := range mages {
		a, err := host.NewAgent(w, benchKinds[i%5], "")
		if err != nil {
			b.Fatal(err)
		}
		mages[i] = &mage{a: a, fact: map[string]bool{"spare_crystals": true, "potion_at_shrine": true, "healthy": true}}
	}
	frame := func() {
		for _, m := range mages {
			if m.fact["enemy_dead"] {
				if m.enemyBackIn--; m.enemyBackIn <= 0 {
					m.fact["enemy_dead"], m.fact["in_range"] = false, false
				}
			}
			for _, f := range benchFacts {
				v := 0.0
				if m.fact[f] {
					v = 1
				}
				if err := host.Set(m.a, f, v); err != nil {
					b.Fatal(err)
				}
			}
		}
		if !timeLoop {
			b.StartTimer()
		}
		if _, err := host.Frame(w); err != nil {
			b.Fatal(err)
		}
		if !timeLoop {
			b.StopTimer()
		}
		for _, m := range mages {
			name, doing, err := host.Action(m.a)
			if err != nil {
				b.Fatal(err)
			}
			if doing != host.Acting {
				continue
			}
			if name != m.action {
				m.action, m.framesOn = name, 0
			}
			status := host.Running
			if m.framesOn++; m.framesOn >= 2 {
				arenaEffects(m.fact, name, &m.enemyBackIn)
				m.action, status = "", host.Success
			}
			if err := host.Report(m.a, status); err != nil {
				b.Fatal(err)
			}
		}
	}
	for range warmUp {
		frame()
	}
	b.ReportAllocs()
	b.ResetTimer()
	if !timeLoop {
		b.StopTimer()
	}
	for range b.N {
		frame()
	}
}

// arenaEffects is what an action that succeeded changes in the arena,
// as bench.c's finish says.
func arenaEffects(f map[string]bool, action string, enemyBackIn *int) {
	switch action {
	case "Approach":
		f["in_range"], f["in_cover"] = true, false
	case "TakeCover":
		f["in_cover"] = true
	case "CastBolt":
		f["enemy_dead"], f["staff_charged"], *enemyBackIn = true, false, 20
	case "Recharge":
		f["staff_charged"], f["spare_crystals"] = true, false
	case "GetCrystals":
		f["spare_crystals"], f["in_cover"], f["in_range"] = true, false, false
	case "FetchPotion":
		f["carrying_potion"], f["potion_at_shrine"], f["in_cover"] = true, false, false
	case "DrinkPotion":
		f["carrying_potion"], f["potion_at_shrine"] = false, true
	}
}

// goMage is a mage of the Go runtime in the benchmark's arena: its facts
// are the arena's, read by its sensor, and its behaviours change them.
type goMage struct {
	a           *agent.Agent
	d           *goap.Domain
	facts       goap.State
	enemyBackIn int
	enemyDead   goap.Fact
	inRange     goap.Fact
}

func newGoMage(b *testing.B, f *domain.File, kind string, q *agent.Queue) *goMage {
	b.Helper()
	d := f.GOAP
	m := &goMage{d: d, facts: d.Initial()}
	m.enemyDead, _ = d.Fact("enemy_dead")
	m.inRange, _ = d.Fact("in_range")
	k, err := f.Agent(kind)
	if err != nil {
		b.Fatal(err)
	}
	cfg := agent.Config{
		Domain:     d,
		Queue:      q,
		Sensor:     func(_ *agent.Agent, facts goap.State) { facts.CopyFrom(m.facts) },
		Behaviours: map[string]agent.Behaviour{},
	}
	for i := range d.NumActions() {
		cfg.Behaviours[d.ActionName(goap.ActionID(i))] = &goBehaviour{m: m, name: d.ActionName(goap.ActionID(i))}
	}
	inputs := f.InputDefaults()
	if err := agentfile.Configure(&cfg, k, func(*agent.Agent) []float64 { return inputs }); err != nil {
		b.Fatal(err)
	}
	if m.a, err = agent.New(cfg); err != nil {
		b.Fatal(err)
	}
	return m
}

// arena brings a killed enemy back after 20 frames.
func (m *goMage) arena() {
	if m.facts.Has(m.enemyDead) {
		if m.enemyBackIn--; m.enemyBackIn <= 0 {
			m.facts.Set(m.enemyDead, false)
			m.facts.Set(m.inRange, false)
		}
	}
}

// goBehaviour succeeds at its third tick, as an action the engine runs
// for two frames does through the API (the agent reads the engine's
// report at its next tick), and changes the facts as the arena does.
type goBehaviour struct {
	m     *goMage
	name  string
	ticks int
}

func (g *goBehaviour) Start(*agent.Agent) { g.ticks = 0 }
func (g *goBehaviour) Stop(*agent.Agent)  {}
func (g *goBehaviour) Tick(*agent.Agent) agent.Status {
	if g.ticks++; g.ticks < 3 {
		return agent.Running
	}
	f := map[string]bool{}
	for i := range g.m.d.NumFacts() {
		f[g.m.d.FactName(goap.Fact(i))] = g.m.facts.Has(goap.Fact(i))
	}
	arenaEffects(f, g.name, &g.m.enemyBackIn)
	for name, v := range f {
		fact, _ := g.m.d.Fact(name)
		g.m.facts.Set(fact, v)
	}
	return agent.Success
}

// runBench runs testdata/bench.c's program and returns the "key value"
// lines it prints.
func runBench(b *testing.B, what string, n int) map[string]float64 {
	b.Helper()
	dir := build(b)
	cmd := exec.Command(filepath.Join(dir, "bench"), what, strconv.Itoa(n), "domains/battlemage.yaml")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		b.Fatalf("bench %s: %v\n%s", what, err, out)
	}
	m := map[string]float64{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), " ")
		x, err := strconv.ParseFloat(v, 64)
		if !ok || err != nil {
			b.Fatalf("bench %s: %q", what, sc.Text())
		}
		m[k] = x
	}
	return m
}
