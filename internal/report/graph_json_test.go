package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/domain"
	"github.com/ploy-ai/ploy/domains"
)

// graphSources are engine-model files whose graphs WriteGraphJSON must
// write as encoding/json writes GraphOf: the shipped ones, and files with
// what the hand-written JSON could get wrong (escaped names, no goals, no
// conditions, targets, an action serving nothing, a goal condition nothing
// serves).
func graphSources(t *testing.T) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	entries, err := fs.ReadDir(domains.Files, ".")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		src, err := fs.ReadFile(domains.Files, e.Name())
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(src, []byte("\nkeys:")) {
			out[e.Name()] = src
		}
	}
	out["escapes.yaml"] = []byte(`name: "<a & b>"
keys: {k: bool, n: int, "q\"uote": bool}
at: [0, 0]
targets: {"t<1>": [1, 1]}
actions:
  - {name: "P<&>", effects: {k: true}, cost: 1, target: "t<1>"}
  - {name: "Q\u2028é", conditions: {k: true}, effects: {n: increase}, cost: 1}
  - {name: Idle, effects: {"q\"uote": true}, cost: 1}
  - {name: Dec, conditions: {n: "> 2"}, effects: {n: decrease}, cost: 1}
goals:
  - {name: "G\"1", conditions: {n: ">= 3", k: true}}
  - {name: Never, conditions: {"q\"uote": false}}
`)
	out["nogoals.yaml"] = []byte("name: bare\nkeys: {k: bool}\nactions:\n  - {name: A, effects: {k: true}, cost: 1}\n")
	out["wide.yaml"] = []byte(wideGraph(30))
	return out
}

// wideGraph is an engine-model file whose graph has n*n edges: n actions
// serving a condition n others have.
func wideGraph(n int) string {
	var b strings.Builder
	b.WriteString("name: wide\nkeys: {k: bool, done: bool}\nactions:\n")
	for i := range n {
		fmt.Fprintf(&b, "  - {name: P%d, effects: {k: true}, cost: 1}\n", i)
	}
	for i := range n {
		fmt.Fprintf(&b, "  - {name: C%d, conditions: {k: true}, effects: {done: true}, cost: 1}\n", i)
	}
	b.WriteString("goals:\n  - {name: G, conditions: {done: true}}\n")
	return b.String()
}

func TestWriteGraphJSONIsTheEncodersBytes(t *testing.T) {
	for name, src := range graphSources(t) {
		t.Run(name, func(t *testing.T) {
			f, err := domain.Parse(name, src)
			if err != nil {
				t.Fatal(err)
			}
			if !f.EngineModel() {
				t.Fatalf("%s is not an engine-model file", name)
			}
			var want bytes.Buffer
			if err := json.NewEncoder(&want).Encode(GraphOf(f.Resolver)); err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			if err := WriteGraphJSON(&got, f.Resolver); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Errorf("WriteGraphJSON:\n%s\nencoding/json:\n%s", got.Bytes(), want.Bytes())
			}
			if n := GraphJSONSize(f.Resolver); n != int64(want.Len()) {
				t.Errorf("GraphJSONSize = %d, the JSON has %d bytes", n, want.Len())
			}
		})
	}
}

// failAfter accepts n bytes, then fails every write.
type failAfter struct{ n, calls int }

var errFull = errors.New("full")

func (w *failAfter) Write(p []byte) (int, error) {
	w.calls++
	if len(p) > w.n {
		return 0, errFull
	}
	w.n -= len(p)
	return len(p), nil
}

func TestWriteGraphJSONStopsAtTheFirstError(t *testing.T) {
	f, err := domain.Parse("wide.yaml", []byte(wideGraph(100)))
	if err != nil {
		t.Fatal(err)
	}
	w := &failAfter{n: 1000}
	if err := WriteGraphJSON(w, f.Resolver); err != errFull {
		t.Fatalf("WriteGraphJSON = %v, want the writer's error", err)
	}
	// The graph has 10 000 edges, each of several pieces: a writer that
	// keeps being called past its error would see tens of thousands.
	if w.calls > 1000 {
		t.Errorf("%d writes, most of them after the writer failed", w.calls)
	}
}
