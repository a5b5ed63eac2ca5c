package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ploy-ai/ploy/arena"
)

func runArena(e *env, args []string) int {
	var fights int
	var seed uint64
	var kinds, record, plots string
	var asJSON, timing bool
	fset := flagSet(e, "arena", "[FILE] [flags]",
		"Fight the battle mage's batch of three-minute fights with every agent kind on\nthe same seeds and print one row per kind. The kinds are the file's agents:\n(the default's: GOAP, HTN interrupting, HTN replanning on break, behaviour\ntree, utility), or those five when it has none. FILE must define the battle\nmage's facts and actions (the default does). The same seed gives the same table.",
		`  ploy arena
  ploy arena --fights 10 --seed 7 --agents goap,htn
  ploy arena --json > table.json
  ploy arena --plots plots --record logs
`)
	fset.IntVar(&fights, "fights", 40, fmt.Sprintf("fights per agent kind (at most %d)", arena.MaxFights))
	fset.Uint64Var(&seed, "seed", 1, "seed of the batch: fight i of every kind is drawn from it")
	fset.StringVar(&kinds, "agents", "", "agent kinds to run, comma-separated (default: all of the file's)")
	fset.BoolVar(&asJSON, "json", false, "print the rows as a JSON array")
	fset.StringVar(&record, "record", "", "directory to write one event log per fight and kind (JSON lines, for replay)")
	fset.StringVar(&plots, "plots", "", "directory to write SVG charts into")
	fset.BoolVar(&timing, "timing", false, "add planning time per fight (the table then differs from run to run)")
	var maxRecord int64
	fset.Int64Var(&maxRecord, "max-record", defaultMaxRecord, "with --record: most `bytes` of event logs, estimated before the batch at about 400 KB per fight and kind")
	positional, st := parse(e, fset, args)
	if st >= 0 {
		return st
	}
	if fights < 1 || fights > arena.MaxFights {
		return usageErr(e, fset, "--fights must be from 1 to %d, not %d", arena.MaxFights, fights)
	}
	var named []string
	for _, name := range strings.Split(kinds, ",") {
		if name = strings.TrimSpace(name); name != "" {
			named = append(named, name)
		}
	}
	if kinds != "" && len(named) == 0 {
		return usageErr(e, fset, "--agents names no kind")
	}
	f, st := load(e, fset, positional)
	if st >= 0 {
		return st
	}
	chosen, err := arena.KindsOf(f)
	if err != nil {
		fmt.Fprintf(e.stderr, "ploy arena: %s\n", strings.TrimPrefix(err.Error(), "arena: "))
		return exitInvalid
	}
	if len(named) > 0 {
		if chosen, err = arena.Pick(chosen, named); err != nil {
			return usageErr(e, fset, "--agents: %s", err)
		}
	}
	if maxRecord < 1 {
		return usageErr(e, fset, "--max-record must be at least 1 byte, not %d", maxRecord)
	}
	// The logs grow with the fights and the kinds, and a file may describe
	// up to domain.MaxAgents kinds: 1 000 fights of 256 kinds would write
	// about 100 GB. Their size is estimated from the counts before a fight
	// is fought.
	if logs := int64(fights) * int64(len(chosen)) * recordPerFight; record != "" && logs > maxRecord {
		fmt.Fprintf(e.stderr, "ploy arena: --record would write about %d bytes of event logs (%d fights × %d kinds × about %d KB), more than --max-record (%d): fewer --fights or --agents, or raise --max-record\n",
			logs, fights, len(chosen), recordPerFight>>10, maxRecord)
		return exitInvalid
	}
	cfg := arena.Config{GOAP: f.GOAP, HTN: f.HTN, Fights: fights, Seed: seed, Kinds: chosen, Record: record, Timing: timing}
	if isTerminal(e.stderr) {
		start := time.Now()
		cfg.Progress = func(done, total int) { progress(e, done, total, start) }
	}
	tab, err := arena.Run(cfg)
	if cfg.Progress != nil {
		fmt.Fprint(e.stderr, "\r\033[K")
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "ploy arena: %s\n", strings.TrimPrefix(err.Error(), "arena: "))
		return exitInvalid
	}
	if asJSON {
		tab.WriteJSON(e.stdout)
	} else {
		tab.WriteText(e.stdout)
	}
	// Where the files went: after the table, or on standard error when
	// standard output is JSON.
	notes := e.stdout
	if asJSON {
		notes = e.stderr
	} else if len(tab.Logs) > 0 || plots != "" {
		fmt.Fprintln(notes)
	}
	switch n := len(tab.Logs); {
	case n == 1:
		fmt.Fprintf(notes, "event log: %s\n", tab.Logs[0])
	case n > 1:
		fmt.Fprintf(notes, "event logs: %d files in %s (%s to %s)\n", n, record, filepath.Base(tab.Logs[0]), filepath.Base(tab.Logs[n-1]))
	}
	if plots != "" {
		files, err := tab.WritePlots(plots)
		if err != nil {
			fmt.Fprintf(e.stderr, "ploy arena: %v\n", err)
			return exitInvalid
		}
		fmt.Fprintf(notes, "charts: %s\n", strings.Join(files, ", "))
	}
	return exitOK
}

// recordPerFight is about the most bytes a fight's event log takes: the
// battle mage's three-minute fights log 300 to 335 KB each.
const recordPerFight = 400 << 10

// defaultMaxRecord bounds --record's logs: the five built-in kinds at the
// most fights (about 2 GB) fit under it.
const defaultMaxRecord = 2 << 30

// isTerminal reports whether w is a character device, where a progress bar
// makes sense.
func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

func progress(e *env, done, total int, start time.Time) {
	const width = 30
	filled := width * done / total
	fmt.Fprintf(e.stderr, "\r[%s%s] %d/%d fights, %.1fs", strings.Repeat("=", filled), strings.Repeat(" ", width-filled), done, total, time.Since(start).Seconds())
}
