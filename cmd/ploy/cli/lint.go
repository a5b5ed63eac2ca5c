package cli

import (
	"fmt"

	"github.com/ploy-ai/ploy/domain"
)

func runLint(e *env, args []string) int {
	if isPDDL(args) {
		return runPDDL(e, "lint", args)
	}
	var strict bool
	fset := flagSet(e, "lint", "[FILE] [flags]",
		"Check a domain file and print the warnings a designer wants before run time,\neach as FILE:LINE:COL: actions that never change anything or can never apply\nfrom the initial state, goals unreachable from it, facts read but never\nwritten or written but never read, HTN methods whose conditions can never\nhold, compound tasks never reached from the root. For an engine-model file\n(keys:): conditions no action serves, actions that serve nothing, keys never\nused or never read, targets without a position in the file's world, goals\nwith no chain from it.",
		`  ploy lint
  ploy lint domains/battlemage.yaml
  ploy lint --strict mydomain.yaml
  ploy lint survivor
`)
	fset.BoolVar(&strict, "strict", false, "exit with status 1 if there is any warning")
	f, st := parseAndLoad(e, fset, args)
	if st >= 0 {
		return st
	}
	warnings := domain.Lint(f)
	// A generated file can draw a warning per fact: show as many as a
	// person reads, and count the rest.
	shown := warnings[:min(len(warnings), domain.MaxErrors)]
	if len(shown) > 0 {
		fmt.Fprint(e.stdout, domain.Format(shown, f.Source))
	}
	if hidden := len(warnings) - len(shown); hidden > 0 {
		fmt.Fprintf(e.stdout, "%s: %d more warning%s not shown\n", f.Path, hidden, plural(hidden))
	}
	fmt.Fprintf(e.stdout, "%s: %d warning%s\n", f.Path, len(warnings), plural(len(warnings)))
	if strict && len(warnings) > 0 {
		return exitInvalid
	}
	return exitOK
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
