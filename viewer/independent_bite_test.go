package viewer_test

import (
	"encoding/json"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/internal/testkit/fixture"
	"github.com/ploy-ai/ploy/resolver"
	"github.com/ploy-ai/ploy/viewer"
)

// TestAnswersEqualTheCommand compares the server with the command, and
// both render through internal/report: a bug there passes it. These
// decode the server's JSON and compare it with the planners' results,
// computed here from the Go specs (not the YAML files the server loads).

type plannerAnswer struct {
	Status              string
	Plan                []string
	Cost                float64
	Expanded, Generated int
}

// goapAnswer plans on the battle mage built from its Go spec.
func goapAnswer(t *testing.T, unset []string, opt goap.Options) plannerAnswer {
	t.Helper()
	d, err := goap.NewDomain(domains.BattleMage())
	if err != nil {
		t.Fatal(err)
	}
	var toggles []string
	for _, f := range unset {
		toggles = append(toggles, "!"+f)
	}
	res, err := goap.NewPlanner(d).Plan(nil, fixture.StateWith(t, d, toggles...), d.Goal("Kill"), opt)
	if err != nil {
		t.Fatal(err)
	}
	a := plannerAnswer{Status: res.Status.String(), Plan: []string{}, Cost: res.Cost, Expanded: res.Expanded, Generated: res.Generated}
	for _, id := range res.Plan {
		a.Plan = append(a.Plan, d.ActionName(id))
	}
	return a
}

func decodeAnswer(t *testing.T, body []byte) plannerAnswer {
	t.Helper()
	var a plannerAnswer
	if err := json.Unmarshal(body, &a); err != nil {
		t.Fatalf("%s: %v", body, err)
	}
	return a
}

func equalAnswers(a, b plannerAnswer) bool {
	return a.Status == b.Status && slices.Equal(a.Plan, b.Plan) && math.Abs(a.Cost-b.Cost) < 1e-9 && a.Expanded == b.Expanded && a.Generated == b.Generated
}

func TestPlanAnswerIsThePlannersResult(t *testing.T) {
	s := newServer(t, viewer.Config{})
	for _, c := range []struct {
		body  string
		unset []string
		opt   goap.Options
	}{
		// The server's default estimate is goal-count; goap.Options'
		// zero value is goal-cost.
		{`{"goal": "Kill"}`, nil, goap.Options{Heuristic: goap.GoalCount}},
		{`{"goal": "Kill", "unset": ["spare_crystals"], "heuristic": "hmax"}`, []string{"spare_crystals"}, goap.Options{Heuristic: goap.HMax}},
		{`{"goal": "Kill", "search": "backward"}`, nil, goap.Options{Search: goap.Backward, Heuristic: goap.GoalCount}},
		{`{"goal": "Kill", "heuristic": "goal-cost", "unset": ["spare_crystals"]}`, []string{"spare_crystals"}, goap.Options{Heuristic: goap.GoalCost}},
	} {
		code, body := post(t, s, "/api/v1/plan", c.body)
		if code != http.StatusOK {
			t.Fatalf("%s: %d %s", c.body, code, body)
		}
		got, want := decodeAnswer(t, body), goapAnswer(t, c.unset, c.opt)
		if !equalAnswers(got, want) {
			t.Errorf("%s: the server says %+v, the planner %+v", c.body, got, want)
		}
	}
}

func TestResolveAnswerIsTheResolversResult(t *testing.T) {
	s := newServer(t, viewer.Config{})
	d, err := resolver.NewDomain(domains.Survivor())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		body    string
		values  map[string]int64
		at      resolver.Point
		targets map[string]resolver.Point
		goal    string
	}{
		{`{"domain": "survivor", "goal": "Warm", "set": ["warmth=20", "hunger=10"], "at": [1, 2], "targets": {"wood_north": [0, 3], "wood_south": [0, -4], "fireplace": [0, 2]}}`,
			map[string]int64{"warmth": 20, "hunger": 10}, resolver.Point{X: 1, Y: 2},
			map[string]resolver.Point{"wood_north": {Y: 3}, "wood_south": {Y: -4}, "fireplace": {Y: 2}}, "Warm"},
		{`{"domain": "survivor", "goal": "Fed", "set": ["hunger=70"], "at": [0, 0], "targets": {"berries": [5, 0], "deer": [2, 0]}}`,
			map[string]int64{"hunger": 70}, resolver.Point{},
			map[string]resolver.Point{"berries": {X: 5}, "deer": {X: 2}}, "Fed"},
	} {
		code, body := post(t, s, "/api/v1/resolve", c.body)
		if code != http.StatusOK {
			t.Fatalf("%s: %d %s", c.body, code, body)
		}
		snap, err := d.SnapshotOf(c.values, c.at, c.targets)
		if err != nil {
			t.Fatal(err)
		}
		res, err := resolver.NewResolver(d).Resolve(nil, snap, d.Goal(c.goal), resolver.Options{})
		if err != nil {
			t.Fatal(err)
		}
		want := plannerAnswer{Status: res.Status.String(), Plan: []string{}, Cost: res.Cost, Expanded: res.Expanded, Generated: res.Generated}
		for _, a := range res.Chain {
			want.Plan = append(want.Plan, d.ActionName(a))
		}
		if got := decodeAnswer(t, body); !equalAnswers(got, want) {
			t.Errorf("%s: the server says %+v, the resolver %+v", c.body, got, want)
		}
	}
}

// TestLoadAnswersAreRight: under concurrent load every 200 carries the
// planner's answer for its own request (not another's, not a truncated
// one) and every 503 a JSON error saying the server is busy.
func TestLoadAnswersAreRight(t *testing.T) {
	const clients, requests = 64, 4
	ts := httptest.NewServer(newServer(t, viewer.Config{}))
	defer ts.Close()
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: clients}}
	defer client.CloseIdleConnections()
	bodies := []string{`{"goal": "Kill"}`, `{"goal": "Kill", "unset": ["spare_crystals"], "heuristic": "hmax"}`, `{"goal": "Kill", "search": "backward"}`}
	wants := []plannerAnswer{goapAnswer(t, nil, goap.Options{Heuristic: goap.GoalCount}), goapAnswer(t, []string{"spare_crystals"}, goap.Options{Heuristic: goap.HMax}),
		goapAnswer(t, nil, goap.Options{Search: goap.Backward, Heuristic: goap.GoalCount})}
	if equalAnswers(wants[0], wants[1]) || equalAnswers(wants[0], wants[2]) {
		t.Fatal("the requests' answers must differ, to tell a crossed answer")
	}
	var ok atomic.Int64
	var wg sync.WaitGroup
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range requests {
				k := (c + i) % len(bodies)
				resp, err := client.Post(ts.URL+"/api/v1/plan", "application/json", strings.NewReader(bodies[k]))
				if err != nil {
					t.Errorf("client %d, request %d: %v", c, i, err)
					return
				}
				body, err := io.ReadAll(resp.Body)
				resp.Body.Close()
				if err != nil {
					t.Errorf("client %d, request %d: %v", c, i, err)
					return
				}
				switch resp.StatusCode {
				case http.StatusOK:
					var got plannerAnswer
					if err := json.Unmarshal(body, &got); err != nil || !equalAnswers(got, wants[k]) {
						t.Errorf("client %d, %s: answered %s, want %+v", c, bodies[k], body, wants[k])
					}
					ok.Add(1)
				case http.StatusServiceUnavailable:
					var e struct{ Error string }
					if err := json.Unmarshal(body, &e); err != nil || !strings.Contains(e.Error, "busy") {
						t.Errorf("client %d: a 503 whose body is %q, want a JSON error saying the server is busy", c, body)
					}
				default:
					t.Errorf("client %d, request %d: status %d: %s", c, i, resp.StatusCode, body)
				}
			}
		}()
	}
	wg.Wait()
	if ok.Load() == 0 {
		t.Error("no request was served")
	}
}
