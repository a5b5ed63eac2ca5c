// Package cli is the ploy command (cmd/ploy is its one-line main): each
// subcommand is a file here, with its flags in its own FlagSet, so that
// tests run the command in-process. It is the command's code, not a
// library: its API may change with any release.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"runtime/debug"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/ploy-ai/ploy/domain"
	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/internal/buildinfo"
	"github.com/ploy-ai/ploy/internal/report"
	"github.com/ploy-ai/ploy/internal/suggest"
)

// Exit statuses: the contract of every subcommand.
const (
	exitOK      = 0 // a plan was found (an empty plan included), or the command did its job
	exitInvalid = 1 // invalid input: the domain file has errors (printed as FILE:LINE:COL)
	exitUsage   = 2 // a usage error: unknown command or flag, missing or bad flag value
	exitNoPlan  = 3 // the planner ran and found no plan (no plan, budget, depth, step limit)
	exitChanged = 4 // replay: a decision came out otherwise against the domain given, or a PDDL plan is invalid
)

// env is what a subcommand runs with.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	// out, for a command in outputLimited, is stdout with its bound.
	out *limitedOutput
}

type command struct {
	name    string
	summary string
	run     func(e *env, args []string) int
}

var commands []command

func init() {
	commands = []command{
		{"plan", "plan a goal with GOAP from the file's initial state", runPlan},
		{"resolve", "resolve a goal of an engine-model file (keys:) to a least-cost chain", runResolve},
		{"graph", "print an engine-model file's action graph: which action serves which condition", runGraph},
		{"htn", "decompose the file's HTN root task", runHTN},
		{"trace", "show a GOAP search or an HTN decomposition step by step", runTrace},
		{"explain", "say why there is no plan, or why the plan beat the alternatives", runExplain},
		{"lint", "warn about what a designer wants to know before run time", runLint},
		{"replay", "decide a decision recording's decisions again; with --domain, what an edit changes", runReplay},
		{"why", "say why an agent of a decision recording did what it did at a tick", runWhy},
		{"arena", "fight the 40-fight batch with every agent kind and compare them", runArena},
		{"serve", "serve the web app and its JSON API (docs/api.md) on loopback", runServe},
		{"site", "write the web app's figures as a static site that plans in the browser (WebAssembly)", runSite},
		{"version", "print ploy's version", runVersion},
		{"help", "show help for ploy or a command", runHelp},
	}
}

// memoryLimit is the soft memory limit the command gives the Go runtime
// (unless GOMEMLIMIT says otherwise). Everything it holds is bounded: a
// search by search.DefaultMaxBytes (256 MiB), a file by domain.MaxFileSize;
// so a heap growing past this is mostly garbage, which the collector then
// takes back at once rather than let the process grow to twice what it
// holds (GOGC's default). The attack tests hold ploy to 512 MiB of RSS.
const memoryLimit = 384 << 20

// Main runs ploy with the given arguments and returns its exit status.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr}
	if len(args) == 0 {
		usage(stderr)
		return exitUsage
	}
	name := args[0]
	switch name {
	case "-h", "--help", "-help":
		usage(stdout)
		return exitOK
	case "--version", "-version":
		return runVersion(e, args[1:])
	}
	for _, c := range commands {
		if c.name == name {
			if outputLimited[name] {
				e.out = &limitedOutput{w: stdout, max: defaultMaxOutput}
				e.stdout = e.out
			}
			return outputCut(e, name, c.run(e, args[1:]))
		}
	}
	msg := fmt.Sprintf("ploy: unknown command %q", name)
	var names []string
	for _, c := range commands {
		names = append(names, c.name)
	}
	if s := suggest.Closest(name, names); s != "" {
		msg += fmt.Sprintf("; did you mean %q?", s)
	}
	fmt.Fprintln(stderr, msg)
	fmt.Fprintln(stderr, "run 'ploy help' for the commands")
	return exitUsage
}

func usage(w io.Writer) {
	fmt.Fprint(w, `ploy plans game-AI domains: GOAP searches, HTN decompositions, their traces.

Usage:
  ploy COMMAND [FILE] [flags]

Commands:
`)
	for _, c := range commands {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(w, `
FILE is a domain file (YAML): a state-space file (facts:) for plan, htn and
the arena, or an engine-model file (keys:, seed 003's world keys with
directions) for resolve and graph; trace, explain and lint take either, and
the file's kind decides. Without FILE, ploy uses the embedded battle-mage
domain of lessons 4 and 5 (resolve and graph: the embedded survivor.yaml). The
shipped domains can be named without a path: %s.
plan, trace, explain and lint also take a PDDL domain and problem, two files
ending in .pddl, and plan them optimally (see docs/pddl.md).

Exit status: 0 a plan was found (or the command did its job), 1 invalid input,
2 a usage error, 3 the planner ran and found no plan, 4 (replay) a decision
came out otherwise.

Run 'ploy help COMMAND' or 'ploy COMMAND --help' for a command's flags.
`, strings.Join(shipped(), ", "))
}

func shipped() []string {
	entries, _ := fs.ReadDir(domains.Files, ".")
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	sort.Strings(out)
	return out
}

// runVersion prints the version the binary was built from
// (buildinfo.Version).
func runVersion(e *env, args []string) int {
	if len(args) > 0 {
		fmt.Fprintf(e.stderr, "ploy version: takes no arguments, got %q\n", args[0])
		return exitUsage
	}
	fmt.Fprintf(e.stdout, "ploy %s\n", buildinfo.Version())
	return exitOK
}

func runHelp(e *env, args []string) int {
	if len(args) == 0 {
		usage(e.stdout)
		return exitOK
	}
	for _, c := range commands {
		if c.name == args[0] && c.name != "help" {
			if outputLimited[c.name] { // so that its help lists --max-output
				e.out = &limitedOutput{w: e.stdout, max: defaultMaxOutput}
			}
			return c.run(e, []string{"--help"})
		}
	}
	if len(args) == 1 && args[0] == "help" {
		usage(e.stdout)
		return exitOK
	}
	fmt.Fprintf(e.stderr, "ploy help: unknown command %q\n", args[0])
	return exitUsage
}

// flagSet makes a subcommand's flag set, with its usage text: a synopsis,
// the flags and examples.
func flagSet(e *env, name, synopsis, about, examples string) *flag.FlagSet {
	fset := flag.NewFlagSet("ploy "+name, flag.ContinueOnError)
	fset.SetOutput(e.stderr)
	registerMaxOutput(e, fset)
	fset.Usage = func() {
		w := fset.Output()
		fmt.Fprintf(w, "Usage: ploy %s %s\n\n%s\n\nFlags:\n", name, synopsis, about)
		fset.PrintDefaults()
		fmt.Fprintf(w, "\nExamples:\n%s", examples)
	}
	return fset
}

// parse parses args, allowing positional arguments among the flags
// (`ploy plan FILE --goal Kill` as well as `ploy plan --goal Kill FILE`).
// A request for help prints the usage to stdout and returns exitOK; a bad
// flag returns exitUsage; otherwise parse returns -1.
func parse(e *env, fset *flag.FlagSet, args []string) (positional []string, status int) {
	// The flag package prints the usage itself, to stderr, on -h and on a
	// bad flag: silence it, and print it once, to stdout, on request.
	printUsage := fset.Usage
	fset.Usage = func() {}
	for {
		if err := fset.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fset.SetOutput(e.stdout)
				printUsage()
				return nil, exitOK
			}
			fmt.Fprintf(e.stderr, "run '%s --help' for usage\n", fset.Name())
			return nil, exitUsage
		}
		args = fset.Args()
		if len(args) == 0 {
			return positional, -1
		}
		positional = append(positional, args[0])
		args = args[1:]
	}
}

func usageErr(e *env, fset *flag.FlagSet, format string, args ...any) int {
	fmt.Fprintf(e.stderr, "%s: %s\n", fset.Name(), fmt.Sprintf(format, args...))
	fmt.Fprintf(e.stderr, "run '%s --help' for usage\n", fset.Name())
	return exitUsage
}

// parseAndLoad parses a subcommand's arguments and loads its domain file;
// the second result is the exit status to return, or -1 to go on.
func parseAndLoad(e *env, fset *flag.FlagSet, args []string) (*domain.File, int) {
	positional, st := parse(e, fset, args)
	if st >= 0 {
		return nil, st
	}
	return load(e, fset, positional)
}

// load reads the domain file named by the positional arguments, or the
// embedded default. Errors are printed for a person, with the offending
// line; the second result is the exit status to return, or -1.
func load(e *env, fset *flag.FlagSet, positional []string) (*domain.File, int) {
	if len(positional) > 1 {
		return nil, usageErr(e, fset, "one domain file at most, got %d: %s", len(positional), strings.Join(positional, " "))
	}
	name, src, err := read(e.stdin, positional)
	if err != nil {
		if _, positioned := err.(domain.ErrorList); positioned {
			fmt.Fprint(e.stderr, domain.Format(err, nil))
		} else {
			fmt.Fprintf(e.stderr, "ploy: %s\n", errorText(err))
		}
		return nil, exitInvalid
	}
	f, err := domain.Parse(name, src)
	if err != nil {
		fmt.Fprint(e.stderr, domain.Format(err, src))
		return nil, exitInvalid
	}
	return f, -1
}

// errorText is err's message for a person, without the library
// packages' prefixes (report.ErrorText).
func errorText(err error) string { return report.ErrorText(err) }

// read returns the named domain file: standard input for "-", from disk,
// or else a shipped one of that name, or the default when no name is
// given. Whatever the source, at most domain.MaxFileSize bytes are read.
func read(stdin io.Reader, positional []string) (name string, src []byte, err error) {
	if len(positional) == 0 {
		src, err = fs.ReadFile(domains.Files, domains.Default)
		return domains.Default, src, err
	}
	name = positional[0]
	if name == "-" {
		src, err = domain.ReadFrom("<stdin>", stdin)
		return "<stdin>", src, err
	}
	src, err = domain.ReadFile(name)
	if shipped := embedded(name); errors.Is(err, fs.ErrNotExist) && shipped != "" {
		src, err = fs.ReadFile(domains.Files, shipped)
		return shipped, src, err
	}
	// A file that cannot be read is reported like the loader's errors,
	// FILE: message, with the name escaped if it holds control characters.
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = domain.ErrorList{{File: name, Msg: pe.Err.Error()}}
	}
	return name, src, err
}

// embedded returns the shipped file a name refers to ("soldier",
// "soldier.yaml"), or "".
func embedded(name string) string {
	for _, s := range shipped() {
		if name == s || name+".yaml" == s {
			return s
		}
	}
	return ""
}

// listFlag collects comma-separated values over repeated flags.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

func (l *listFlag) Set(v string) error {
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			*l = append(*l, s)
		}
	}
	return nil
}

// inputValues are the file's inputs' defaults with --input NAME=VALUE
// applied.
func inputValues(e *env, fset *flag.FlagSet, f *domain.File, given listFlag) ([]float64, int) {
	values := f.InputDefaults()
	var names []string
	for _, in := range f.Inputs {
		names = append(names, in.Name)
	}
	for _, kv := range given {
		name, text, found := strings.Cut(kv, "=")
		name, text = strings.TrimSpace(name), strings.TrimSpace(text)
		i := slices.Index(names, name)
		switch {
		case !found:
			return nil, usageErr(e, fset, "--input %q: write NAME=VALUE, such as health=30", kv)
		case i < 0 && len(names) == 0:
			return nil, usageErr(e, fset, "--input: unknown input %q: the file declares no inputs", name)
		case i < 0:
			return nil, usageErr(e, fset, "--input: unknown input %q%s", name, suggestion(name, names, "the file's inputs"))
		}
		v, err := strconv.ParseFloat(text, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, usageErr(e, fset, "--input %s: %q is not a finite number", name, text)
		}
		values[i] = v
	}
	return values, -1
}

// htnStart is the start state of an HTN command (--set and --unset applied
// to the file's initial state), or an error if the file has no htn section.
func htnStart(e *env, fset *flag.FlagSet, f *domain.File, sf searchFlags) (goap.State, int) {
	// --agent and --input weigh a GOAP agent's goals: given with --htn
	// they would be ignored, so they are refused, as the API refuses them.
	if sf.agent != "" {
		return goap.State{}, usageErr(e, fset, "--agent with --htn: to decompose as an HTN agent, run ploy htn --agent %s", sf.agent)
	}
	if len(sf.inputs) > 0 {
		return goap.State{}, usageErr(e, fset, "--input with --htn: inputs weigh a GOAP agent's goals; an HTN decomposes its root task")
	}
	if f.HTN == nil {
		fmt.Fprintf(e.stderr, "%s: the domain has no htn section\n", f.Path)
		return goap.State{}, exitInvalid
	}
	return startState(e, fset, f.GOAP, sf.set, sf.unset)
}

// startState is the file's initial state with --set and --unset applied.
func startState(e *env, fset *flag.FlagSet, g *goap.Domain, set, unset listFlag) (goap.State, int) {
	s := g.Initial()
	both := map[string]bool{}
	for _, list := range []struct {
		names listFlag
		value bool
		flag  string
	}{{set, true, "--set"}, {unset, false, "--unset"}} {
		for _, name := range list.names {
			f, ok := g.Fact(name)
			if !ok {
				msg := fmt.Sprintf("%s: unknown fact %q", list.flag, name)
				if sg := suggest.Closest(name, g.Facts()); sg != "" {
					msg += fmt.Sprintf("; did you mean %q?", sg)
				}
				return s, usageErr(e, fset, "%s", msg)
			}
			if both[name] && !list.value {
				return s, usageErr(e, fset, "fact %q is both set and unset", name)
			}
			both[name] = list.value
			s.Set(f, list.value)
		}
	}
	return s, -1
}

// goalByName resolves --goal, with a suggestion.
func goalByName(e *env, fset *flag.FlagSet, g *goap.Domain, name string) (*goap.Goal, int) {
	if name == "" {
		var names []string
		for _, goal := range g.Goals() {
			names = append(names, goal.Name())
		}
		return nil, usageErr(e, fset, "--goal is required; the domain's goals: %s", strings.Join(names, ", "))
	}
	if goal := g.Goal(name); goal != nil {
		return goal, -1
	}
	var names []string
	for _, goal := range g.Goals() {
		names = append(names, goal.Name())
	}
	return nil, usageErr(e, fset, "unknown goal %q%s", name, suggestion(name, names, "the domain's goals"))
}

// suggestion ends a message about an unknown name: the closest of names,
// or else, when listed says what they are ("the domain's goals"), all of
// them.
func suggestion(name string, names []string, listed string) string {
	if s := suggest.Closest(name, names); s != "" {
		return fmt.Sprintf("; did you mean %q?", s)
	}
	if listed == "" {
		return ""
	}
	return "; " + listed + ": " + strings.Join(names, ", ")
}
