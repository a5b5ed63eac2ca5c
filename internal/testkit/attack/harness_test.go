package attack

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"
)

// ploy is the command under attack, built once by TestMain without the race
// detector: a race-built child uses several times the memory, and the bounds
// below are those of the shipped command.
var ploy string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "ploy-attack-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	ploy = filepath.Join(dir, "ploy")
	gotool := filepath.Join(runtime.GOROOT(), "bin", "go")
	build := exec.Command(gotool, "build", "-o", ploy, "github.com/ploy-ai/ploy/cmd/ploy")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintf(os.Stderr, "building ploy: %v\n", err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

const (
	// defaultMaxRSS is the peak resident memory an attack may take. A fixed
	// ploy needs tens of MiB on any of them; a broken one takes GiBs.
	defaultMaxRSS = 512 << 20
	// defaultHangGuard is when a run is killed as hung. A fixed ploy ends
	// each attack in about a second; the broken ones take minutes or never
	// end. Timing decides nothing else.
	defaultHangGuard = 30 * time.Second
	// defaultMaxOutput bounds stdout and stderr together: a message per
	// problem, capped, each echoing a capped line.
	defaultMaxOutput = 1 << 20
	// pollEvery is how often the watchdog reads the child's peak memory: at
	// a few GB/s of allocation it overshoots the bound by some tens of MiB.
	pollEvery = 20 * time.Millisecond
	// kept is how much of each output stream is kept for the checks and the
	// failure message; the rest is only counted.
	kept = 64 << 10
)

// attack is one run of ploy on hostile input.
type attack struct {
	name  string
	args  []string          // ploy's arguments; files are relative to the run's directory
	files map[string][]byte // written into the run's directory first
	// stdin is what the child reads: nil for nothing, or a file or reader
	// (an endless one included) made when the run starts.
	stdin func(t *testing.T) io.Reader
	exits []int // the exit statuses allowed
	// stderr, when set, must match the standard error: the kind of message
	// expected (a positioned error, a size limit).
	stderr *regexp.Regexp
	// notStderr, when set, must not match the standard error.
	notStderr *regexp.Regexp
	// check, when set, checks the result further.
	check func(t *testing.T, r *result)
	// terminalSafe asks that neither stream holds a raw ESC or NUL byte.
	terminalSafe bool

	// addressSpace, when set, is the child's RLIMIT_AS (see childCommand).
	addressSpace int64

	maxRSS    int64         // 0: defaultMaxRSS
	hangGuard time.Duration // 0: defaultHangGuard
	maxOutput int64         // 0: defaultMaxOutput; -1: unbounded (the memory bound still holds)
}

type result struct {
	exit           int // -1 when killed
	stdout, stderr *capped
	wall           time.Duration
	cpu            time.Duration // the child's user and system CPU time
	peakRSS        int64         // bytes: the larger of the watchdog's VmHWM and the rusage's Maxrss
	// peakBelow, when set, says the run ended before the watchdog saw it
	// and its rusage could not be told from this process's: its peak is
	// below this figure.
	peakBelow int64
	killed    string // why the watchdog or the hang guard killed it, or ""
	dir       string // the run's directory, where its files are
}

// capped keeps the first bytes written to it and counts them all.
type capped struct {
	buf bytes.Buffer
	n   int64
}

func (c *capped) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	if room := kept - c.buf.Len(); room > 0 {
		c.buf.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

func (c *capped) String() string {
	if c.n > int64(c.buf.Len()) {
		return c.buf.String() + fmt.Sprintf("\n[... %d more bytes]", c.n-int64(c.buf.Len()))
	}
	return c.buf.String()
}

// crashSigns are what a Go panic or runtime crash prints.
var crashSigns = []string{"panic:", "goroutine ", "fatal error", "runtime: out of memory", "SIGSEGV"}

func runAttack(t *testing.T, a attack) {
	t.Helper()
	dir := t.TempDir()
	for name, data := range a.files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	maxRSS := orDefault(a.maxRSS, defaultMaxRSS)
	guard := orDefault(a.hangGuard, defaultHangGuard)
	maxOutput := orDefault(a.maxOutput, defaultMaxOutput)

	r := run(t, dir, a, maxRSS, guard)
	peak := fmt.Sprintf("%.1f MiB", float64(r.peakRSS)/(1<<20))
	if r.peakBelow > 0 {
		peak = fmt.Sprintf("under %.0f MiB", float64(r.peakBelow)/(1<<20))
	}
	t.Logf("ploy %s: exit %d in %v, peak RSS %s, output %d+%d bytes",
		shortArgs(a.args), r.exit, r.wall.Round(time.Millisecond), peak, r.stdout.n, r.stderr.n)

	both := r.stdout.String() + r.stderr.String()
	if r.killed != "" {
		t.Fatalf("killed: %s\nstderr:\n%s", r.killed, trim(r.stderr.String()))
	}
	if r.peakRSS > maxRSS {
		t.Errorf("peak RSS %.1f MiB, bound %d MiB", float64(r.peakRSS)/(1<<20), maxRSS>>20)
	}
	for _, sign := range crashSigns {
		if strings.Contains(r.stderr.String(), sign) {
			t.Errorf("stderr shows a crash (%q):\n%s", sign, trim(r.stderr.String()))
		}
	}
	if !slices.Contains(a.exits, r.exit) {
		t.Errorf("exit status %d, want one of %v\nstdout:\n%s\nstderr:\n%s", r.exit, a.exits, trim(r.stdout.String()), trim(r.stderr.String()))
	}
	if maxOutput >= 0 && r.stdout.n+r.stderr.n > maxOutput {
		t.Errorf("output of %d bytes, bound %d", r.stdout.n+r.stderr.n, maxOutput)
	}
	switch r.exit {
	case 0:
		if strings.TrimSpace(r.stdout.buf.String()) == "" {
			t.Errorf("exit 0 with nothing on stdout")
		}
	case 1, 2:
		if strings.TrimSpace(r.stderr.buf.String()) == "" {
			t.Errorf("exit %d with nothing on stderr", r.exit)
		}
	}
	if a.stderr != nil && !a.stderr.MatchString(r.stderr.buf.String()) {
		t.Errorf("stderr does not match %q:\n%s", a.stderr, trim(r.stderr.String()))
	}
	if a.notStderr != nil && a.notStderr.MatchString(r.stderr.buf.String()) {
		t.Errorf("stderr matches %q:\n%s", a.notStderr, trim(r.stderr.String()))
	}
	if a.terminalSafe && strings.ContainsAny(both, "\x1b\x00") {
		t.Errorf("output holds a raw ESC or NUL byte: %q", trim(both))
	}
	if a.check != nil {
		a.check(t, r)
	}
}

func orDefault[T int64 | time.Duration](v, def T) T {
	if v == 0 {
		return def
	}
	return v
}

// run starts ploy in dir and watches it: the hang guard kills it after
// guard, the watchdog when its peak RSS passes maxRSS.
func run(t *testing.T, dir string, a attack, maxRSS int64, guard time.Duration) *result {
	ctx, cancel := context.WithTimeout(context.Background(), guard)
	defer cancel()
	cmd := childCommand(ctx, t, a)
	cmd.Dir = dir
	cmd.Env = childEnv()
	r := &result{stdout: &capped{}, stderr: &capped{}, dir: dir}
	cmd.Stdout, cmd.Stderr = r.stdout, r.stderr
	if a.stdin != nil {
		cmd.Stdin = a.stdin(t)
	}
	// Wait returns once the child has exited, even if a reader still feeds
	// its standard input.
	cmd.WaitDelay = time.Second
	// The child's rusage Maxrss is at least this process's resident size
	// when it forked: Linux carries it through exec. Only a figure above
	// this process's peak is the child's own, and that peak is read after
	// the child exits, since this process's other goroutines may grow it
	// between a read before Start and the fork (CI once saw a child of
	// 96 MiB reported at 2.9 GiB, the race-detector test process's size).
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	watch := watchRSS(cmd.Process, maxRSS)
	err := cmd.Wait()
	r.wall = time.Since(start)
	watched, overBound := watch.stop()
	ownPeak, _ := peakRSS(os.Getpid())
	r.peakRSS, r.peakBelow = childPeak(cmd.ProcessState, ownPeak, watched)
	r.exit = cmd.ProcessState.ExitCode()
	r.cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	switch {
	case overBound:
		r.killed = fmt.Sprintf("peak RSS passed the bound of %d MiB (%.0f MiB) after %v", maxRSS>>20, float64(r.peakRSS)/(1<<20), r.wall.Round(time.Millisecond))
	case ctx.Err() != nil:
		r.killed = fmt.Sprintf("still running after the hang guard of %v (peak RSS %.0f MiB)", guard, float64(r.peakRSS)/(1<<20))
	case err != nil && !errors.As(err, new(*exec.ExitError)) && !errors.Is(err, exec.ErrWaitDelay):
		t.Fatalf("running ploy: %v", err)
	}
	return r
}

// childEnv is this process's environment less GC tuning: the child's
// memory is measured as shipped.
func childEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GOGC=") && !strings.HasPrefix(kv, "GOMEMLIMIT=") && !strings.HasPrefix(kv, "GODEBUG=") {
			env = append(env, kv)
		}
	}
	return env
}

// rssWatchdog polls a child's peak resident memory and kills the child
// once it passes the bound.
type rssWatchdog struct {
	watched  atomic.Int64
	over     atomic.Bool
	done     chan struct{}
	finished chan struct{}
}

// watchRSS starts polling p every pollEvery.
func watchRSS(p *os.Process, maxRSS int64) *rssWatchdog {
	w := &rssWatchdog{done: make(chan struct{}), finished: make(chan struct{})}
	go func() {
		defer close(w.finished)
		tick := time.NewTicker(pollEvery)
		defer tick.Stop()
		for {
			select {
			case <-w.done:
				return
			case <-tick.C:
			}
			hwm, ok := peakRSS(p.Pid)
			if !ok {
				continue
			}
			w.watched.Store(max(w.watched.Load(), hwm))
			if hwm > maxRSS {
				w.over.Store(true)
				p.Kill()
				return
			}
		}
	}()
	return w
}

// stop ends the polling, once the child has exited, and returns the
// highest peak seen and whether the child was killed for passing the bound.
func (w *rssWatchdog) stop() (watched int64, over bool) {
	close(w.done)
	<-w.finished
	return w.watched.Load(), w.over.Load()
}

// childPeak is an exited child's peak RSS: the larger of the watchdog's
// figure and the rusage's Maxrss, when the latter is the child's own (see
// run). When neither is known, below is a figure the peak is under.
func childPeak(ps *os.ProcessState, ownPeak, watched int64) (peak, below int64) {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok && int64(ru.Maxrss)<<10 > ownPeak {
		peak = int64(ru.Maxrss) << 10 // kilobytes on Linux
	}
	peak = max(peak, watched)
	if peak == 0 {
		below = ownPeak
	}
	return peak, below
}

// peakRSS reads a process's peak resident set size (VmHWM) from /proc.
func peakRSS(pid int) (int64, bool) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), "VmHWM:")
		if !ok {
			continue
		}
		kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
		if err != nil {
			return 0, false
		}
		return kb << 10, true
	}
	return 0, false
}

// shortArgs is the command line for a log, control bytes quoted.
func shortArgs(args []string) string {
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = a
		if strings.ContainsFunc(a, func(r rune) bool { return r < 0x20 || r == 0x7f || r == utf8.RuneError }) {
			quoted[i] = strconv.Quote(a)
		}
	}
	s := strings.Join(quoted, " ")
	if len(s) > 120 {
		s = s[:120] + "..."
	}
	return s
}

func trim(s string) string {
	if len(s) > 2000 {
		return s[:2000] + fmt.Sprintf("\n[... %d more bytes kept]", len(s)-2000)
	}
	return s
}
