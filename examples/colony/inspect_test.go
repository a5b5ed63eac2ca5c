package main

import (
	"bytes"
	"encoding/json"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/domain"
	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/replay"
)

// lockedBuffer is a buffer the game writes to while the test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestInspect: with -inspect the game serves the inspector while it runs,
// paced by -tick-ms: its settlers are listed, each a resolver agent with a
// goal, and a settler's decisions are there; the summary is the game's
// own. An address that is not the loopback is refused.
func TestInspect(t *testing.T) {
	var out, errs lockedBuffer
	done := make(chan error, 1)
	go func() {
		done <- run([]string{"-agents", "20", "-ticks", "400", "-tick-ms", "2", "-inspect", "127.0.0.1:0"}, &out, &errs)
	}()
	addr := regexp.MustCompile(`inspector: (http://[^ ]+)/api/v1/agents`)
	var base string
	deadline := time.Now().Add(20 * time.Second)
	for base == "" {
		if m := addr.FindStringSubmatch(out.String()); m != nil {
			base = m[1]
		} else if time.Now().After(deadline) {
			t.Fatalf("no inspector address in %q (stderr %q)", out.String(), errs.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	var agents []struct{ Name, Kind, Goal string }
	for {
		resp, err := http.Get(base + "/api/v1/agents")
		if err != nil {
			t.Fatal(err)
		}
		json.NewDecoder(resp.Body).Decode(&agents)
		resp.Body.Close()
		withGoal := 0
		for _, a := range agents {
			if a.Goal != "" {
				withGoal++
			}
		}
		if len(agents) == 20 && withGoal > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("listed %+v", agents)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if agents[0].Name != "worker-01" || agents[0].Kind != "resolver" {
		t.Errorf("first settler %+v", agents[0])
	}
	resp, err := http.Get(base + "/api/v1/agents/worker-01/decisions")
	if err != nil {
		t.Fatal(err)
	}
	var ds []map[string]any
	json.NewDecoder(resp.Body).Decode(&ds)
	resp.Body.Close()
	if len(ds) == 0 || ds[0]["agent"] != "worker-01" {
		t.Errorf("worker-01's decisions: %v", ds)
	}
	// Record from the inspector: its kept decisions are a recording that
	// replays with no change against the game's file.
	resp, err = http.Get(base + "/api/v1/recording")
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	rec, err := agent.ReadRecording(bytes.NewReader(raw), "recording.jsonl", 0)
	if err != nil {
		t.Fatalf("the inspector's recording: %v", err)
	}
	src, _ := fs.ReadFile(domains.Files, "colony.yaml")
	if rec.Header.DomainHash != agent.DomainHash(src) || rec.Header.Domain != "colony.yaml" || len(rec.Decisions) == 0 {
		t.Errorf("recording header %+v, %d decisions", rec.Header, len(rec.Decisions))
	}
	f, err := domain.Parse("colony.yaml", src)
	if err != nil {
		t.Fatal(err)
	}
	if same := replay.New(replay.FromFile(f)).Run(rec.Decisions, 3); same.Changed != 0 || same.Decisions != len(rec.Decisions) {
		t.Errorf("the inspector's recording replays with %d of %d decisions changed: %+v", same.Changed, same.Decisions, same.Changes)
	}
	if err := <-done; err != nil {
		t.Fatalf("run: %v", err)
	}
	if !strings.Contains(out.String(), "colony: 20 settlers, 400 ticks") {
		t.Errorf("no summary in %q", out.String())
	}
	if err := run([]string{"-agents", "2", "-ticks", "1", "-inspect", "0.0.0.0:0"}, &out, &errs); err == nil || !strings.Contains(err.Error(), "not a loopback address") {
		t.Errorf("-inspect 0.0.0.0:0: %v", err)
	}
}

// TestInspectRecordsTheSame: the inspector, as the settlers' decision sink
// passing every decision on to the recorder, changes nothing of the game:
// the recording and the summary are those of a game without it.
func TestInspectRecordsTheSame(t *testing.T) {
	dir := t.TempDir()
	play := func(name string, extra ...string) (string, []byte) {
		var out, errs lockedBuffer
		path := filepath.Join(dir, name)
		args := append([]string{"-agents", "40", "-ticks", "300", "-seed", "3", "-record", path}, extra...)
		if err := run(args, &out, &errs); err != nil {
			t.Fatalf("%v: %v %s", args, err, errs.String())
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		summary := out.String()
		summary = summary[strings.Index(summary, "colony:"):strings.Index(summary, "recording:")]
		return summary, b
	}
	plainSummary, plain := play("plain.jsonl")
	inspectedSummary, inspected := play("inspected.jsonl", "-inspect", "127.0.0.1:0", "-tick-ms", "0")
	if !bytes.Equal(plain, inspected) || plainSummary != inspectedSummary {
		t.Errorf("with -inspect the game differs:\n%s\nwithout:\n%s", inspectedSummary, plainSummary)
	}
	if bytes.Count(plain, []byte("\n")) < 100 {
		t.Errorf("only %d lines recorded: the test wants a game that decides", bytes.Count(plain, []byte("\n")))
	}
}
