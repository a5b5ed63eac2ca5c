package viewer_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/viewer"
)

// TestEngineMaxDepthUpperBound: every endpoint that resolves an
// engine-model file takes max_depth up to 1024 and refuses 1025, naming
// the field, as the command does.
func TestEngineMaxDepthUpperBound(t *testing.T) {
	s := newServer(t, viewer.Config{})
	for _, path := range []string{"/api/v1/resolve", "/api/v1/trace", "/api/v1/explain"} {
		for _, c := range []struct{ depth, code int }{{1024, 200}, {1025, 400}} {
			code, body := post(t, s, path, fmt.Sprintf(`{"domain": "survivor", "goal": "Warm", "max_depth": %d}`, c.depth))
			if code != c.code {
				t.Errorf("%s max_depth %d: %d %s, want %d", path, c.depth, code, body, c.code)
				continue
			}
			if c.code == 200 && !strings.Contains(string(body), "LightFire") {
				t.Errorf("%s max_depth %d: %s has no chain", path, c.depth, body)
			}
			var e struct{ Error, Field string }
			if c.code == 400 && (json.Unmarshal(body, &e) != nil || e.Field != "max_depth" || !strings.Contains(e.Error, "to 1024")) {
				t.Errorf("%s max_depth %d: %s, want an error on max_depth naming the bound", path, c.depth, body)
			}
		}
	}
}
