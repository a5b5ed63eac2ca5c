package viewer_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/viewer"
)

// sseEvent is one Server-Sent Event: its name and its data lines joined.
type sseEvent struct {
	Name, Data string
}

// readEvents parses a stream of Server-Sent Events.
func readEvents(t testing.TB, body []byte) []sseEvent {
	t.Helper()
	var events []sseEvent
	var ev sseEvent
	var data []string
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(nil, 4<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if ev.Name == "" {
				t.Fatalf("an event without a name, data %q", data)
			}
			ev.Data = strings.Join(data, "\n")
			events = append(events, ev)
			ev, data = sseEvent{}, nil
		case strings.HasPrefix(line, "event: "):
			ev.Name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			data = append(data, strings.TrimPrefix(line, "data: "))
		default:
			t.Fatalf("a line that is no part of an event: %q", line)
		}
	}
	if ev.Name != "" || data != nil {
		t.Fatalf("the stream ends inside an event")
	}
	return events
}

// stream posts body to /api/v1/arena/batch and returns the status, the
// content type and the raw answer.
func stream(t testing.TB, h http.Handler, body string) (int, string, []byte) {
	t.Helper()
	r := httptest.NewRequest(http.MethodPost, "/api/v1/arena/batch", strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w.Code, w.Header().Get("Content-Type"), w.Body.Bytes()
}

var svgText = regexp.MustCompile(`<text[^>]*>([^<]*)</text>`)

// TestArenaBatchStreamsTheCommandsTable checks the batch stream: a
// progress event per fight, then the table `ploy arena --json` prints,
// byte for byte, then the charts `ploy arena --plots` writes, fit for the
// page's policy; the same request streams the same bytes again.
func TestArenaBatchStreamsTheCommandsTable(t *testing.T) {
	s := newServer(t, viewer.Config{})
	request := `{"fights": 2, "seed": 7, "agents": ["goap", "htn"]}`
	code, ct, body := stream(t, s, request)
	if code != http.StatusOK || ct != "text/event-stream" {
		t.Fatalf("status %d, %s: %s", code, ct, body)
	}
	events := readEvents(t, body)
	var names []string
	for _, e := range events {
		names = append(names, e.Name)
	}
	want := []string{"progress", "progress", "progress", "progress", "table", "charts", "done"}
	if !slices.Equal(names, want) {
		t.Fatalf("events %q, want %q", names, want)
	}
	for i, e := range events[:4] {
		if want := fmt.Sprintf(`{"done":%d,"total":4}`, i+1); e.Data != want {
			t.Errorf("progress %d: %s, want %s", i, e.Data, want)
		}
	}
	dir := t.TempDir()
	cli := ploy(t, "arena", "--fights", "2", "--seed", "7", "--agents", "goap,htn", "--json", "--plots", dir)
	if got := events[4].Data + "\n"; got != string(cli) {
		t.Errorf("the streamed table:\n%s\nwant ploy arena --json's:\n%s", got, cli)
	}
	var charts []struct{ Name, Title, SVG string }
	if err := json.Unmarshal([]byte(events[5].Data), &charts); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.svg"))
	if len(charts) != len(files) || len(charts) != 6 {
		t.Fatalf("%d charts, the command wrote %d files", len(charts), len(files))
	}
	for _, c := range charts {
		file, err := os.ReadFile(filepath.Join(dir, c.Name))
		if err != nil {
			t.Errorf("chart %q: the command wrote no such file", c.Name)
			continue
		}
		if !strings.HasPrefix(c.SVG, "<svg ") || strings.Contains(c.SVG, " style=") || strings.Contains(c.SVG, "<?xml") {
			t.Errorf("%s: not an <svg> element without style attributes: %.200s", c.Name, c.SVG)
		}
		// The same labels (the bars' values among them) and as many
		// filled shapes as the command's file.
		texts := func(svg string) (out []string) {
			for _, m := range svgText.FindAllStringSubmatch(svg, -1) {
				out = append(out, m[1])
			}
			return out
		}
		if got, want := texts(c.SVG), texts(string(file)); !slices.Equal(got, want) || len(want) == 0 {
			t.Errorf("%s: labels %q, the command's %q", c.Name, got, want)
		}
		if got, want := strings.Count(c.SVG, ` fill="#`), strings.Count(string(file), ` fill="#`); got != want {
			t.Errorf("%s: %d fills, the command's file %d", c.Name, got, want)
		}
		if !strings.Contains(c.Title, " ") {
			t.Errorf("%s: title %q", c.Name, c.Title)
		}
	}
	if _, _, again := stream(t, s, request); !bytes.Equal(again, body) {
		t.Error("the same request streamed different bytes")
	}
}

// TestArenaFightIsTheRecordedLog checks that a fight fought again by the
// server is the log `ploy arena --record` wrote for it, byte for byte.
func TestArenaFightIsTheRecordedLog(t *testing.T) {
	s := newServer(t, viewer.Config{})
	dir := t.TempDir()
	ploy(t, "arena", "--fights", "2", "--seed", "7", "--agents", "goap,htn", "--record", dir)
	for _, kind := range []string{"goap", "htn"} {
		for n := range 2 {
			want, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("%s-%02d.jsonl", kind, n)))
			if err != nil {
				t.Fatal(err)
			}
			r := httptest.NewRequest(http.MethodPost, "/api/v1/arena/fight", strings.NewReader(fmt.Sprintf(`{"seed": 7, "fight": %d, "agent": %q}`, n, kind)))
			r.Header.Set("Content-Type", "application/json")
			w := httptest.NewRecorder()
			s.ServeHTTP(w, r)
			if w.Code != http.StatusOK || w.Header().Get("Content-Type") != "application/x-ndjson" {
				t.Fatalf("%s fight %d: %d %s: %.300s", kind, n, w.Code, w.Header().Get("Content-Type"), w.Body)
			}
			if !bytes.Equal(w.Body.Bytes(), want) {
				t.Errorf("%s fight %d: %d bytes, not the %d bytes --record wrote", kind, n, w.Body.Len(), len(want))
			}
		}
	}
}

// TestArenaBadRequests checks the new endpoints' answers to bad bodies:
// JSON errors naming the field, before any work or stream starts.
func TestArenaBadRequests(t *testing.T) {
	s := newServer(t, viewer.Config{})
	for _, c := range []struct {
		path, body string
		code       int
		field, msg string
	}{
		{"/api/v1/arena/fight", `{"fight": -1, "agent": "goap"}`, 400, "fight", "not from 0 to 99"},
		{"/api/v1/arena/fight", `{"fight": 100, "agent": "goap"}`, 400, "fight", "not from 0 to 99"},
		{"/api/v1/arena/fight", `{"fight": 0}`, 400, "agent", "agent is missing; the kinds: goap, htn"},
		{"/api/v1/arena/fight", `{"agent": "robot"}`, 400, "agent", `unknown agent kind "robot"`},
		{"/api/v1/arena/fight", `{"agent": "goap", "fights": 3}`, 400, "fights", `unknown field "fights"`},
		{"/api/v1/arena/fight", `{"agent": "goap", "seed": -1}`, 400, "seed", `"seed" must be a number`},
		{"/api/v1/arena/fight", `{"agent": "goap", "domain": "soldier"}`, 422, "domain", "soldier.yaml lacks facts the arena's world drives: in_range"},
		{"/api/v1/arena/fight", `{"agent": "goap", "domain": "survivor"}`, 422, "domain", "engine-model file"},
		{"/api/v1/arena/fight", `{"agent": "goap", "fight": 1e9}`, 400, "fight", "must be a number"},
		{"/api/v1/arena/fight", `{"agent": "goap"} {}`, 400, "", "more after the request object"},
		// The batch's request, shared with /api/v1/arena: a kind named
		// twice would fight the batch twice.
		{"/api/v1/arena", `{"fights": 1, "agents": ["bt", "bt"]}`, 400, "agents", `agent kind "bt" is named twice`},
	} {
		code, got := post(t, s, c.path, c.body)
		var e errorAnswer
		if err := json.Unmarshal(got, &e); err != nil {
			t.Errorf("%s %s: the answer is not JSON: %v: %s", c.path, c.body, err, got)
			continue
		}
		if code != c.code || e.Field != c.field || !strings.Contains(e.Error, c.msg) {
			t.Errorf("%s %s: %d %s, want %d, field %q, an error with %q", c.path, c.body, code, got, c.code, c.field, c.msg)
		}
	}
	for _, c := range []struct {
		body       string
		code       int
		field, msg string
	}{
		{`{"fights": 101}`, 400, "fights", "above the server's cap of 100"},
		{`{"fights": 1, "agents": ["gaop"]}`, 400, "agents", `unknown agent kind "gaop"`},
		{`{"fights": 1, "fight": 2}`, 400, "fight", `unknown field "fight"`},
		{`{"fights": 1, "agents": ["bt", "goap", "bt"]}`, 400, "agents", `agent kind "bt" is named twice`},
		{`{"fights": 1, "domain": "soldier"}`, 422, "domain", "soldier.yaml lacks facts the arena's world drives: in_range"},
		{`{"fights": 1, "source": "name: x\nfacts: [a]\nactions: []\n"}`, 422, "domain", "needs the domain's htn section for its built-in agent kinds"},
		{`{"fights": 1, "source": "name: x\nfacts: [a]\nactions: []\nhtn:\n  root: T\n  tasks: []\n"}`, 422, "", ""},
		{`[`, 400, "", "malformed JSON"},
	} {
		code, ct, got := stream(t, s, c.body)
		var e errorAnswer
		if err := json.Unmarshal(got, &e); err != nil || ct != "application/json" {
			t.Errorf("batch %s: the answer is not JSON (%s): %v: %s", c.body, ct, err, got)
			continue
		}
		if code != c.code || e.Field != c.field || !strings.Contains(e.Error, c.msg) {
			t.Errorf("batch %s: %d %s, want %d, field %q, an error with %q", c.body, code, got, c.code, c.field, c.msg)
		}
	}
	// A request that is not JSON, and a body past the cap.
	r := httptest.NewRequest(http.MethodPost, "/api/v1/arena/batch", strings.NewReader("fights=1"))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	if w.Code != http.StatusUnsupportedMediaType {
		t.Errorf("a form: %d %s, want 415", w.Code, w.Body)
	}
	big := `{"source": "` + strings.Repeat("x", viewer.DefaultMaxBody) + `"}`
	if code, _, got := stream(t, s, big); code != http.StatusRequestEntityTooLarge {
		t.Errorf("a body past the cap: %d %.200s, want 413", code, got)
	}
	r = httptest.NewRequest(http.MethodGet, "/api/v1/arena/batch", nil)
	w = httptest.NewRecorder()
	s.ServeHTTP(w, r)
	if w.Code != http.StatusMethodNotAllowed {
		t.Errorf("GET: %d, want 405", w.Code)
	}
}

// FuzzArenaFight sends any body to /api/v1/arena/fight (whose answer is
// JSON lines, so it is not among FuzzRequest's paths): an error must be
// JSON with a status from the API's list, a log one JSON object a line,
// its first the layout; never a panic (a 500) or a hang.
func FuzzArenaFight(f *testing.F) {
	for _, seed := range []string{
		`{"agent": "goap"}`,
		`{"agent": "htn-break", "fight": 3, "seed": 12}`,
		`{"agent": "bt", "domain": "battlemage.yaml", "fight": 99}`,
		`{"agent": "goap", "fight": 100}`,
		`{"agent": "utility", "source": "name: x\nfacts: [a]\n"}`,
		`{"agent": "goap", "seed": 1e30}`,
		`{"agent": ["goap"]}`,
		`{}`,
		"\xff",
	} {
		f.Add(seed)
	}
	s := newServer(f, viewer.Config{MaxFights: 5})
	f.Fuzz(func(t *testing.T, body string) {
		r := httptest.NewRequest(http.MethodPost, "/api/v1/arena/fight", strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		s.ServeHTTP(w, r)
		switch w.Code {
		case 200:
			lines := strings.Split(strings.TrimSuffix(w.Body.String(), "\n"), "\n")
			if !strings.HasPrefix(lines[0], `{"layout":`) {
				t.Fatalf("%q: the log starts %.100s", body, lines[0])
			}
			for _, line := range lines {
				if !json.Valid([]byte(line)) {
					t.Fatalf("%q: a line of the log is not JSON: %.100s", body, line)
				}
			}
		case 400, 404, 413, 422:
			if !json.Valid(w.Body.Bytes()) {
				t.Fatalf("%q: the answer is not JSON: %s", body, w.Body)
			}
		default:
			t.Fatalf("%q: status %d: %s", body, w.Code, w.Body)
		}
	})
}

// TestArenaFileWithoutHTN fights a battle mage whose file has no htn
// section and only GOAP and tree agents: the htn section is needed by the
// built-in kinds (their HTN agents), not by a file's own.
func TestArenaFileWithoutHTN(t *testing.T) {
	src, err := fs.ReadFile(domains.Files, "battlemage.yaml")
	if err != nil {
		t.Fatal(err)
	}
	text := string(src)
	start, end := strings.Index(text, "\nhtn:\n"), strings.Index(text, "\ninputs:")
	if start < 0 || end < start {
		t.Fatal("the battle mage's file no longer has htn: before inputs:")
	}
	text = text[:start+1] + text[end+1:]
	for _, kind := range []string{"htn", "htn-break"} {
		i := strings.Index(text, "  - name: "+kind+"\n")
		j := strings.Index(text[i:], "mode:")
		text = text[:i] + text[i+j+strings.Index(text[i+j:], "\n")+1:]
	}
	q, _ := json.Marshal(map[string]any{"source": text, "agent": "goap"})
	r := httptest.NewRequest(http.MethodPost, "/api/v1/arena/fight", bytes.NewReader(q))
	r.Header.Set("Content-Type", "application/json")
	w := httptest.NewRecorder()
	newServer(t, viewer.Config{}).ServeHTTP(w, r)
	if w.Code != http.StatusOK || !strings.HasPrefix(w.Body.String(), `{"layout":`) {
		t.Errorf("a fight of a file without htn and without HTN agents: %d %.300s", w.Code, w.Body)
	}
}
