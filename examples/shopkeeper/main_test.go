package main

import (
	"bytes"
	"flag"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/agent"
)

var update = flag.Bool("update", false, "rewrite testdata/shopkeeper.golden")

var asks = []string{"tea", "lamp", "soap", "vase", "rope"}

// TestOutputIsTheGolden compares the story with
// testdata/shopkeeper.golden (go test -update rewrites it after a change
// that is meant), and a second run with the first.
func TestOutputIsTheGolden(t *testing.T) {
	var out, again bytes.Buffer
	if _, err := Run(asks, 500, &out); err != nil {
		t.Fatal(err)
	}
	Run(asks, 500, &again)
	if out.String() != again.String() {
		t.Fatal("two runs of the same shop differ")
	}
	if *update {
		if err := os.WriteFile("testdata/shopkeeper.golden", out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile("testdata/shopkeeper.golden")
	if err != nil {
		t.Fatal(err)
	}
	if out.String() != string(want) {
		t.Errorf("output differs from testdata/shopkeeper.golden:\n%s", out.String())
	}
}

// firstChains returns, per customer, the first chain the shopkeeper
// resolved for them.
func firstChains(s *Shop) []string {
	var out []string
	fresh := true
	for _, e := range s.Events.Events {
		switch {
		case e.Kind == agent.PlanMade && fresh:
			out = append(out, strings.Join(e.Plan, " "))
			fresh = false
		case e.Kind == agent.StepDone && e.Action == "HandOver":
			fresh = true
		}
	}
	return out
}

// TestTheLadderOnlyForHighShelves: the ladder is fetched for the lamp and
// the rope (high, and the ladder elsewhere), not for the tea and the soap
// (low), nor for the vase (high, but the ladder still stands under it).
func TestTheLadderOnlyForHighShelves(t *testing.T) {
	s, err := Run(asks, 500, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	const ladder, reach = "FetchLadder PlaceLadder TakeItem HandOver", "TakeItem HandOver"
	want := []string{reach, ladder, reach, reach, ladder}
	got := firstChains(s)
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("first chains per customer:\n got %q\nwant %q", got, want)
	}
	if s.Served != len(asks) {
		t.Errorf("served %d of %d", s.Served, len(asks))
	}
	// The same tea, moved to a high shelf, needs the ladder.
	high, err := NewShop([]string{"tea"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	high.Items["tea"].High = true
	for high.Served == 0 && high.Tick < 100 {
		high.Step()
	}
	if got := firstChains(high); len(got) != 1 || got[0] != ladder || high.Served != 1 {
		t.Errorf("the tea on a high shelf: chains %q, served %d", got, high.Served)
	}
}

func TestUnknownItem(t *testing.T) {
	if _, err := NewShop([]string{"teapot"}, io.Discard); err == nil || err.Error() != `the shop has no "teapot"` {
		t.Errorf("got %v", err)
	}
}
