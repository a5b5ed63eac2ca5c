package viewer

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// FuzzRequest sends any body to the endpoints but the arena (whose
// batches are slow to fuzz; TestBadRequests covers its fields):
// each answer must be JSON with a status from the API's list, never a
// panic (a 500) or a hang.
func FuzzRequest(f *testing.F) {
	for _, seed := range []string{
		`{"goal": "Kill"}`,
		`{"goal": "Kill", "unset": ["spare_crystals"], "search": "backward", "heuristic": "hmax", "budget": 40}`,
		`{"htn": true, "max_steps": 9}`,
		`{"domain": "soldier", "goal": "KillPlayer", "set": ["has_axe"]}`,
		`{"source": "name: x\nfacts: [a]\nactions:\n  - name: A\n    effects: {a: true}\n    cost: 1\ngoals:\n  - name: G\n    conditions: {a: true}\n", "goal": "G"}`,
		`{"goal": [1, {"a": null}]}`,
		`{"budget": 1e400}`,
		`{} {}`,
		`{"goal": "Warm", "set": ["hunger=3", "has_wood"], "at": [1, 2], "targets": {"wood_north": [0, 3]}, "capabilities": ["WarmUp"]}`,
		`{"domain": "survivor", "goal": "Fed", "alternatives": 2}`,
		"\xff",
	} {
		f.Add(seed, uint8(0))
	}
	f.Add(`{"domain": "soldier", "set": ["at_cover"], "unset": ["gun_nearby", "hp_high"]}`, uint8(7)) // the tree
	f.Add(`{"domain": "soldier", "goal": "KillPlayer", "personality": "defensive"}`, uint8(0))
	f.Add(`{"domain": "soldier", "unset": ["gun_nearby"], "search": "backward"}`, uint8(9)) // the personalities
	// A minute's timeout: a 503 then means a request that ran away, not a
	// machine busy with other work (the default 10 s was once reached on a
	// pasted source under a load average of 4).
	s, err := New(Config{MaxBudget: 2000, MaxTraceBudget: 500, MaxHTNSteps: 2000, MaxConcurrent: 1, Timeout: time.Minute})
	if err != nil {
		f.Fatal(err)
	}
	paths := []string{"/api/v1/plan", "/api/v1/trace", "/api/v1/htn", "/api/v1/lint", "/api/v1/explain", "/api/v1/resolve", "/api/v1/graph", "/api/v1/tree", "/api/v1/decomposition", "/api/v1/personalities", "/api/v1/domain"}
	f.Fuzz(func(t *testing.T, body string, which uint8) {
		path := paths[int(which)%len(paths)]
		r := httptest.NewRequest(http.MethodPost, path, strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		s.ServeHTTP(w, r)
		switch w.Code {
		case 200, 400, 404, 413, 422:
		default:
			t.Fatalf("%s %q: status %d: %s", path, body, w.Code, w.Body)
		}
		if !json.Valid(w.Body.Bytes()) {
			t.Fatalf("%s %q: the answer is not JSON: %s", path, body, w.Body)
		}
	})
}
