package report

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestJSONSizeBoundsMarshal: JSONSize is at least json.Marshal's length
// for answers with escapes, non-ASCII names, nil and empty fields, and a
// small factor above it at most; past its limit it stops above the limit.
func TestJSONSizeBoundsMarshal(t *testing.T) {
	cost := 2.5
	values := []any{
		Plan{Status: "found", Plan: []string{"a<b>&c", "quote\"back\\slash", "tab\tnew\nline", "né → ü", "\u2028"}, Cost: 1e308, Expanded: -1},
		HTN{Status: "found", Plan: []string{}, MTR: []int32{1, 2, 3}},
		&Explanation{Goal: "G", Plan: []string{"x"}, Cost: &cost, Alternatives: []Alternative{{Step: 1, Action: "y", Plan: []string{"y", "z"}}}},
		map[string]int{"a": 1, "bb": 22},
		[]*Plan{nil},
	}
	for _, v := range values {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		got := JSONSize(v, 1<<30)
		if got < len(b) || got > 8*len(b)+64 {
			t.Errorf("JSONSize %d for %d bytes of JSON: %s", got, len(b), b)
		}
	}
	long := Plan{Plan: make([]string, 1_000_000)}
	name := strings.Repeat("n", 1000)
	for i := range long.Plan {
		long.Plan[i] = name // one name a million times: 1 GB of JSON
	}
	if got := JSONSize(long, 10_000); got <= 10_000 || got > 20_000 {
		t.Errorf("JSONSize past its limit: %d, want just above 10 000", got)
	}
}
