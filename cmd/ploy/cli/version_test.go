package cli_test

import (
	"errors"
	"runtime/debug"
	"testing"

	"github.com/ploy-ai/ploy/cmd/ploy/cli"
)

func TestVersionOf(t *testing.T) {
	rev := []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef0123"}}
	for _, c := range []struct {
		main     string
		settings []debug.BuildSetting
		want     string
	}{
		{"v1.4.0", rev, "v1.4.0"}, // go install ...@v1.4.0: the tag alone
		{"(devel)", rev, "(devel) 0123456789ab"},
		{"", nil, "(devel)"},
		{"(devel)", []debug.BuildSetting{{Key: "vcs.revision", Value: "short"}}, "(devel)"},
	} {
		info := &debug.BuildInfo{Main: debug.Module{Version: c.main}, Settings: c.settings}
		if got := cli.VersionOf(info); got != c.want {
			t.Errorf("main version %q, settings %v: got %q, want %q", c.main, c.settings, got, c.want)
		}
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
