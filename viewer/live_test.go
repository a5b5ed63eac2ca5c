package viewer_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ploy-ai/ploy/viewer"
)

// liveTick is a "tick" event of POST /api/v1/live.
type liveTick struct {
	Tick     int
	Status   string
	Facts    []string
	Toggled  []factValue
	Goal     string
	Plan     []string
	Step     int
	Action   string
	Progress int
	Duration int
	Replans  int
	Events   []liveEvent
	Unmet    []factValue
}

type factValue struct {
	Fact  string
	Value bool
}

// liveEvent is one of the agent runtime's events.
type liveEvent struct {
	Tick   int
	Agent  string
	Kind   string
	Goal   string
	Action string
	Reason string
	Plan   []string
	Cost   float64
}

// liveEnd is the "end" event.
type liveEnd struct {
	Tick          int
	End           string
	Replans       int
	ReplanReasons map[string]int `json:"replan_reasons"`
	Plans         int
	StepsDone     int `json:"steps_done"`
}

// liveRun is a stream, parsed: its ticks, its end, and its events' raw
// bytes, one per event.
type liveRun struct {
	Ticks []liveTick
	End   *liveEnd
	Raw   [][]byte
}

// parseLive reads a stream of Server-Sent Events: "event: NAME" and
// "data: JSON" lines, each event ended by a blank line.
func parseLive(t *testing.T, stream []byte) liveRun {
	t.Helper()
	var run liveRun
	for _, block := range strings.Split(strings.TrimSuffix(string(stream), "\n\n"), "\n\n") {
		name, data, ok := strings.Cut(block, "\n")
		name, okName := strings.CutPrefix(name, "event: ")
		data, okData := strings.CutPrefix(data, "data: ")
		if !ok || !okName || !okData || strings.Contains(data, "\n") {
			t.Fatalf("not an event: %q", block)
		}
		if run.End != nil {
			t.Fatalf("an event after the end: %q", block)
		}
		run.Raw = append(run.Raw, []byte(block))
		switch name {
		case "tick":
			var tk liveTick
			if err := json.Unmarshal([]byte(data), &tk); err != nil {
				t.Fatalf("tick %q: %v", data, err)
			}
			if tk.Tick != len(run.Ticks) {
				t.Fatalf("tick %d after %d ticks", tk.Tick, len(run.Ticks))
			}
			run.Ticks = append(run.Ticks, tk)
		case "end":
			run.End = &liveEnd{}
			if err := json.Unmarshal([]byte(data), run.End); err != nil {
				t.Fatalf("end %q: %v", data, err)
			}
		default:
			t.Fatalf("unexpected event %q: %s", name, data)
		}
	}
	if run.End == nil {
		t.Fatalf("the stream has no end: %d ticks", len(run.Ticks))
	}
	return run
}

// live runs request on h, unpaced, and parses the stream.
func live(t *testing.T, h http.Handler, request string) (liveRun, []byte) {
	t.Helper()
	r := httptest.NewRequest(http.MethodPost, "/api/v1/live", strings.NewReader(request))
	r.Header.Set("Content-Type", "application/json")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if w.Code != 200 || w.Header().Get("Content-Type") != "text/event-stream" {
		t.Fatalf("live %s: %d %q %s", request, w.Code, w.Header().Get("Content-Type"), w.Body)
	}
	return parseLive(t, w.Body.Bytes()), w.Body.Bytes()
}

// ticksOf returns the ticks at which action runs.
func ticksOf(run liveRun, action string) []int {
	var out []int
	for _, tk := range run.Ticks {
		if tk.Action == action {
			out = append(out, tk.Tick)
		}
	}
	return out
}

// eventsOf returns the run's events of a kind, in order.
func eventsOf(run liveRun, kind string) []liveEvent {
	var out []liveEvent
	for _, tk := range run.Ticks {
		for _, e := range tk.Events {
			if e.Kind == kind {
				out = append(out, e)
			}
		}
	}
	return out
}

// TestLiveSoldierReplans is figure 4's case in text: the soldier walks to
// the gun (its cheapest plan, cost 9); the gun is taken away on the way;
// the step fails, the NPC replans for the reason the runtime gives and
// goes for the axe (cost 10), and kills the player with it.
func TestLiveSoldierReplans(t *testing.T) {
	s := newServer(t, viewer.Config{})
	base := `{"domain": "soldier", "goal": "KillPlayer", "seed": 7, "fast": true`
	calm, calmBytes := live(t, s, base+`}`)
	made := eventsOf(calm, "plan_made")
	if len(made) != 1 || !slices.Equal(made[0].Plan, []string{"PickUpGun", "ApproachPlayer", "AttackRanged"}) || made[0].Cost != 9 {
		t.Fatalf("no toggles: plans %+v; want one, PickUpGun, ApproachPlayer, AttackRanged at cost 9", made)
	}
	if calm.End.End != "goal_reached" || calm.End.Replans != 0 || calm.End.StepsDone != 3 {
		t.Errorf("no toggles: the end %+v; want the goal reached, no replans, 3 steps done", calm.End)
	}
	walk := ticksOf(calm, "PickUpGun")
	if len(walk) < 3 {
		t.Fatalf("PickUpGun runs at ticks %v: want at least 3", walk)
	}
	for i, tick := range walk {
		if tk := calm.Ticks[tick]; tk.Progress != i+1 || tk.Duration != len(walk)+1 && tk.Duration != len(walk) {
			t.Errorf("tick %d: PickUpGun at %d of %d; it runs at ticks %v", tick, tk.Progress, tk.Duration, walk)
		}
	}

	// The gun taken away on the way to it.
	at := walk[1]
	request := base + fmt.Sprintf(`, "toggles": [{"tick": %d, "fact": "gun_nearby", "value": false}]}`, at)
	run, runBytes := live(t, s, request)
	// Up to the toggle, the run is the run without it, byte for byte: a
	// page that restarts the stream with a toggle sees again what it has
	// shown.
	for i := range at {
		if !bytes.Equal(run.Raw[i], calm.Raw[i]) {
			t.Fatalf("tick %d differs from the run without the toggle:\n%s\n%s", i, run.Raw[i], calm.Raw[i])
		}
	}
	tk := run.Ticks[at]
	if !slices.Equal(tk.Toggled, []factValue{{"gun_nearby", false}}) || slices.Contains(tk.Facts, "gun_nearby") {
		t.Errorf("tick %d: toggled %v, facts %q; want gun_nearby set false", at, tk.Toggled, tk.Facts)
	}
	failed := eventsOf(run, "action_failed")
	if len(failed) != 1 || failed[0].Tick != at || failed[0].Action != "PickUpGun" || failed[0].Reason != "action failed" ||
		!slices.Equal(tk.Unmet, []factValue{{"gun_nearby", true}}) || tk.Status != "replanning" {
		t.Errorf("tick %d: failures %+v, unmet %v, status %s; want PickUpGun failed there, needing gun_nearby, replanning", at, failed, tk.Unmet, tk.Status)
	}
	replans := eventsOf(run, "replan")
	made = eventsOf(run, "plan_made")
	axe := []string{"PickUpAxe", "ApproachPlayer", "AttackMelee"}
	if len(replans) != 1 || replans[0].Tick != at+1 || replans[0].Reason != "action failed" {
		t.Errorf("replans %+v; want one at tick %d, for \"action failed\"", replans, at+1)
	}
	if len(made) != 2 || made[1].Tick != at+1 || !slices.Equal(made[1].Plan, axe) || made[1].Cost != 10 {
		t.Errorf("plans %+v; want the new plan %q at cost 10 at tick %d", made, axe, at+1)
	}
	if next := run.Ticks[at+1]; next.Replans != 1 || next.Action != "PickUpAxe" || !slices.Equal(next.Plan, axe) || run.Ticks[at].Replans != 0 {
		t.Errorf("tick %d: %d replans, running %q of %q; want 1, PickUpAxe of %q", at+1, next.Replans, next.Action, next.Plan, axe)
	}
	done := eventsOf(run, "step_done")
	var names []string
	for _, e := range done {
		names = append(names, e.Action)
	}
	if !slices.Equal(names, axe) || run.End.End != "goal_reached" || run.End.Replans != 1 || run.End.ReplanReasons["action failed"] != 1 {
		t.Errorf("steps done %q, end %+v; want %q, the goal reached, 1 replan for action failed", names, run.End, axe)
	}
	last := run.Ticks[len(run.Ticks)-1]
	if last.Status != "goal_reached" || slices.Contains(last.Facts, "player_alive") {
		t.Errorf("the last tick: %s, facts %q; want the player dead", last.Status, last.Facts)
	}

	// The same request twice: the same bytes. Another seed: other
	// durations, so another stream.
	if _, again := live(t, s, request); !bytes.Equal(again, runBytes) {
		t.Error("the same request gave two different streams")
	}
	if _, other := live(t, s, strings.Replace(base, `"seed": 7`, `"seed": 8`, 1)+`}`); bytes.Equal(other, calmBytes) {
		t.Error("seeds 7 and 8 gave the same stream: the seed draws nothing")
	}
}

// TestLiveBattleMage: the figure runs on any state-space domain. The
// battle mage's crystals taken while it approaches: Recharge cannot
// start, the runtime replans for "preconditions failed", and the new
// plan fetches crystals first.
func TestLiveBattleMage(t *testing.T) {
	s := newServer(t, viewer.Config{})
	calm, _ := live(t, s, `{"goal": "Kill", "fast": true}`)
	approach := ticksOf(calm, "Approach")
	if len(approach) == 0 || calm.End.End != "goal_reached" {
		t.Fatalf("Kill: Approach at %v, end %+v", approach, calm.End)
	}
	run, _ := live(t, s, fmt.Sprintf(`{"goal": "Kill", "fast": true, "toggles": [{"tick": %d, "fact": "spare_crystals", "value": false}]}`, approach[1]))
	failed, replans, made := eventsOf(run, "action_failed"), eventsOf(run, "replan"), eventsOf(run, "plan_made")
	if len(failed) != 1 || failed[0].Action != "Recharge" || failed[0].Reason != "preconditions failed" || !slices.Equal(run.Ticks[failed[0].Tick].Unmet, []factValue{{"spare_crystals", true}}) {
		t.Errorf("failures %+v; want Recharge's preconditions failing on spare_crystals", failed)
	}
	if len(replans) != 1 || replans[0].Reason != "preconditions failed" || len(made) != 2 || made[1].Plan[0] != "GetCrystals" {
		t.Errorf("replans %+v, plans %+v; want one replan for preconditions failed, the new plan GetCrystals first", replans, made)
	}
	if run.End.End != "goal_reached" || run.End.Replans != 1 {
		t.Errorf("end %+v; want the goal reached after 1 replan", run.End)
	}

	// Both weapons gone from the soldier's world mid-run: no plan, the run
	// settles and says so; the axe back a little later: a plan again.
	noWeapons := `{"domain": "soldier", "goal": "KillPlayer", "fast": true, "toggles": [{"tick": 2, "fact": "gun_nearby", "value": false}, {"tick": 2, "fact": "axe_nearby", "value": false}`
	stuck, _ := live(t, s, noWeapons+`]}`)
	if stuck.End.End != "no_plan" || len(eventsOf(stuck, "no_plan")) == 0 || stuck.Ticks[len(stuck.Ticks)-1].Status != "no_plan" {
		t.Errorf("no weapons: end %+v, no_plan events %d; want the run to end with no plan", stuck.End, len(eventsOf(stuck, "no_plan")))
	}
	back, _ := live(t, s, noWeapons+fmt.Sprintf(`, {"tick": %d, "fact": "axe_nearby", "value": true}]}`, stuck.End.Tick+1))
	if back.End.End != "goal_reached" || eventsOf(back, "plan_made")[len(eventsOf(back, "plan_made"))-1].Plan[0] != "PickUpAxe" {
		t.Errorf("the axe back: end %+v; want the goal reached with the axe", back.End)
	}

	// Reactive: the NPC replans after every step, and says why.
	reactive, _ := live(t, s, `{"goal": "Kill", "fast": true, "policy": "reactive"}`)
	if reactive.End.ReplanReasons["step ended"] != 3 || reactive.End.End != "goal_reached" {
		t.Errorf("reactive: end %+v; want 3 replans for step ended", reactive.End)
	}
}

func TestLiveBadInput(t *testing.T) {
	s := newServer(t, viewer.Config{MaxBody: 8192})
	for _, c := range []struct {
		body       string
		code       int
		field, msg string
	}{
		{`{"goal": "Kill"`, 400, "", "malformed JSON"},
		{`{"goal": "Kill", "budget": 5}`, 400, "budget", `unknown field "budget"`},
		{`{}`, 400, "goal", "goal is required"},
		{`{"goal": "Kil"}`, 400, "goal", `did you mean "Kill"?`},
		{`{"goal": "Kill", "unset": ["spare_crystal"]}`, 400, "unset", `did you mean "spare_crystals"?`},
		{`{"goal": "Kill", "toggles": [{"tick": 3, "fact": "in_rnage", "value": true}]}`, 400, "toggles", `did you mean "in_range"?`},
		{`{"goal": "Kill", "toggles": [{"tick": 3, "fact": "in_range"}]}`, 400, "toggles", "has no value"},
		{`{"goal": "Kill", "toggles": [{"tick": 0, "fact": "in_range", "value": true}]}`, 400, "toggles", "from 1 to max_ticks (300)"},
		{`{"goal": "Kill", "max_ticks": 10, "toggles": [{"tick": 11, "fact": "in_range", "value": true}]}`, 400, "toggles", "from 1 to max_ticks (10)"},
		{`{"goal": "Kill", "toggles": [` + strings.Repeat(`{"tick": 1, "fact": "in_range", "value": true},`, 100) + `{"tick": 1, "fact": "in_range", "value": true}]}`, 400, "toggles", "101 toggles: at most 100"},
		{`{"goal": "Kill", "max_ticks": 1001}`, 400, "max_ticks", "from 1 to 1000"},
		{`{"goal": "Kill", "ticks_per_second": 21}`, 400, "ticks_per_second", "from 1 to 20"},
		{`{"goal": "Kill", "ticks_per_second": -1}`, 400, "ticks_per_second", "from 1 to 20"},
		{`{"goal": "Kill", "replay_to": -1}`, 400, "replay_to", "must not be negative"},
		{`{"goal": "Kill", "policy": "proactive"}`, 400, "policy", "on_break or reactive"},
		{`{"goal": "Kill", "seed": -1}`, 400, "seed", "must be a number"},
		{`{"domain": "survivor", "goal": "Warm"}`, 422, "domain", "engine-model file"},
		{`{"domain": "nowhere", "goal": "Kill"}`, 404, "domain", "unknown domain"},
		{`{"source": "facts: [a", "goal": "G"}`, 422, "", "the domain source has errors"},
		{`{"goal": "Kill", "unset": ["` + strings.Repeat("x", 9000) + `"]}`, 413, "", "larger than 8192 bytes"},
	} {
		code, body := post(t, s, "/api/v1/live", c.body)
		var e errorAnswer
		if code != c.code || json.Unmarshal(body, &e) != nil || e.Field != c.field || !strings.Contains(e.Error, c.msg) {
			t.Errorf("%.70s: %d %s; want %d, field %q, %q", c.body, code, body, c.code, c.field, c.msg)
		}
	}
	// Not JSON, and not a POST.
	r := httptest.NewRequest(http.MethodPost, "/api/v1/live", strings.NewReader(`goal=Kill`))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	if w.Code != http.StatusUnsupportedMediaType {
		t.Errorf("a form: %d %s, want 415", w.Code, w.Body)
	}
	w = httptest.NewRecorder()
	s.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/api/v1/live", nil))
	if w.Code != http.StatusMethodNotAllowed || w.Header().Get("Allow") != "POST" {
		t.Errorf("GET: %d %s, want 405", w.Code, w.Body)
	}
}

// TestLiveLimits: a run ends at max_ticks, at the stream's time cap and
// at the answer's size cap, each saying so.
func TestLiveLimits(t *testing.T) {
	s := newServer(t, viewer.Config{})
	run, _ := live(t, s, `{"goal": "Kill", "fast": true, "max_ticks": 5}`)
	if run.End.End != "ticks_out" || run.End.Tick != 5 || len(run.Ticks) != 6 {
		t.Errorf("max_ticks 5: end %+v after %d ticks; want ticks_out at 5, ticks 0 to 5", run.End, len(run.Ticks))
	}
	// An unreachable goal, kept from settling by a toggle at the last
	// tick: the NPC tries again every few ticks until the run's searches
	// are spent.
	unreachable := `name: x\nfacts: [a, b]\nactions:\n  - name: A\n    preconditions: {b: true}\n    effects: {a: true}\n    cost: 1\ngoals:\n  - name: G\n    conditions: {a: true}\n`
	run, _ = live(t, s, `{"source": "`+unreachable+`", "goal": "G", "fast": true, "max_ticks": 1000, "toggles": [{"tick": 1000, "fact": "b", "value": true}]}`)
	if run.End.End != "search_limit" || run.End.Plans != 100 || run.End.Tick >= 1000 {
		t.Errorf("an unreachable goal for 1000 ticks: end %+v; want search_limit after 100 searches", run.End)
	}
	small := newServer(t, viewer.Config{MaxAnswer: 2000})
	run, _ = live(t, small, `{"goal": "Kill", "fast": true}`)
	if run.End.End != "size_limit" || len(run.Ticks) > 10 {
		t.Errorf("a 2000-byte cap: end %+v after %d ticks; want size_limit within a few ticks", run.End, len(run.Ticks))
	}
	// Paced at 5 ticks a second under a 300 ms cap: ticks 0 and 1 (at
	// 200 ms), then the end, since tick 2 would be due at 400 ms.
	short := newServer(t, viewer.Config{MaxStreamTime: 300 * time.Millisecond})
	start := time.Now()
	run, _ = live(t, short, `{"goal": "Kill", "ticks_per_second": 5}`)
	if run.End.End != "time_out" || len(run.Ticks) != 2 {
		t.Errorf("a 300 ms cap at 5 ticks/s: end %+v after %d ticks; want time_out after tick 1", run.End, len(run.Ticks))
	}
	t.Logf("time_out after %v", time.Since(start))
}

// TestLivePaced runs a replayed request paced on a real server whose
// WriteTimeout and ReadTimeout are shorter than the stream: the ticks up
// to replay_to come at once, the rest paced, every byte as the unpaced
// run's; and the stream outlives the server's timeouts.
func TestLivePaced(t *testing.T) {
	s := newServer(t, viewer.Config{})
	ts := httptest.NewUnstartedServer(s)
	ts.Config.WriteTimeout = 300 * time.Millisecond
	ts.Config.ReadTimeout = 300 * time.Millisecond
	ts.Start()
	defer ts.Close()
	request := `{"domain": "soldier", "goal": "KillPlayer", "toggles": [{"tick": 3, "fact": "gun_nearby", "value": false}]`
	want, wantBytes := live(t, s, request+`, "fast": true}`)
	replayTo := len(want.Ticks) - 12
	start := time.Now()
	r, err := http.Post(ts.URL+"/api/v1/live", "application/json", strings.NewReader(request+fmt.Sprintf(`, "ticks_per_second": 20, "replay_to": %d}`, replayTo)))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	var got bytes.Buffer
	var firstAfterReplay time.Duration
	lines := bufio.NewReader(r.Body)
	for {
		line, err := lines.ReadBytes('\n')
		got.Write(line)
		if bytes.HasPrefix(line, []byte(fmt.Sprintf(`data: {"tick":%d,`, replayTo))) {
			firstAfterReplay = time.Since(start)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("reading the stream: %v after %v", err, time.Since(start))
		}
	}
	if !bytes.Equal(got.Bytes(), wantBytes) {
		t.Errorf("the paced stream differs from the unpaced one:\n%s\nwant\n%s", got.Bytes(), wantBytes)
	}
	t.Logf("ticks 0 to %d (replayed) in %v; all %d ticks, the last 11 at 20 a second, in %v (the server's WriteTimeout: 300 ms)", replayTo, firstAfterReplay, len(want.Ticks), time.Since(start))
}
