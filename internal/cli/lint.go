package cli

import (
	"fmt"

	"github.com/ploy-ai/ploy/domain"
)

func runLint(e *env, args []string) int {
	var strict bool
	fset := flagSet(e, "lint", "FILE [flags]",
		"Check a domain file and print the warnings a designer wants before run time,\neach as FILE:LINE:COL: actions that never change anything or can never apply\nfrom the initial state, goals unreachable from it, facts read but never\nwritten or written but never read, HTN methods whose conditions can never\nhold, compound tasks never reached from the root.",
		`  ploy lint domains/battlemage.yaml
  ploy lint --strict mydomain.yaml
`)
	fset.BoolVar(&strict, "strict", false, "exit with status 1 if there is any warning")
	positional, st := parse(e, fset, args)
	if st >= 0 {
		return st
	}
	if len(positional) == 0 {
		return usageErr(e, fset, "a domain FILE is required")
	}
	f, st := load(e, fset, positional)
	if st >= 0 {
		return st
	}
	warnings := domain.Lint(f)
	if len(warnings) > 0 {
		fmt.Fprint(e.stdout, domain.Format(warnings, f.Source))
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
