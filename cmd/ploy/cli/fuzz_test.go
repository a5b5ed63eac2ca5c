package cli_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/cmd/ploy/cli"
)

// boundedWork is appended to a fuzzed command line (the last value of a
// flag wins) so that every run is a small search: the fuzzer explores the
// argument parsing, not the planners' running time, which the attack
// suite bounds.
var boundedWork = map[string][]string{
	"plan":    {"--budget=300"},
	"resolve": {"--budget=300"},
	"explain": {"--budget=300"},
	"trace":   {"--budget=300", "--max-steps=300"},
	"htn":     {"--max-steps=300"},
	"arena":   {"--fights=1"},
}

// FuzzMain runs the command on fuzzed arguments, NUL-separated, on the
// embedded and shipped domains only (no argument may name a path), and
// checks the exit-status contract: no panic, a status from 0 to 3, an
// answer on stdout for 0 and a message on stderr for 1 and 2.
func FuzzMain(f *testing.F) {
	for _, seed := range []string{
		"plan\x00--goal\x00Kill",
		"plan\x00soldier\x00--goal\x00KillPlayer\x00--json\x00--search\x00backward",
		"plan\x00--goal\x00Kill\x00--budget\x00-5",
		"plan\x00--goal\x00Kill\x00--max-depth\x00-1",
		"plan\x00--goal\x00Kill\x00--set\x00in_range,in_rnage",
		"trace\x00--goal\x00Kill\x00--format\x00json",
		"trace\x00--goal\x00GetHealthy\x00--unset\x00healthy,potion_at_shrine\x00--heuristic\x00hmax\x00--format\x00dot",
		"trace\x00--htn\x00--format\x00json\x00--max-steps\x000",
		"explain\x00--goal\x00GetHealthy\x00--unset\x00healthy,potion_at_shrine",
		"htn\x00--unset\x00spare_crystals\x00--json",
		"lint\x00soldier",
		"resolve\x00--goal\x00Warm\x00--set\x00hunger=70,has_wood\x00--at\x001,2\x00--target\x00wood_north=3,4",
		"resolve\x00shopkeeper\x00--goal\x00ServeCustomer\x00--capabilities\x00TakeItem\x00--json",
		"trace\x00survivor\x00--goal\x00Fed\x00--format\x00json\x00--max-depth\x001",
		"explain\x00survivor\x00--goal\x00Warm\x00--unset\x00fire_lit\x00--json",
		"lint\x00survivor",
		"graph\x00shopkeeper\x00--format\x00dot",
		"graph\x00battlemage\x00--format\x00json",
		"arena\x00--agents\x00goap,nope",
		"help\x00plan",
		"plan\x00--help",
		"--version",
		"plann",
		"",
	} {
		f.Add([]byte(seed))
	}
	f.Chdir(f.TempDir()) // arena --record and --plots write where they are told
	f.Fuzz(func(t *testing.T, data []byte) {
		var args []string
		if len(data) > 0 {
			args = strings.Split(string(data), "\x00")
		}
		if len(args) > 16 {
			return
		}
		for _, a := range args {
			// No paths (a device, a large file) and no "--", after which
			// the appended limits would be arguments.
			if len(a) > 256 || strings.Contains(a, "/") || a == "--" {
				return
			}
		}
		if len(args) > 0 {
			args = append(args, boundedWork[args[0]]...)
		}
		var stdout, stderr bytes.Buffer
		st := cli.Main(args, strings.NewReader(""), &stdout, &stderr)
		switch st {
		case 0:
			if strings.TrimSpace(stdout.String()) == "" {
				t.Errorf("ploy %q: exit 0 with nothing on stdout", args)
			}
		case 1, 2:
			if strings.TrimSpace(stderr.String()) == "" {
				t.Errorf("ploy %q: exit %d with nothing on stderr", args, st)
			}
		case 3:
		default:
			t.Errorf("ploy %q: exit status %d, outside the contract's 0 to 3", args, st)
		}
	})
}
