package cli_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ploy-ai/ploy/cmd/ploy/cli"
)

func TestVersionOf(t *testing.T) {
	clone := []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "f1032331cbdf4b554cc2bb590c9cbc73f7b25d21"}, {Key: "vcs.time", Value: "2026-12-02T09:44:39Z"}, {Key: "vcs.modified", Value: "false"}}
	dirty := append(append([]debug.BuildSetting(nil), clone[:3]...), debug.BuildSetting{Key: "vcs.modified", Value: "true"})
	for _, c := range []struct {
		main     string
		settings []debug.BuildSetting
		want     string
	}{
		{"v1.4.0", clone, "v1.4.0"}, // go install ...@v1.4.0: the tag alone
		{"v1.4.1-rc.1", nil, "v1.4.1-rc.1"},
		// go build in a clone (Go 1.24 on: a pseudo-version and the
		// revision; before: (devel) and the revision)
		{"v0.0.0-20261202094439-f1032331cbdf", clone, "(devel) revision f1032331cbdf, 2026-12-02T09:44:39Z"},
		{"v0.0.0-20261202094439-f1032331cbdf+dirty", dirty, "(devel) revision f1032331cbdf, 2026-12-02T09:44:39Z, with local changes"},
		{"(devel)", clone, "(devel) revision f1032331cbdf, 2026-12-02T09:44:39Z"},
		{"v1.4.1-0.20261202094439-f1032331cbdf", clone, "(devel) revision f1032331cbdf, 2026-12-02T09:44:39Z"},
		// a commit after a pre-release tag: its pseudo-version's other form
		{"v1.4.0-rc.1.0.20261202094439-f1032331cbdf", clone, "(devel) revision f1032331cbdf, 2026-12-02T09:44:39Z"},
		{"v1.4.0-rc.1.0.20261202094439-f1032331cbdf+dirty", dirty, "(devel) revision f1032331cbdf, 2026-12-02T09:44:39Z, with local changes"},
		// built in a clone at a tag with local changes: the tag says so
		{"v1.4.0+dirty", dirty, "v1.4.0+dirty"},
		// go install ...@latest of an untagged commit: no vcs settings
		{"v0.0.0-20261202094439-f1032331cbdf", nil, "v0.0.0-20261202094439-f1032331cbdf"},
		{"", nil, "(devel), no revision recorded (go run and -buildvcs=false record none; go build or go install in a clone do)"},
		{"(devel)", []debug.BuildSetting{{Key: "vcs.revision", Value: "short"}}, "(devel), no revision recorded (go run and -buildvcs=false record none; go build or go install in a clone do)"},
	} {
		info := &debug.BuildInfo{Main: debug.Module{Version: c.main}, Settings: c.settings}
		if got := cli.VersionOf(info); got != c.want {
			t.Errorf("main version %q, settings %v: got %q, want %q", c.main, c.settings, got, c.want)
		}
	}
}

// TestVersionFromAClone builds ploy in a fresh clone of this repository,
// as a newcomer does, and checks that --version names the clone's commit
// and its time: what the Go toolchain records, read back.
func TestVersionFromAClone(t *testing.T) {
	// A clone's build shares no compiled package with this checkout's (a
	// build's cache keys name its directory): a cold build of every
	// package, minutes on a busy 2-core machine. So it runs where asked,
	// as .ci/run asks; TestVersionOf covers the reading of what the
	// toolchain records.
	if os.Getenv("PLOY_CLONE_TEST") != "1" {
		t.Skip("builds ploy in a fresh clone (minutes): PLOY_CLONE_TEST=1 runs it, as .ci/run does")
	}
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("no git")
	}
	top, err := exec.Command(git, "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Skipf("not in a git checkout: %v", err)
	}
	dir := filepath.Join(t.TempDir(), "ploy")
	run := func(dir string, env []string, name string, args ...string) string {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env = dir, append(os.Environ(), env...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
		return strings.TrimSpace(string(out))
	}
	run("", nil, git, "clone", "-q", "--no-local", strings.TrimSpace(string(top)), dir)
	rev := run(dir, nil, git, "rev-parse", "HEAD")
	unix := run(dir, nil, git, "log", "-1", "--format=%ct")
	bin := filepath.Join(t.TempDir(), "ploy")
	// GOFLAGS as a newcomer has it (a machine may set -buildvcs=false);
	// the modules are the ones this test was built with, so no network.
	run(dir, []string{"GOFLAGS=-buildvcs=auto", "GOPROXY=off", "GOWORK=off"}, "go", "build", "-trimpath", "-o", bin, "./cmd/ploy")
	got := run(dir, nil, bin, "--version")
	sec, _ := strconv.ParseInt(unix, 10, 64)
	want := fmt.Sprintf("ploy (devel) revision %s, %s", rev[:12], time.Unix(sec, 0).UTC().Format(time.RFC3339))
	if got != want {
		t.Errorf("ploy --version in a clone: %q, want %q", got, want)
	}
}

func TestErrorTextDropsInternalPrefixes(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`goap: goal "Kill": node budget of 3 states exhausted`, `goal "Kill": node budget of 3 states exhausted`},
		{`htn: task "T": step limit of 5 reached`, `task "T": step limit of 5 reached`},
		{`loading x.yaml: domain: goap: actions[2]: cost is 0`, `loading x.yaml: actions[2]: cost is 0`},
		{`no such file`, `no such file`},
		{`agentless: fine`, `agentless: fine`},
	} {
		if got := cli.ErrorText(errors.New(c.in)); got != c.want {
			t.Errorf("errorText(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
