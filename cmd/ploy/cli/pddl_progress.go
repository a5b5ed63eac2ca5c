package cli

import (
	"fmt"
	"io"
	"time"

	"github.com/ploy-ai/ploy/strips"
)

// stderrIsTerminal decides whether `ploy plan` shows a PDDL search's
// progress; tests replace it.
var stderrIsTerminal = isTerminal

// progressGap is the least time between two reports within an f layer:
// a new layer is always shown, a search that stays in one is shown about
// once a second.
const progressGap = time.Second

// searchProgress returns the Options.Progress that prints a long PDDL
// search's progress on w, as the competitions' planners print it: one
// line per f layer (the least cost a plan can still have), with the
// states expanded, the rate, and the memory held.
func searchProgress(w io.Writer) func(strips.Progress) {
	start := time.Now()
	var last time.Time
	return func(p strips.Progress) {
		now := time.Now()
		if !p.NewLayer && now.Sub(last) < progressGap {
			return
		}
		last = now
		rate := float64(p.Expanded) / max(now.Sub(start).Seconds(), 1e-3)
		fmt.Fprintf(w, "f = %d [%s] %d expanded, %d evaluated, %.0f/s, %s held\n",
			p.F, p.Heuristic, p.Expanded, p.Evaluated, rate, bytesText(p.Bytes))
	}
}

// bytesText writes a byte count in the largest binary unit it fills.
func bytesText(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
