package agent_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestRuntimeLinksNoLoader keeps the runtime free of the domain-file
// loader: a game that links package agent must not link ploy's domain
// package or, through it, a YAML parser. Building an agent from a file's
// kind lives in agent/agentfile, which imports both.
func TestRuntimeLinksNoLoader(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go tool is not on PATH, so the runtime's dependencies cannot be listed:", err)
	}
	out, err := exec.Command(goTool, "list", "-deps", "-f", "{{.ImportPath}} {{with .Module}}{{.Path}}{{end}}", ".").Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			t.Fatalf("go list -deps: %v\n%s", err, ee.Stderr)
		}
		t.Fatalf("go list -deps: %v", err)
	}
	const loader = "github.com/ploy-ai/ploy/domain"
	var bad []string
	for line := range strings.Lines(string(out)) {
		pkg, module, _ := strings.Cut(strings.TrimSpace(line), " ")
		if pkg == loader || strings.HasPrefix(pkg, loader+"/") ||
			strings.Contains(strings.ToLower(pkg), "yaml") || strings.Contains(strings.ToLower(module), "yaml") {
			bad = append(bad, pkg)
		}
	}
	if len(bad) > 0 {
		t.Errorf("package agent depends on the loader or a YAML parser: %s", strings.Join(bad, ", "))
	}
}
