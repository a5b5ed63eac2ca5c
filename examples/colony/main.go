// Command colony is a headless colony game on the engine model: hundreds of
// settlers of three kinds (workers, hunters, guards) whose goals, costs,
// capabilities and utilities all come from one file, domains/colony.yaml,
// resolved on one agent.Queue.
//
// The settlers keep the colony's wood (the fire burns it) and food (the
// meals eat it) stocked, and their own hunger, thirst and fatigue down.
// The world changes under them: groves, berry patches, wells and the deer
// herd run out and regrow, so a site is a target only while it has
// something left; raiders come on a seeded schedule and stay until guards
// and hunters drive them off or they leave, and settlers near them grow
// afraid and hide. Needs drift every tick by seeded amounts.
//
//	go run ./examples/colony -agents 200 -ticks 3000 -seed 1 -workers 2 -record colony.jsonl
//
// With -inspect ADDR the game serves the live inspector (package inspect,
// docs/inspector.md) on ADDR while it runs, and plays a tick every 100 ms
// (-tick-ms) so that a person can watch:
//
//	go run ./examples/colony -inspect localhost:6060 -ticks 100000
//
// The game is deterministic: the same flags give the same output and the
// same recording, whatever the number of workers. -record writes every
// decision the settlers made as a decision recording (docs/records.md),
// which `ploy replay` decides again from the file alone, and `ploy why`
// explains: the game uses the resolver's straight-line distances, no
// distance model of its own.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
)

func main() {
	err := run(os.Args[1:], os.Stdout, os.Stderr)
	var usage usageError
	switch {
	case errors.As(err, &usage):
		os.Exit(2)
	case err != nil:
		fmt.Fprintln(os.Stderr, "colony:", err)
		os.Exit(1)
	}
}

// usageError is a bad flag, already reported on stderr with the usage.
type usageError struct{ error }

// run plays one game with the flags in args, writing the summary (and with
// -v every event) to stdout and flag errors to stderr.
func run(args []string, stdout, stderr io.Writer) error {
	var o options
	fs := flag.NewFlagSet("colony", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.IntVar(&o.agents, "agents", 200, "how many settlers (`N`, 1 to 100000)")
	fs.IntVar(&o.ticks, "ticks", 3000, "how many ticks to play (`N`, 0 to 10000000)")
	fs.Uint64Var(&o.seed, "seed", 1, "the seed of every random choice (`N`)")
	fs.IntVar(&o.workers, "workers", 2, "the queue's workers (`N`, 1 to 256)")
	fs.IntVar(&o.minShare, "min-share", 1, "wake a queue worker only for `N` requests each (1 to 100000): a small frame is faster on fewer workers")
	fs.StringVar(&o.record, "record", "", "write every decision to `FILE` as a decision recording")
	fs.BoolVar(&o.verbose, "v", false, "write every event as it happens")
	fs.StringVar(&o.inspect, "inspect", "", "serve the live inspector on `ADDR` (host:port, the loopback) while the game runs")
	fs.IntVar(&o.tickMS, "tick-ms", 0, "wait `N` ms between ticks (0 to 10000; default 100 with -inspect, 0 without)")
	commitment := fs.Bool("commitment", true, "keep each kind's commitment: from the file; false chooses goals without it, to compare")
	if err := fs.Parse(args); err != nil {
		return usageError{err}
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "colony: unexpected argument %q\n", fs.Arg(0))
		fs.Usage()
		return usageError{fmt.Errorf("unexpected argument %q", fs.Arg(0))}
	}
	o.noCommitment = !*commitment
	paced := false
	fs.Visit(func(f *flag.Flag) { paced = paced || f.Name == "tick-ms" })
	if o.inspect != "" && !paced {
		o.tickMS = 100
	}
	for _, f := range []struct {
		name      string
		v, lo, hi int
	}{{"agents", o.agents, 1, 100000}, {"ticks", o.ticks, 0, 10000000}, {"workers", o.workers, 1, 256}, {"min-share", o.minShare, 1, 100000}, {"tick-ms", o.tickMS, 0, 10000}} {
		if f.v < f.lo || f.v > f.hi {
			err := fmt.Errorf("-%s %d: want %d to %d", f.name, f.v, f.lo, f.hi)
			fmt.Fprintln(stderr, "colony:", err)
			return usageError{err}
		}
	}
	c, err := newColony(o, stdout)
	if err != nil {
		return err
	}
	if c.ins != nil {
		ln, err := c.ins.Listen(o.inspect) // the loopback only
		if err != nil {
			return fmt.Errorf("-inspect: %w", err)
		}
		go c.ins.Serve(ln)
		fmt.Fprintf(stdout, "inspector: http://%s/api/v1/agents (the page: http://%s/; the game plays a tick every %d ms)\n", ln.Addr(), ln.Addr(), o.tickMS)
		defer c.ins.Close()
	}
	c.play()
	c.summary(stdout)
	if o.record != "" {
		return c.writeRecording(o.record, stdout)
	}
	return nil
}
