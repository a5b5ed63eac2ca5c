package goap_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestModuleBuildsFor32BitTargets: the module builds where an int has 32
// bits (a game on an older console or phone), so that no constant that
// fits only a 64-bit int creeps in. goap is where that matters most: its
// whole-cost searches sum costs in ints and run only where ints have 64
// bits (NewProfile), and wholeInf must still be an int elsewhere.
func TestModuleBuildsFor32BitTargets(t *testing.T) {
	if testing.Short() {
		t.Skip("cross-compiles the module twice: -short skips it")
	}
	gomod, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		t.Fatalf("go env GOMOD: %v", err)
	}
	root := filepath.Dir(strings.TrimSpace(string(gomod)))
	for _, arch := range []string{"386", "arm"} {
		build := exec.Command("go", "build", "./...")
		build.Dir = root
		build.Env = append(os.Environ(), "GOOS=linux", "GOARCH="+arch, "CGO_ENABLED=0")
		if out, err := build.CombinedOutput(); err != nil {
			t.Errorf("GOARCH=%s go build ./...: %v\n%s", arch, err, out)
		}
	}
}
