package cli

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/domain"
	"github.com/ploy-ai/ploy/internal/report"
	"github.com/ploy-ai/ploy/replay"
)

// maxRecording is the most bytes of a decision recording replay and why
// read: a flight recorder's default bound is tens of megabytes.
const maxRecording = 1 << 30

// openInput opens the file name for reading; one that cannot be opened is
// reported as FILE: why (the reason without the path repeated), and the
// answer is nil and the status of a bad input.
func openInput(e *env, name string) (*os.File, int) {
	f, err := os.Open(name)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		fmt.Fprintf(e.stderr, "%s: %v\n", name, err)
		return nil, exitInvalid
	}
	return f, -1
}

// openRecording opens the decision recording named by the positional
// arguments and reads its header; the caller reads its decisions one at a
// time and closes it. The status is -1 to go on.
func openRecording(e *env, fset *flag.FlagSet, positional []string) (*agent.RecordingReader, *os.File, int) {
	if len(positional) != 1 {
		return nil, nil, usageErr(e, fset, "give one decision recording (a .jsonl file an agent.FlightRecorder wrote), got %d arguments", len(positional))
	}
	name := positional[0]
	f, status := openInput(e, name)
	if f == nil {
		return nil, nil, status
	}
	rr, err := agent.NewRecordingReader(f, name, maxRecording)
	if err != nil {
		f.Close()
		fmt.Fprintf(e.stderr, "%s\n", err)
		return nil, nil, exitInvalid
	}
	return rr, f, -1
}

// recordedDomain loads the domain a recording is decided against: the one
// named by --domain, else the header's (a path as the game gave it, tried
// as given, then beside the recording, then as a shipped domain). It
// returns whether the file is the one recorded (its hash the header's).
func recordedDomain(e *env, fset *flag.FlagSet, h agent.RecordHeader, recPath, given string) (*domain.File, bool, int) {
	name := given
	if name == "" {
		name = h.Domain
		if name == "" {
			return nil, false, usageErr(e, fset, "the recording names no domain file (its game built its domain in Go): give one with --domain")
		}
		if _, err := os.Stat(name); err != nil && !filepath.IsAbs(name) {
			if beside := filepath.Join(filepath.Dir(recPath), name); fileExists(beside) {
				name = beside
			}
		}
	}
	path, src, err := read(e.stdin, []string{name})
	if err != nil {
		if _, positioned := err.(domain.ErrorList); positioned {
			fmt.Fprint(e.stderr, domain.Format(err, nil))
		} else {
			fmt.Fprintf(e.stderr, "ploy: %s\n", errorText(err))
		}
		return nil, false, exitInvalid
	}
	f, err := domain.Parse(path, src)
	if err != nil {
		fmt.Fprint(e.stderr, domain.Format(err, src))
		return nil, false, exitInvalid
	}
	return f, h.DomainHash == "" || agent.DomainHash(src) == h.DomainHash, -1
}

// kindFit watches the decisions a replay reads for one that domain f can
// decide: a state-space file cannot decide resolver agents' decisions,
// nor an engine-model one GOAP, HTN and tree agents'. A file that fits
// none of them is the wrong file, not an edit: every decision would
// otherwise come out "changed" (cannot be decided), and a regression
// test given the wrong file would report an edit. A recording whose
// decisions f decides only some of is replayed, the others listed.
type kindFit struct {
	f     *domain.File
	fits  bool
	seen  bool
	first agent.Decision // the first decision's tick, agent and kind
}

func (k *kindFit) see(d *agent.Decision) {
	if !k.seen {
		k.seen = true
		k.first = agent.Decision{Tick: d.Tick, Agent: d.Agent, Kind: d.Kind}
	}
	switch d.Kind {
	case "resolver":
		k.fits = k.fits || k.f.Resolver != nil
	case "goap", "htn", "tree":
		k.fits = k.fits || k.f.GOAP != nil
	default:
		k.fits = true // the replay says what is wrong with it
	}
}

// err says why the file fits none of the decisions seen, if it fits none.
func (k *kindFit) err() error {
	if !k.seen || k.fits {
		return nil
	}
	d := &k.first
	if d.Kind == "resolver" {
		return fmt.Errorf("%s is a state-space domain (facts:), and the recording's decisions are resolver agents' (the first %s's at tick %d): give the engine-model file (keys:) they were made with", k.f.Path, d.Agent, d.Tick)
	}
	return fmt.Errorf("%s is an engine-model domain (keys:), and the recording's decisions are %s agents' (the first %s's at tick %d): give the state-space file (facts:) they were made with", k.f.Path, d.Kind, d.Agent, d.Tick)
}

func fileExists(name string) bool {
	st, err := os.Stat(name)
	return err == nil && st.Mode().IsRegular()
}

// replaysPDDL says whether replay's arguments check a PDDL plan: the first
// positional argument, the recording or the domain, names a .pddl file
// (--domain's value may be a wrongly given .pddl file, which the
// recording's replay refuses).
func replaysPDDL(args []string) bool {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--domain" || a == "-domain" || a == "--max-changes" || a == "-max-changes" {
			i++ // the flag's value
			continue
		}
		if !strings.HasPrefix(a, "-") {
			return strings.HasSuffix(strings.ToLower(a), ".pddl")
		}
	}
	return false
}

func runReplay(e *env, args []string) int {
	if replaysPDDL(args) {
		return runPDDLReplay(e, args)
	}
	var domainFlag string
	var asJSON bool
	var maxChanges int
	fset := flagSet(e, "replay", "RECORDING [--domain FILE] [--json]",
		"Decide every decision of a decision recording again (docs/records.md), each\nfrom the snapshot it recorded, with its goal options, profile and limits.\nAgainst the recording's own domain every decision must come out as it did.\nWith --domain EDITED.yaml, list the decisions the edit changes (tick, agent,\nthe goal, plan and cost before and after) and sum them up: a regression test\nfor behaviour. Exit status 0 when nothing changed, 4 when something did.",
		`  ploy replay colony.jsonl
  ploy replay colony.jsonl --domain colony-edited.yaml
  ploy replay colony.jsonl --domain colony-edited.yaml --json
`)
	fset.StringVar(&domainFlag, "domain", "", "the domain `FILE` to decide against (default: the one the recording names)")
	fset.BoolVar(&asJSON, "json", false, `print one JSON object: {"decisions":N,"changed":M,"changes":[...]}`)
	fset.IntVar(&maxChanges, "max-changes", 1000, "most changes listed (all are counted)")
	positional, st := parse(e, fset, args)
	if st >= 0 {
		return st
	}
	if maxChanges < 0 {
		return usageErr(e, fset, "--max-changes must not be negative, not %d", maxChanges)
	}
	rr, file, st := openRecording(e, fset, positional)
	if st >= 0 {
		return st
	}
	defer file.Close()
	f, same, st := recordedDomain(e, fset, rr.Header(), file.Name(), domainFlag)
	if st >= 0 {
		return st
	}
	fit := kindFit{f: f}
	rep, err := replay.New(replay.FromFile(f)).RunFrom(func(d *agent.Decision) error {
		err := rr.Next(d)
		if err == nil {
			fit.see(d)
		}
		return err
	}, maxChanges)
	if err != nil {
		fmt.Fprintf(e.stderr, "%s\n", err)
		return exitInvalid
	}
	if err := fit.err(); err != nil {
		fmt.Fprintf(e.stderr, "ploy replay: %v\n", err)
		return exitInvalid
	}
	if !same && domainFlag == "" {
		fmt.Fprintf(e.stderr, "ploy replay: %s is not the file recorded (its hash differs): the changes below are an edit's\n", f.Path)
	}
	status := exitOK
	if rep.Changed > 0 {
		status = exitChanged
	}
	if asJSON {
		if st := writeJSONLine(e, "replay", rep, "the report", "lower --max-changes"); st >= 0 {
			return st
		}
		return status
	}
	for _, c := range rep.Changes {
		fmt.Fprintf(e.stdout, "tick %d, %s (%s %s): %s\n", c.Tick, c.Agent, c.Kind, c.Decided, changeText(c))
	}
	if len(rep.Changes) < rep.Changed {
		fmt.Fprintf(e.stdout, "... and %d more (--max-changes)\n", rep.Changed-len(rep.Changes))
	}
	fmt.Fprintf(e.stdout, "%d decisions decided again against %s: %d changed\n", rep.Decisions, f.Path, rep.Changed)
	return status
}

// changeText says what differs between a change's outcomes.
func changeText(c replay.Change) string {
	var parts []string
	b, a := c.Before, c.After
	for _, what := range c.What {
		switch what {
		case "goal":
			parts = append(parts, fmt.Sprintf("goal %s → %s", orNone(b.Goal), orNone(a.Goal)))
		case "plan":
			parts = append(parts, fmt.Sprintf("plan %s → %s", planText(b.Plan), planText(a.Plan)))
		case "cost":
			parts = append(parts, fmt.Sprintf("cost %s → %s", report.FormatCost(b.Cost), report.FormatCost(a.Cost)))
		case "status":
			parts = append(parts, fmt.Sprintf("status %s → %s", b.Status, a.Status))
		case "taken":
			parts = append(parts, fmt.Sprintf("taken %v → %v", b.Taken, a.Taken))
		case "error":
			parts = append(parts, "cannot be decided: "+a.Error)
		}
	}
	return strings.Join(parts, "; ")
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

func planText(plan []string) string {
	if len(plan) == 0 {
		return "(none)"
	}
	return strings.Join(plan, ", ")
}

func runWhy(e *env, args []string) int {
	var domainFlag, agentName string
	var tick int
	var asJSON bool
	fset := flagSet(e, "why", "RECORDING --agent NAME --tick T [--json]",
		"Say why an agent did what it did: its decision at tick T (or its last before\nT) in a decision recording, as a person reads it: the goal options and their\nscores, why this goal, the plan with each step's cost, what the search turned\ndown and why (searched again from the recorded snapshot with the trace on),\nand what changed since the agent's previous decision.",
		`  ploy why colony.jsonl --agent settler-17 --tick 1200
  ploy why colony.jsonl --agent settler-17 --tick 1200 --json
`)
	fset.StringVar(&agentName, "agent", "", "the agent's `NAME`, as its events and records give it")
	fset.IntVar(&tick, "tick", -1, "the `TICK`: the decision at it, or the agent's last before it")
	fset.StringVar(&domainFlag, "domain", "", "the domain `FILE` to search again against (default: the one the recording names)")
	fset.BoolVar(&asJSON, "json", false, "print one JSON object (fields in docs/records.md)")
	positional, st := parse(e, fset, args)
	if st >= 0 {
		return st
	}
	if agentName == "" {
		return usageErr(e, fset, "--agent is required: the agent to ask about")
	}
	if tick < 0 {
		return usageErr(e, fset, "--tick is required, a tick of 0 or more")
	}
	rr, file, st := openRecording(e, fset, positional)
	if st >= 0 {
		return st
	}
	defer file.Close()
	found, _, err := replay.FindFrom(rr.Next, agentName, tick)
	if err != nil {
		if strings.HasPrefix(err.Error(), file.Name()) {
			fmt.Fprintf(e.stderr, "%s\n", err) // the file's own error, positioned
		} else {
			fmt.Fprintf(e.stderr, "ploy why: %s\n", err)
		}
		return exitInvalid
	}
	f, same, st := recordedDomain(e, fset, rr.Header(), file.Name(), domainFlag)
	if st >= 0 {
		return st
	}
	if !same && domainFlag == "" {
		fmt.Fprintf(e.stderr, "ploy why: %s is not the file recorded (its hash differs): what was turned down is searched against it\n", f.Path)
	}
	answer := replay.New(replay.FromFile(f)).WhyOf(&found.Decision, found.Previous)
	if asJSON {
		if st := writeJSONLine(e, "why", answer, "the answer", "ask about another tick"); st >= 0 {
			return st
		}
		return exitOK
	}
	if err := answer.WriteText(e.stdout); err != nil {
		return exitInvalid
	}
	return exitOK
}
