package cli_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/cmd/ploy/cli"
)

// TestEngineMaxDepthUpperBound: every command that resolves an
// engine-model file takes --max-depth up to 1024 and refuses 1025 as a
// usage error naming the bound. The scripts test the lower bound and a
// depth far above; an off-by-one at the top passed them.
func TestEngineMaxDepthUpperBound(t *testing.T) {
	for _, cmd := range []string{"resolve", "trace", "explain"} {
		for _, c := range []struct {
			depth  string
			status int
		}{{"1024", 0}, {"1025", 2}} {
			var out, errOut bytes.Buffer
			st := cli.Main([]string{cmd, "survivor", "--goal", "Warm", "--max-depth", c.depth}, strings.NewReader(""), &out, &errOut)
			if st != c.status {
				t.Errorf("%s --max-depth %s: status %d (%s), want %d", cmd, c.depth, st, errOut.String(), c.status)
			}
			if c.status == 2 && !strings.Contains(errOut.String(), "to 1024") {
				t.Errorf("%s --max-depth %s: %q does not name the bound", cmd, c.depth, errOut.String())
			}
			if c.status == 0 && !strings.Contains(out.String(), "LightFire") {
				t.Errorf("%s --max-depth %s: %q has no chain", cmd, c.depth, out.String())
			}
		}
	}
}
