package cli

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/internal/testkit/camp"
)

// campFiles writes a camp recording and survivor.yaml edited by edit
// into a new directory, and returns their paths.
func campFiles(t *testing.T, edit func(string) string) (rec, edited string) {
	t.Helper()
	dir := t.TempDir()
	src, err := os.ReadFile("../../../domains/survivor.yaml")
	if err != nil {
		t.Fatal(err)
	}
	text := edit(string(src))
	if text == string(src) {
		t.Fatal("the edit did not apply: survivor.yaml has changed")
	}
	edited = filepath.Join(dir, "edited.yaml")
	rec = filepath.Join(dir, "camp.jsonl")
	if err := os.WriteFile(edited, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(rec, camp.Record(t, camp.Options{Agents: 10, Ticks: 150, Workers: 1}), 0o644); err != nil {
		t.Fatal(err)
	}
	return rec, edited
}

func dearForage(s string) string {
	return strings.Replace(s, "    cost: 3\n    target: berries", "    cost: 30\n    target: berries", 1)
}

// TestReplayTextListsTheChanges: the text report lists each change
// (tick, agent, kind, what: plan and cost before → after), at most
// --max-changes of them and how many more, and sums up; exit status 4.
func TestReplayTextListsTheChanges(t *testing.T) {
	rec, edited := campFiles(t, dearForage)
	st, out, errs := runPloy(t, "replay", rec, "--domain", edited, "--max-changes", "2")
	if st != exitChanged || errs != "" {
		t.Fatalf("status %d, want 4 and nothing on stderr (the edit is the one asked for)\n%s%s", st, out, errs)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	change := regexp.MustCompile(`^tick \d+, s\d\d \(resolver plan\): (goal \S+ → \S+; )?(plan [A-Za-z, ]+ → [A-Za-z, ()]+; )?cost [0-9.]+ → [0-9.]+$`)
	if len(lines) != 4 || !change.MatchString(lines[0]) || !change.MatchString(lines[1]) {
		t.Fatalf("want two changes, how many more and the sum:\n%s", out)
	}
	more := regexp.MustCompile(`^\.\.\. and (\d+) more \(--max-changes\)$`).FindStringSubmatch(lines[2])
	sum := regexp.MustCompile(`^(\d+) decisions decided again against .*edited\.yaml: (\d+) changed$`).FindStringSubmatch(lines[3])
	if more == nil || sum == nil || atoi(t, more[1])+2 != atoi(t, sum[2]) {
		t.Fatalf("the count of more changes and the sum disagree:\n%s", out)
	}
	if st, _, errs := runPloy(t, "replay", rec, "--max-changes", "-1"); st != exitUsage || !strings.Contains(errs, "--max-changes must not be negative") {
		t.Errorf("--max-changes -1: status %d, %s", st, errs)
	}
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestReplayFindsTheRecordedDomain: with no --domain, the domain the
// header names is looked for beside the recording before the shipped
// ones; one that is not the file recorded (its hash differs) is said so,
// by replay and by why.
func TestReplayFindsTheRecordedDomain(t *testing.T) {
	rec, edited := campFiles(t, dearForage)
	st, out, errs := runPloy(t, "replay", rec)
	if st != exitOK || errs != "" || !strings.Contains(out, "survivor.yaml: 0 changed") {
		t.Fatalf("the shipped survivor.yaml: status %d\n%s%s", st, out, errs)
	}
	beside := filepath.Join(filepath.Dir(rec), "survivor.yaml")
	if err := os.Rename(edited, beside); err != nil {
		t.Fatal(err)
	}
	st, out, errs = runPloy(t, "replay", rec)
	if st != exitChanged || !strings.Contains(errs, "ploy replay: "+beside+" is not the file recorded") {
		t.Fatalf("an edited survivor.yaml beside the recording: status %d\n%s%s", st, out, errs)
	}
	st, _, errs = runPloy(t, "why", rec, "--agent", "s01", "--tick", "100")
	if st != exitOK || !strings.Contains(errs, "ploy why: "+beside+" is not the file recorded") {
		t.Fatalf("why, an edited survivor.yaml beside the recording: status %d\n%s", st, errs)
	}
}

// TestWhyWithTheDomainGivenSaysNothingOfIt: ploy why against a domain
// given with --domain does not warn that it is not the file recorded.
func TestWhyWithTheDomainGivenSaysNothingOfIt(t *testing.T) {
	rec, edited := campFiles(t, dearForage)
	if st, out, errs := runPloy(t, "why", rec, "--agent", "s01", "--tick", "100", "--domain", edited); st != exitOK || errs != "" || out == "" {
		t.Fatalf("status %d\n%s%s", st, out, errs)
	}
}

// TestReplayAndWhyUsage: the arguments replay and why need are named
// when missing.
func TestReplayAndWhyUsage(t *testing.T) {
	rec, _ := campFiles(t, dearForage)
	noDomain := filepath.Join(filepath.Dir(rec), "nodomain.jsonl")
	if err := os.WriteFile(noDomain, []byte(`{"format":"ploy-decisions","version":1,"decisions":0,"dropped":0}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"replay"}, "give one decision recording"},
		{[]string{"replay", rec, rec}, "give one decision recording (a .jsonl file an agent.FlightRecorder wrote), got 2 arguments"},
		{[]string{"replay", noDomain}, "the recording names no domain file"},
		{[]string{"why", rec, "--agent", "s00"}, "--tick is required"},
		{[]string{"why", rec, "--agent", "s00", "--tick", "-3"}, "--tick is required"},
	} {
		if st, _, errs := runPloy(t, tc.args...); st != exitUsage || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: status %d, %s; want usage: %s", tc.args, st, errs, tc.want)
		}
	}
	if st, out, errs := runPloy(t, "why", rec, "--agent", "s00", "--tick", "0"); st != exitInvalid || out != "" || errs == "" {
		t.Errorf("why at tick 0, before any decision: status %d\n%s%s", st, out, errs)
	}
}

// TestReplayNamesEachKindOfChange: a change of goal, and a decision the
// edited domain cannot decide (a key renamed: no plan now, and why), are
// each said in words.
func TestReplayNamesEachKindOfChange(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(string) string
		want string
	}{
		{"goal", func(s string) string {
			return strings.Replace(s, "      - {goal: Fed, utility: {input: hunger, points: [[30, 0], [100, 10]]}}\n  - name: wounded",
				"      - {goal: Fed, utility: {input: hunger, points: [[0, 20], [100, 30]]}}\n  - name: wounded", 1)
		}, "goal Warm → Fed"},
		{"cannot be decided", func(s string) string {
			return strings.ReplaceAll(s, "has_food", "has_meal")
		}, " → (none); cost "},
		{"cannot be decided, in words", func(s string) string {
			return strings.ReplaceAll(s, "has_food", "has_meal")
		}, "status found → error; cannot be decided: the recorded snapshot does not fit the domain"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec, edited := campFiles(t, tc.edit)
			st, out, errs := runPloy(t, "replay", rec, "--domain", edited)
			if st != exitChanged {
				t.Fatalf("status %d, want 4\n%s%s", st, out, errs)
			}
			if !strings.Contains(out, tc.want) {
				t.Fatalf("no %q in\n%s%s", tc.want, out, errs)
			}
		})
	}
}

// TestReplayTriesTheDomainAsGivenFirst: the header's domain path is
// tried as the game gave it (from the directory ploy runs in) before
// beside the recording.
func TestReplayTriesTheDomainAsGivenFirst(t *testing.T) {
	rec, edited := campFiles(t, dearForage)
	if err := os.Rename(edited, filepath.Join(filepath.Dir(rec), "survivor.yaml")); err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("../../../domains/survivor.yaml")
	if err != nil {
		t.Fatal(err)
	}
	here := t.TempDir()
	if err := os.WriteFile(filepath.Join(here, "survivor.yaml"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(here)
	if st, out, errs := runPloy(t, "replay", rec); st != exitOK || errs != "" || !strings.Contains(out, "against survivor.yaml: 0 changed") {
		t.Fatalf("status %d, want the recorded survivor.yaml from the working directory\n%s%s", st, out, errs)
	}
}

// TestReplayOfAMissingRecording says why the file cannot be read, named,
// as the system says it.
func TestReplayOfAMissingRecording(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "none.jsonl")
	_, openErr := os.Open(missing)
	var pe *fs.PathError
	if !errors.As(openErr, &pe) {
		t.Fatalf("opening a missing file: %v", openErr)
	}
	for _, cmd := range [][]string{{"replay", missing}, {"why", missing, "--agent", "s00", "--tick", "3"}} {
		if st, _, errs := runPloy(t, cmd...); st != exitInvalid || errs != missing+": "+pe.Err.Error()+"\n" {
			t.Errorf("%s: status %d, %q; want %q", cmd[0], st, errs, missing+": "+pe.Err.Error())
		}
	}
}

// TestReplayHelpAndNoChangesListed: --help prints the usage and exits 0;
// --max-changes 0 lists no change but counts them all.
func TestReplayHelpAndNoChangesListed(t *testing.T) {
	for _, cmd := range []string{"replay", "why"} {
		st, out, errs := runPloy(t, cmd, "--help")
		if st != exitOK || strings.Contains(out+errs, "give one decision recording") || !strings.Contains(out+errs, "ploy "+cmd+" RECORDING") {
			t.Errorf("%s --help: status %d\n%s%s", cmd, st, out, errs)
		}
	}
	rec, edited := campFiles(t, dearForage)
	st, out, errs := runPloy(t, "replay", rec, "--domain", edited, "--max-changes", "0")
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if st != exitChanged || len(lines) != 2 || !strings.HasPrefix(lines[0], "... and ") || !strings.HasSuffix(lines[1], " changed") {
		t.Fatalf("--max-changes 0: status %d, want 4, how many and the sum\n%s%s", st, out, errs)
	}
}
