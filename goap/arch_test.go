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
// bits (NewProfile), and wholeInf must still be an int elsewhere. The
// tests must type-check there too (go vet), so that they can be run on
// such a target: a test's 1<<40 given to an int had crept into six
// packages before this checked them.
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
		for _, verb := range []string{"build", "vet"} {
			cmd := exec.Command("go", verb, "./...")
			cmd.Dir = root
			cmd.Env = append(os.Environ(), "GOOS=linux", "GOARCH="+arch, "CGO_ENABLED=0")
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("GOARCH=%s go %s ./...: %v\n%s", arch, verb, err, out)
			}
		}
	}
}
