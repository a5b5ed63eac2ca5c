package domain_test

import (
	"fmt"
	"io/fs"
	"strings"
	"testing"
	"unicode"

	"github.com/ploy-ai/ploy/domain"
	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/htn"
)

func loadShipped(t *testing.T, name string) *domain.File {
	t.Helper()
	src, err := fs.ReadFile(domains.Files, name)
	if err != nil {
		t.Fatal(err)
	}
	f, err := domain.Parse(name, src)
	if err != nil {
		t.Fatalf("%s:\n%s", name, domain.Format(err, src))
	}
	return f
}

// describe renders a compiled domain completely enough that two domains
// with the same rendering plan identically: facts, initial state, each
// action's preconditions, effects and cost in every state, goals and the
// HTN's tasks and methods.
func describe(g *goap.Domain, h *htn.Domain) string {
	s := fmt.Sprintf("%s %v %s\n", g.Name(), g.Facts(), g.FormatState(g.Initial()))
	for a := goap.ActionID(0); int(a) < g.NumActions(); a++ {
		s += fmt.Sprintf("%s %s %s", g.ActionName(a), g.FormatCondition(g.Preconditions(a)), g.FormatCondition(g.Effects(a)))
		for bits := uint64(0); bits < 1<<g.NumFacts(); bits++ {
			st := g.NewState()
			st.Words()[0] = bits
			s += fmt.Sprintf(" %g", g.CostIn(a, st))
		}
		s += "\n"
	}
	for _, goal := range g.Goals() {
		s += goal.Name() + " " + g.FormatCondition(goal.Condition()) + "\n"
	}
	if h != nil {
		s += "root " + h.TaskName(h.Root()) + "\n"
		for t := htn.Task(0); int(t) < h.NumTasks(); t++ {
			for m := 0; m < h.NumMethods(t); m++ {
				s += fmt.Sprintf("%s.%s %s", h.TaskName(t), h.MethodName(t, m), g.FormatCondition(h.MethodCondition(t, m)))
				for _, sub := range h.Subtasks(t, m) {
					s += " " + h.TaskName(sub)
				}
				s += "\n"
			}
		}
	}
	return s
}

func TestShippedFilesMatchGoSpecs(t *testing.T) {
	for _, tc := range []struct {
		file string
		spec goap.Spec
		htn  *htn.Spec
	}{
		{"battlemage.yaml", domains.BattleMage(), ptr(domains.BattleMageHTN())},
		{"soldier.yaml", domains.Soldier(), nil},
	} {
		f := loadShipped(t, tc.file)
		g, err := goap.NewDomain(tc.spec)
		if err != nil {
			t.Fatal(err)
		}
		var h *htn.Domain
		if tc.htn != nil {
			if h, err = htn.NewDomain(g, *tc.htn); err != nil {
				t.Fatal(err)
			}
		}
		if got, want := describe(f.GOAP, f.HTN), describe(g, h); got != want {
			t.Errorf("%s differs from its Go spec:\nfile:\n%s\nGo:\n%s", tc.file, got, want)
		}
	}
}

func ptr[T any](v T) *T { return &v }

// TestPathologicalInputIsRefusedEarly checks the guards that keep the YAML
// parser, whose time grows faster than linearly with nesting, from being
// handed a file that would take it minutes.
func TestPathologicalInputIsRefusedEarly(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
	}{
		{"brackets", "name: x\nfacts: " + strings.Repeat("[", 100000), "x.yaml:2:71: nesting deeper than 64 levels"},
		{"braces across lines", "name: x\nfacts:\n" + strings.Repeat("{\n", 100), "x.yaml:66:1: nesting deeper than 64 levels"},
		{"dashes", strings.Repeat("- ", 50000), "x.yaml:1:129: nesting deeper than 64 levels"},
		{"size", "name: x\nfacts: [a]\n" + strings.Repeat("# padding\n", domain.MaxFileSize/10+1), "x.yaml: file is larger than 8 MiB"},
	} {
		_, err := domain.Parse("x.yaml", []byte(tc.src))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %s...", tc.name, err, tc.want)
		}
	}
	// Quoted and commented brackets do not nest.
	src := "name: x # [[[[\nfacts: ['[[[[[[', \"{{{{\\\"{{{{\"]\n"
	if _, err := domain.Parse("x.yaml", []byte(strings.Replace(src, "[[[[", strings.Repeat("[", 100), 1))); err != nil {
		t.Errorf("brackets in comments and quotes counted as nesting: %v", err)
	}
}

func TestFormatWindowsLongLinesAndEscapes(t *testing.T) {
	long := strings.Repeat("a", 1000) + "X" + strings.Repeat("b", 1000)
	for _, tc := range []struct {
		name, line string
		col        int
		echo       string // the echoed line, without the gutter
	}{
		{"short", "name: x", 7, "name: x"},
		{"middle of a long line", long, 1001, "…" + strings.Repeat("a", 100) + "X" + strings.Repeat("b", 99) + "…"},
		{"start of a long line", long, 1, strings.Repeat("a", 200) + "…"},
		{"end of a long line", long, 2001, "…" + strings.Repeat("b", 200)},
		{"past the end of a long line", long, 5000, "…" + strings.Repeat("b", 200)},
		{"escapes", "name: \x1b[31mred\x00\xff\u202e", 7, `name: \x1b[31mred\x00\xff\u202e`},
	} {
		err := &domain.Error{File: "f\x1b.yaml", Pos: domain.Pos{Line: 1, Col: tc.col}, Msg: "bad \x07"}
		got := domain.Format(err, []byte(tc.line))
		lines := strings.Split(got, "\n")
		if lines[0] != fmt.Sprintf(`f\x1b.yaml:1:%d: bad \a`, tc.col) {
			t.Errorf("%s: message line %q", tc.name, lines[0])
		}
		if echo := strings.TrimPrefix(lines[1], "    1 | "); echo != tc.echo {
			t.Errorf("%s: echo\n%q, want\n%q", tc.name, echo, tc.echo)
		}
		if c := strings.Index(lines[2], "^") - len("      | "); c < 0 || []rune(lines[1][len("    1 | "):])[min(c, len([]rune(tc.echo))-1)] != []rune(tc.echo)[min(c, len([]rune(tc.echo))-1)] {
			t.Errorf("%s: caret at %d", tc.name, c)
		}
		for _, r := range got {
			if r != '\n' && !unicode.IsPrint(r) {
				t.Errorf("%s: unprintable %q in %q", tc.name, r, got)
			}
		}
	}
}
