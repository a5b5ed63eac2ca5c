package cli_test

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/ploy-ai/ploy/cmd/ploy/cli"
)

var update = flag.Bool("update", false, "rewrite the expected outputs in testdata/script")

// TestMain makes the test binary double as ploy, so that the scripts run
// the real command end to end.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"ploy": func() { os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
		// status N ploy ARGS... runs ploy and succeeds only if it exits
		// with status N, so that scripts check the exit-status contract.
		"status": func() {
			if len(os.Args) < 3 || os.Args[2] != "ploy" {
				fmt.Fprintln(os.Stderr, "usage: status N ploy ARGS...")
				os.Exit(2)
			}
			got := cli.Main(os.Args[3:], os.Stdin, os.Stdout, os.Stderr)
			if strconv.Itoa(got) != os.Args[1] {
				fmt.Fprintf(os.Stderr, "ploy exited with status %d, want %s\n", got, os.Args[1])
				os.Exit(1)
			}
			os.Exit(0)
		},
	})
}

// TestScripts runs testdata/script/*.txtar: every subcommand on the
// shipped domains, the JSON contracts, exit statuses and bad input. Run
// with -update to rewrite the expected outputs after a deliberate change.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		UpdateScripts:       *update,
		RequireExplicitExec: true,
	})
}
