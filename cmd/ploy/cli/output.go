package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/ploy-ai/ploy/internal/report"
)

// defaultMaxOutput is the most bytes graph, trace, explain, plan and htn
// write to standard output unless --max-output says otherwise: their
// output grows with the input (a graph with its edges, a million of them
// from a file of a few hundred kilobytes; a trace with its budget; a plan
// with its steps, tens of thousands of a long name from a 24 KB file), and
// a command run on a careless file must not fill a disk or a pipe's
// reader.
const defaultMaxOutput = 64 << 20

// outputLimited are the commands whose standard output is bounded by
// --max-output.
var outputLimited = map[string]bool{"graph": true, "trace": true, "explain": true, "plan": true, "htn": true, "replay": true, "why": true}

var errOutputCut = errors.New("output past --max-output")

// limitedOutput is standard output with a bound: it writes at most max
// bytes and fails every write past them.
type limitedOutput struct {
	w      io.Writer
	max, n int64
	cut    bool
}

func (o *limitedOutput) Write(p []byte) (int, error) {
	if o.cut {
		return 0, errOutputCut
	}
	if room := o.max - o.n; int64(len(p)) > room {
		// Whole lines only: the reader sees where the output stops.
		keep := p[:room]
		if i := bytes.LastIndexByte(keep, '\n'); i >= 0 {
			keep = keep[:i+1]
		} else {
			keep = nil
		}
		n, _ := o.w.Write(keep)
		o.n += int64(n)
		o.cut = true
		return n, errOutputCut
	}
	n, err := o.w.Write(p)
	o.n += int64(n)
	return n, err
}

// outputStopped says standard output was cut: a command writing a long
// listing (a plan's steps) stops making its lines, which no one would read.
func outputStopped(e *env) bool { return e.out != nil && e.out.cut }

// writeJSONLine writes v as one line of JSON on standard output. A cut
// JSON document is of no use: one past --max-output is refused whole, on
// standard error with exit status 1, its size counted (report.JSONSize)
// before a byte of it is made; what names it and lower says what to narrow.
func writeJSONLine(e *env, name string, v any, what, lower string) int {
	if e.out != nil {
		if report.JSONSize(v, int(min(e.out.max, math.MaxInt/2))) > int(e.out.max) {
			fmt.Fprintf(e.stderr, "ploy %s: %s is more than --max-output (%d) bytes of JSON: %s, or raise --max-output\n", name, what, e.out.max, lower)
			return exitInvalid
		}
	}
	b, err := json.Marshal(v)
	if err != nil {
		fmt.Fprintf(e.stderr, "ploy %s: cannot write JSON: %v\n", name, err)
		return exitInvalid
	}
	fmt.Fprintf(e.stdout, "%s\n", b)
	return -1
}

// registerMaxOutput adds --max-output to a command whose output is
// limited.
func registerMaxOutput(e *env, fset *flag.FlagSet) {
	if e.out == nil {
		return
	}
	fset.Func("max-output", fmt.Sprintf("most `bytes` written to standard output; past them the output is cut, with a message, and the exit status is 1 (default %d, 64 MiB)", defaultMaxOutput), func(s string) error {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n < 1 {
			return fmt.Errorf("must be a number of bytes, at least 1, not %q", s)
		}
		e.out.max = n
		return nil
	})
}

// outputCut says, on standard error, that the output was cut, and turns a
// success into exit status 1: a reader must not take a cut output for the
// whole.
func outputCut(e *env, name string, status int) int {
	if e.out == nil || !e.out.cut {
		return status
	}
	fmt.Fprintf(e.stderr, "ploy %s: output cut after %d bytes, at the --max-output bound of %d: the rest is left out; raise --max-output, or narrow what is asked\n", name, e.out.n, e.out.max)
	if status == exitOK {
		return exitInvalid
	}
	return status
}
