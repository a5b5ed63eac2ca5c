package attack

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// serveAttack is one run of `ploy serve` attacked over HTTP: the server is
// started as a child under the same watchdog and hang guard as runAttack's,
// do sends the requests, and the server is then stopped with SIGTERM.
type serveAttack struct {
	name string
	// args follow `serve --addr 127.0.0.1:0`: files (relative to the run's
	// directory) and flags; a later --addr replaces the first.
	args  []string
	files map[string][]byte // written into the run's directory first
	// do sends the attack's requests to base, "http://ADDR" with no
	// trailing slash, and checks the answers. It may call t.Fatal: the
	// server is stopped and checked all the same.
	do func(t *testing.T, base string)
	// pid, when set, is given the server's process id before do runs:
	// for an attack that reads the server's CPU time from /proc.
	pid func(pid int)
	// check, when set, looks at the stopped server's output.
	check func(t *testing.T, r *result)

	maxRSS    int64         // 0: defaultMaxRSS
	hangGuard time.Duration // 0: defaultHangGuard, for the whole run
}

// serveURL is the first line `ploy serve` prints once it listens.
var serveURL = regexp.MustCompile(`^ploy serve: (http://[^/\s]+)/`)

// runServeAttack starts the server, runs a.do against it and stops it. It
// fails the test if the server crashed (a panic, even one net/http
// recovered, or a runtime fatal error), ended before it was stopped, did
// not stop cleanly on SIGTERM, was killed by the watchdog or the hang
// guard, or its peak RSS passed the bound.
func runServeAttack(t *testing.T, a serveAttack) {
	t.Helper()
	dir := t.TempDir()
	for name, data := range a.files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	maxRSS := orDefault(a.maxRSS, defaultMaxRSS)
	guard := orDefault(a.hangGuard, defaultHangGuard)

	ctx, cancel := context.WithTimeout(context.Background(), guard)
	defer cancel()
	args := append([]string{"serve", "--addr", "127.0.0.1:0"}, a.args...)
	cmd := exec.CommandContext(ctx, ploy, args...)
	cmd.Dir = dir
	cmd.Env = childEnv()
	r := &result{stdout: &capped{}, stderr: &capped{}}
	stdout := &firstLine{to: r.stdout, line: make(chan string, 1)}
	cmd.Stdout, cmd.Stderr = stdout, r.stderr
	cmd.WaitDelay = time.Second
	ownPeak, _ := peakRSS(os.Getpid()) // see run
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	watch := watchRSS(cmd.Process, maxRSS)
	exited := make(chan struct{})
	var waitErr error
	go func() {
		waitErr = cmd.Wait()
		close(exited)
	}()

	// The server is stopped and judged even when do stops the test early.
	defer func() {
		t.Helper()
		endedEarly := false
		select {
		case <-exited:
			endedEarly = true
		default:
			cmd.Process.Signal(syscall.SIGTERM)
			<-exited // the hang guard bounds the wait
		}
		r.wall = time.Since(start)
		watched, overBound := watch.stop()
		r.peakRSS, r.peakBelow = childPeak(cmd.ProcessState, ownPeak, watched)
		r.exit = cmd.ProcessState.ExitCode()
		peak := fmt.Sprintf("%.1f MiB", float64(r.peakRSS)/(1<<20))
		if r.peakBelow > 0 {
			peak = fmt.Sprintf("under %.0f MiB", float64(r.peakBelow)/(1<<20))
		}
		t.Logf("ploy %s: exit %d after %v, peak RSS %s, output %d+%d bytes",
			shortArgs(args), r.exit, r.wall.Round(time.Millisecond), peak, r.stdout.n, r.stderr.n)
		switch {
		case overBound:
			r.killed = fmt.Sprintf("peak RSS passed the bound of %d MiB (%.0f MiB) after %v", maxRSS>>20, float64(r.peakRSS)/(1<<20), r.wall.Round(time.Millisecond))
		case ctx.Err() != nil:
			r.killed = fmt.Sprintf("still running after the hang guard of %v (peak RSS %.0f MiB)", guard, float64(r.peakRSS)/(1<<20))
		}
		if r.killed != "" {
			t.Errorf("killed: %s\nstderr:\n%s", r.killed, trim(r.stderr.String()))
			return
		}
		for _, sign := range crashSigns {
			if strings.Contains(r.stderr.String(), sign) {
				t.Errorf("stderr shows a crash (%q):\n%s", sign, trim(r.stderr.String()))
				break
			}
		}
		if endedEarly {
			t.Errorf("the server ended by itself (exit %d, %v) before it was stopped\nstderr:\n%s", r.exit, waitErr, trim(r.stderr.String()))
		} else if r.exit != 0 {
			t.Errorf("exit status %d after SIGTERM, want 0\nstderr:\n%s", r.exit, trim(r.stderr.String()))
		}
		if r.peakRSS > maxRSS {
			t.Errorf("peak RSS %.1f MiB, bound %d MiB", float64(r.peakRSS)/(1<<20), maxRSS>>20)
		}
		if a.check != nil {
			a.check(t, r)
		}
	}()

	var line string
	select {
	case line = <-stdout.line:
	case <-exited:
		t.Fatalf("ploy serve ended before it served")
	}
	m := serveURL.FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("ploy serve's first line is not its address: %q", line)
	}
	if a.pid != nil {
		a.pid(cmd.Process.Pid)
	}
	a.do(t, m[1])
}

// cpuTime reads a process's user and system CPU time from /proc/PID/stat.
func cpuTime(t *testing.T, pid int) time.Duration {
	t.Helper()
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatal(err)
	}
	// The fields after the command's name, which is in parentheses and
	// may hold spaces: utime and stime are the 14th and 15th fields, in
	// clock ticks (100 a second on Linux).
	fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	if len(fields) < 13 {
		t.Fatalf("/proc/%d/stat: %q", pid, stat)
	}
	utime, err1 := strconv.ParseInt(fields[11], 10, 64)
	stime, err2 := strconv.ParseInt(fields[12], 10, 64)
	if err1 != nil || err2 != nil {
		t.Fatalf("/proc/%d/stat: %q", pid, stat)
	}
	return time.Duration(utime+stime) * (time.Second / 100)
}

// firstLine passes what it is written to on, and sends the first line once
// it is whole.
type firstLine struct {
	to   io.Writer
	buf  bytes.Buffer
	line chan string // buffered: receives one line
	sent bool
}

func (f *firstLine) Write(p []byte) (int, error) {
	if !f.sent {
		f.buf.Write(p[:min(len(p), 4096)])
		if i := bytes.IndexByte(f.buf.Bytes(), '\n'); i >= 0 {
			f.line <- f.buf.String()[:i]
			f.sent = true
		}
	}
	return f.to.Write(p)
}

const (
	// requestTimeout bounds each request a serve attack sends, answer read
	// included: a hung server fails the request, not the test run.
	requestTimeout = 20 * time.Second
	// maxCounted is how much of an answer is read (and counted) at most;
	// the rest is left unread and the answer marked cut.
	maxCounted = 1 << 30
)

// serveClient is the client of the serve attacks: its own timeouts, no
// redirects followed, no connection kept between runs' servers.
var serveClient = &http.Client{
	Timeout: requestTimeout,
	Transport: &http.Transport{
		DisableKeepAlives:     true,
		ResponseHeaderTimeout: requestTimeout,
	},
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
}

// answer is a response read with a bound: the first kept bytes of the
// body, and how many bytes were read in all.
type answer struct {
	status int
	header http.Header
	body   []byte // at most kept bytes
	n      int64  // the body's bytes read, at most maxCounted
	cut    bool   // the body went on past maxCounted
}

func (a *answer) String() string {
	s := fmt.Sprintf("%d, %d bytes", a.status, a.n)
	if a.cut {
		s += " (cut)"
	}
	body := a.body
	if len(body) > 300 {
		body = body[:300]
		s += ", starting"
	}
	return s + ": " + strings.TrimSpace(string(body))
}

// send sends a request and reads its answer, bounded. header's values
// replace the defaults; a "Host" entry sets the request's Host.
func send(t *testing.T, method, url string, body []byte, header map[string]string) *answer {
	t.Helper()
	req, err := http.NewRequest(method, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body == nil {
		req.Body, req.ContentLength = nil, 0
	}
	for k, v := range header {
		if http.CanonicalHeaderKey(k) == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := serveClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	a := &answer{status: resp.StatusCode, header: resp.Header}
	var kept capped
	n, err := io.Copy(&kept, io.LimitReader(resp.Body, maxCounted))
	a.body, a.n = kept.buf.Bytes(), n
	if err != nil {
		t.Fatalf("%s %s: reading the answer after %d bytes: %v", method, url, n, err)
	}
	if n == maxCounted {
		var one [1]byte
		if k, _ := resp.Body.Read(one[:]); k > 0 {
			a.cut = true
		}
	}
	return a
}

// postJSON posts a JSON body as the shipped pages do.
func postJSON(t *testing.T, url string, body []byte) *answer {
	t.Helper()
	return send(t, http.MethodPost, url, body, map[string]string{"Content-Type": "application/json"})
}

// TestServeHarness checks the harness on a plain run: the server answers,
// stops on SIGTERM with exit 0, and its peak memory is measured.
func TestServeHarness(t *testing.T) {
	runServeAttack(t, serveAttack{
		do: func(t *testing.T, base string) {
			if a := send(t, http.MethodGet, base+"/api/v1/domains", nil, nil); a.status != http.StatusOK || a.n == 0 {
				t.Errorf("GET /api/v1/domains: %s", a)
			}
		},
		check: func(t *testing.T, r *result) {
			if r.peakRSS == 0 && r.peakBelow == 0 {
				t.Errorf("no peak RSS measured")
			}
			if !strings.Contains(r.stdout.String(), "ploy serve: stopped") {
				t.Errorf("the server did not say it stopped:\n%s", r.stdout)
			}
		},
	})
}
