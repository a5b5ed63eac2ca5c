package viewer_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ploy-ai/ploy/viewer"
)

// oddAttackEnv makes this test binary, run again, the child of
// TestAttackOddRequests: a server on a real socket, as a game embeds it,
// under a 2 GB address-space limit.
const oddAttackEnv = "PLOY_VIEWER_ODD_ATTACK"

// oddRequests are odd but well-formed requests: positions of the wrong length
// (taken silently before, [1] as [1, 0] and five numbers as the first
// two), one of 100 000 numbers, and fields of the wrong type in embedded
// and nested request structs (named by Go's struct path before).
var oddRequests = []struct{ path, body, want string }{
	{"/api/v1/resolve", `{"domain": "survivor", "goal": "Warm", "at": [1]}`, `400 at: at must be a position [x, y] of 2 coordinates, not 1`},
	{"/api/v1/resolve", `{"domain": "survivor", "goal": "Warm", "at": [0, 0, 5, 6, 7]}`, `400 at: at must be a position [x, y] of 2 coordinates, not 5`},
	{"/api/v1/resolve", `{"domain": "survivor", "goal": "Warm", "targets": {"fireplace": [0]}}`, `400 targets.fireplace: targets.fireplace must be a position [x, y] of 2 coordinates, not 1`},
	{"/api/v1/trace", `{"domain": "survivor", "goal": "Warm", "at": [` + strings.Repeat("0,", 99_999) + `0]}`, `400 at: at must be a position [x, y] of 2 coordinates, not 100000`},
	{"/api/v1/htn", `{"set": 5}`, `400 set: field "set" must be an array, not a JSON number`},
	{"/api/v1/plan", `{"domain": 5}`, `400 domain: field "domain" must be a string, not a JSON number`},
	{"/api/v1/explain", `{"domain": "survivor", "goal": "Warm", "targets": {"fireplace": ["x", 1]}}`, `400 targets.fireplace: field "targets.fireplace" must hold numbers, not a JSON string`},
}

func TestAttackOddRequestsChild(t *testing.T) {
	if os.Getenv(oddAttackEnv) == "" {
		return // only as the child of TestAttackOddRequests
	}
	if err := syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: 2 << 30, Max: 2 << 30}); err != nil {
		t.Fatal(err)
	}
	s, err := viewer.New(viewer.Config{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s)
	defer srv.Close()
	for _, q := range oddRequests {
		r, err := http.Post(srv.URL+q.path, "application/json", strings.NewReader(q.body))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		r.Body.Close()
		var e struct {
			Error string `json:"error"`
			Field string `json:"field"`
		}
		json.Unmarshal(b, &e)
		fmt.Printf("outcome: %d %s: %s\n", r.StatusCode, e.Field, e.Error)
	}
}

// The requests run in a capped child; the parent asserts every answer and
// the child's peak resident memory, and kills it after a minute (the
// fixed server answers them all in well under a second).
func TestAttackOddRequests(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a child process")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestAttackOddRequestsChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), oddAttackEnv+"=1")
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatal("still running after a minute")
	}
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var got []string
	for line := range strings.Lines(string(out)) {
		if s, ok := strings.CutPrefix(line, "outcome: "); ok {
			got = append(got, strings.TrimSpace(s))
		}
	}
	if len(got) != len(oddRequests) {
		t.Fatalf("%d outcomes, want %d:\n%s", len(got), len(oddRequests), out)
	}
	for i, q := range oddRequests {
		if got[i] != q.want {
			t.Errorf("%s %.80s: %s\nwant %s", q.path, q.body, got[i], q.want)
		}
	}
	peak := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss >> 10
	t.Logf("peak resident memory %d MB", peak)
	if peak > 256 && !oddRaceEnabled {
		t.Errorf("peak resident memory %d MB, want under 256", peak)
	}
}
