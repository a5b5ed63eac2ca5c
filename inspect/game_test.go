package inspect_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/inspect"
)

// game is a small game loop of battle mages, each in a world of its own:
// every few ticks (its own period) an enemy comes back, and now and then
// the mage is hurt, so that the mages plan, change goal and start actions
// all game long.
type game struct {
	d      *goap.Domain
	mages  []*agent.Agent
	worlds []goap.State
	queue  *agent.Queue
	ins    *inspect.Inspector
	tick   atomic.Int64
	// others tick the game's agents of other kinds, after the mages.
	others []func()
	// game-goroutine only
	dead, healthy goap.Fact
}

func newGame(t testing.TB, n, workers int, opt inspect.Options) *game {
	t.Helper()
	d, err := goap.NewDomain(domains.BattleMage())
	if err != nil {
		t.Fatal(err)
	}
	g := &game{d: d, ins: inspect.New(opt)}
	g.dead, _ = d.Fact("enemy_dead")
	g.healthy, _ = d.Fact("healthy")
	if workers > 0 {
		g.queue = agent.NewQueue(workers, max(4, n/2))
	}
	for i := range n {
		world := d.Initial()
		g.worlds = append(g.worlds, world)
		behaviours := map[string]agent.Behaviour{}
		for id := range goap.ActionID(d.NumActions()) {
			behaviours[d.ActionName(id)] = agent.Funcs{TickFunc: func(*agent.Agent) agent.Status {
				d.Apply(id, world)
				return agent.Success
			}}
		}
		a, err := agent.New(agent.Config{
			Name:       fmt.Sprintf("mage-%03d", i),
			Domain:     d,
			Goals:      []agent.GoalOption{{Goal: d.Goal("GetHealthy"), Priority: 10}, {Goal: d.Goal("Kill"), Priority: 5}},
			Behaviours: behaviours,
			Sensor:     func(_ *agent.Agent, facts goap.State) { facts.CopyFrom(world) },
			RetryAfter: 3,
			Queue:      g.queue,
			Decisions:  g.ins,
		})
		if err != nil {
			t.Fatal(err)
		}
		if err := g.ins.Watch(a); err != nil {
			t.Fatal(err)
		}
		g.mages = append(g.mages, a)
	}
	return g
}

// step plays one frame: the worlds change, every mage ticks, the queue
// resolves, and the inspector's Frame runs.
func (g *game) step() {
	tick := int(g.tick.Load()) + 1
	for i, w := range g.worlds {
		period := 7 + i%5
		if tick%period == 0 && w.Has(g.dead) {
			w.CopyFrom(g.d.Initial()) // a new enemy, and crystals again
		}
		if tick%(3*period+1) == 0 {
			w.Set(g.healthy, false)
		}
	}
	for _, m := range g.mages {
		m.Tick()
	}
	for _, tick := range g.others {
		tick()
	}
	if g.queue != nil {
		g.queue.Frame()
	}
	g.tick.Store(int64(tick))
	g.ins.Frame(tick)
}

// loop plays frames until stop is closed; paced sleeps between frames.
func (g *game) loop(stop chan struct{}, paced time.Duration) chan struct{} {
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			default:
			}
			g.step()
			if paced > 0 {
				time.Sleep(paced)
			}
		}
	}()
	return done
}

// api is a test client of the inspector's API.
type api struct {
	t      testing.TB
	url    string
	client string
}

func (c api) get(path string, v any) int {
	c.t.Helper()
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	resp, err := http.Get(c.url + path + sep + "client=" + c.client)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if v != nil && resp.StatusCode == 200 {
		if err := json.Unmarshal(b, v); err != nil {
			c.t.Fatalf("GET %s: %v: %s", path, err, b)
		}
	}
	return resp.StatusCode
}

func (c api) post(path string, body map[string]any, v any) int {
	c.t.Helper()
	if body == nil {
		body = map[string]any{}
	}
	body["client"] = c.client
	b, _ := json.Marshal(body)
	resp, err := http.Post(c.url+path, "application/json", bytes.NewReader(b))
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	if v != nil && resp.StatusCode == 200 {
		if err := json.Unmarshal(out, v); err != nil {
			c.t.Fatalf("POST %s: %v: %s", path, err, out)
		}
	}
	return resp.StatusCode
}

// state is GET /api/v1/state's answer, as the tests read it.
type state struct {
	Frame       int  `json:"frame"`
	Copied      int  `json:"copied"`
	Paused      bool `json:"paused"`
	PauseNext   bool `json:"pause_next"`
	Reason      string
	Holder      string
	Hits        []inspect.Hit
	Breakpoints []struct {
		ID     int
		Agent  string
		On     string
		Action string
		Client string
	}
	Traced []string
}

// waitFor polls until ok says yes, failing the test after a long while
// (a hang, not a slow machine: timing decides nothing else).
func waitFor(t testing.TB, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func serve(t testing.TB, ins *inspect.Inspector) *httptest.Server {
	srv := httptest.NewServer(ins)
	t.Cleanup(func() {
		ins.Close()
		srv.Close()
	})
	return srv
}

func goapFact(i int) goap.Fact { return goap.Fact(i) }

func jsonDecode(b []byte, v any) error { return json.Unmarshal(b, v) }
