package cli_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/cmd/ploy/cli"
)

// TestUnreadableFileNamesAreEscaped runs ploy on a file name holding a
// terminal escape sequence: the error names the file with the escape
// shown, not sent to the terminal.
func TestUnreadableFileNamesAreEscaped(t *testing.T) {
	var stdout, stderr bytes.Buffer
	status := cli.Main([]string{"lint", "missing\x1b[31m.yaml"}, strings.NewReader(""), &stdout, &stderr)
	if status != 1 {
		t.Errorf("status %d, want 1", status)
	}
	if want := "missing\\x1b[31m.yaml: no such file or directory\n"; stderr.String() != want {
		t.Errorf("stderr %q, want %q", stderr.String(), want)
	}
}
