package cli

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
)

// TestMaxOutputCutsAtALine runs the commands whose output grows with the
// input under a small --max-output: each stops at a whole line under the
// bound, says so on stderr and exits 1; under a large one, the output is
// whole and the exit status the command's own.
func TestMaxOutputCutsAtALine(t *testing.T) {
	for _, args := range [][]string{
		{"trace", "--goal", "Kill"},
		{"trace", "--goal", "Kill", "--format", "json"},
		{"trace", "--htn"},
		{"explain", "--goal", "Kill"},
		{"graph", "shopkeeper"},
		{"graph", "shopkeeper", "--format", "dot"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			var whole, stderr bytes.Buffer
			if st := Main(args, nil, &whole, &stderr); st != exitOK {
				t.Fatalf("exit %d: %s", st, stderr.String())
			}
			bound := whole.Len() / 2
			var out bytes.Buffer
			stderr.Reset()
			st := Main(append(args, "--max-output", itoa(bound)), nil, &out, &stderr)
			if st != exitInvalid || !strings.Contains(stderr.String(), "output cut after") {
				t.Errorf("exit %d, stderr %q; want 1 and the cut said", st, stderr.String())
			}
			if out.Len() > bound || out.Len() == 0 || !bytes.HasSuffix(out.Bytes(), []byte("\n")) || !bytes.HasPrefix(whole.Bytes(), out.Bytes()) {
				t.Errorf("%d bytes under a bound of %d, not whole lines from the start of the output:\n%s", out.Len(), bound, out.String())
			}
			out.Reset()
			if st := Main(append(args, "--max-output", itoa(whole.Len())), nil, &out, &stderr); st != exitOK || !bytes.Equal(out.Bytes(), whole.Bytes()) {
				t.Errorf("at exactly its size: exit %d, %d bytes of %d", st, out.Len(), whole.Len())
			}
		})
	}
}

func TestGraphJSONPastMaxOutputIsRefusedWhole(t *testing.T) {
	var whole, out, stderr bytes.Buffer
	if st := Main([]string{"graph", "--format", "json"}, nil, &whole, &stderr); st != exitOK {
		t.Fatal(stderr.String())
	}
	st := Main([]string{"graph", "--format", "json", "--max-output", itoa(whole.Len() - 1)}, nil, &out, &stderr)
	if st != exitInvalid || out.Len() != 0 || !strings.Contains(stderr.String(), itoa(whole.Len())+" bytes of JSON") {
		t.Errorf("exit %d, %d bytes out, stderr %q; want 1, nothing, the JSON's size", st, out.Len(), stderr.String())
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
