package attack

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/domains"
)

// The attacks on `ploy serve` (answers bounded, cross-site requests
// refused, the host checked), each on a server started as a capped child
// by runServeAttack, and the bounded answers' on the command too.

// wideEngineFile is an engine-model file whose action graph has n*n+n
// edges: n actions serving a condition n others have, each name padded to
// pad bytes. With n = 1000 and pad = 170 it is 458 KB and its graph's JSON
// 574 MB: the file that put the server out of memory.
func wideEngineFile(n, pad int) []byte {
	var b strings.Builder
	b.WriteString("name: wide\nkeys: {k: bool, done: bool}\nactions:\n")
	suffix := strings.Repeat("x", pad)
	for i := range n {
		fmt.Fprintf(&b, "  - {name: P%d%s, effects: {k: true}, cost: 1}\n", i, suffix)
	}
	for i := range n {
		fmt.Fprintf(&b, "  - {name: C%d%s, conditions: {k: true}, effects: {done: true}, cost: 1}\n", i, suffix)
	}
	b.WriteString("goals:\n  - {name: G, conditions: {done: true}}\n")
	return []byte(b.String())
}

// apiError is the API's error answer.
type apiError struct {
	Error string `json:"error"`
	Field string `json:"field"`
}

func errorOf(t *testing.T, a *answer) apiError {
	t.Helper()
	var e apiError
	if err := json.Unmarshal(a.body, &e); err != nil || e.Error == "" {
		t.Errorf("not a JSON error answer: %s", a)
	}
	return e
}

func TestServeGraphIsBounded(t *testing.T) {
	src := wideEngineFile(1000, 170)
	body, err := json.Marshal(map[string]string{"source": string(src)})
	if err != nil {
		t.Fatal(err)
	}
	t.Run("pasted", func(t *testing.T) {
		runServeAttack(t, serveAttack{
			do: func(t *testing.T, base string) {
				a := postJSON(t, base+"/api/v1/graph", body)
				t.Logf("graph of %d bytes pasted: %d, %d bytes", len(src), a.status, a.n)
				if a.status != http.StatusUnprocessableEntity || a.n > 4096 {
					t.Fatalf("want a short 422, got %s", a)
				}
				e := errorOf(t, a)
				if e.Field != "source" || !regexp.MustCompile(`1001000 edges, \d+ bytes`).MatchString(e.Error) {
					t.Errorf("the error should name the source, its edges and bytes: %+v", e)
				}
				// The server is still whole: a graph under the bound is
				// answered, edge for edge.
				small, _ := json.Marshal(map[string]string{"source": string(wideEngineFile(30, 0))})
				a = postJSON(t, base+"/api/v1/graph", small)
				if a.status != http.StatusOK || strings.Count(string(a.body), `"from":`) != 30*30+30 {
					t.Errorf("graph of 930 edges: %s", a)
				}
			},
		})
	})
	t.Run("offered at start", func(t *testing.T) {
		runServeAttack(t, serveAttack{
			args:  []string{"wide.yaml"},
			files: map[string][]byte{"wide.yaml": src},
			do: func(t *testing.T, base string) {
				a := postJSON(t, base+"/api/v1/graph", []byte(`{"domain": "wide.yaml"}`))
				if a.status != http.StatusUnprocessableEntity || a.n > 4096 {
					t.Fatalf("want a short 422, got %s", a)
				}
				if e := errorOf(t, a); e.Field != "domain" {
					t.Errorf("the error should name the domain: %+v", e)
				}
			},
		})
	})
}

func TestGraphCommandIsBounded(t *testing.T) {
	files := map[string][]byte{"wide.yaml": wideEngineFile(1000, 170)}
	t.Run("json", func(t *testing.T) {
		runAttack(t, attack{
			args:   []string{"graph", "wide.yaml", "--format", "json"},
			files:  files,
			exits:  []int{1},
			stderr: regexp.MustCompile(`1001000 edges, 574505691 bytes of JSON, more than --max-output \(67108864\)`),
			check: func(t *testing.T, r *result) {
				if r.stdout.n != 0 {
					t.Errorf("%d bytes of a JSON document that cannot be whole", r.stdout.n)
				}
			},
		})
	})
	t.Run("text, cut", func(t *testing.T) {
		runAttack(t, attack{
			args:   []string{"graph", "wide.yaml", "--max-output", "500000"},
			files:  files,
			exits:  []int{1},
			stderr: regexp.MustCompile(`output cut after \d+ bytes, at the --max-output bound of 500000`),
			check: func(t *testing.T, r *result) {
				if r.stdout.n > 500000 || r.stdout.n == 0 || !strings.HasSuffix(r.stdout.buf.String(), "\n") && r.stdout.n <= kept {
					t.Errorf("stdout of %d bytes, want some whole lines up to 500000", r.stdout.n)
				}
			},
		})
	})
}

func TestServeRefusesCrossSiteRequests(t *testing.T) {
	plan := []byte(`{"goal": "Kill"}`)
	runServeAttack(t, serveAttack{
		do: func(t *testing.T, base string) {
			for _, c := range []struct {
				name   string
				header map[string]string
				want   int
			}{
				{"no content type (Blob, ArrayBuffer, sendBeacon)", nil, http.StatusUnsupportedMediaType},
				{"text/plain", map[string]string{"Content-Type": "text/plain"}, http.StatusUnsupportedMediaType},
				{"sendBeacon from another site", map[string]string{"Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "no-cors"}, http.StatusForbidden},
				{"JSON from another origin", map[string]string{"Content-Type": "application/json", "Origin": "http://evil.example"}, http.StatusForbidden},
				{"JSON, cross-site", map[string]string{"Content-Type": "application/json", "Sec-Fetch-Site": "cross-site"}, http.StatusForbidden},
				{"JSON from an opaque origin (sandboxed frame, data: URL)", map[string]string{"Content-Type": "application/json", "Origin": "null"}, http.StatusForbidden},
				{"JSON from another local port", map[string]string{"Content-Type": "application/json", "Origin": "http://127.0.0.1:1", "Sec-Fetch-Site": "same-site"}, http.StatusForbidden},
			} {
				for _, path := range []string{"/api/v1/plan", "/api/v1/live", "/api/v1/arena/batch"} {
					a := send(t, http.MethodPost, base+path, plan, c.header)
					if a.status != c.want || a.n > 4096 {
						t.Errorf("%s to %s: %s, want %d", c.name, path, a, c.want)
					}
				}
			}
			// The pages' own requests still work.
			a := send(t, http.MethodPost, base+"/api/v1/plan", plan, map[string]string{"Content-Type": "application/json", "Origin": base, "Sec-Fetch-Site": "same-origin"})
			if a.status != http.StatusOK {
				t.Errorf("the page's own POST: %s", a)
			}
		},
	})
}

// TestServeHostCheckFollowsTheListenedAddress: the Host check (against DNS
// rebinding) is on when the server listens on the loopback, whatever the
// flag's text says: a name in capitals, or a host name that resolves to
// the loopback; and off, with a warning, when it listens on every
// address. A check decided from the flag's text (the word "localhost" or
// a loopback IP) fails on the host name; one always on fails on 0.0.0.0.
func TestServeHostCheckFollowsTheListenedAddress(t *testing.T) {
	cases := []struct {
		addr     string
		loopback bool
	}{
		{"LOCALHOST:0", true},
		{"localhost:0", true},
		{"127.0.0.1:0", true},
		{"0.0.0.0:0", false},
	}
	name, why := loopbackOnlyName()
	if name == "" {
		t.Run("a host name of the loopback", func(t *testing.T) {
			t.Skipf("no host name other than localhost resolves only to the loopback here (%s)", why)
		})
	} else {
		cases = append(cases, struct {
			addr     string
			loopback bool
		}{net.JoinHostPort(name, "0"), true})
	}
	for _, c := range cases {
		t.Run(c.addr, func(t *testing.T) {
			// A server on every address answers any Host; one on the
			// loopback only its own names.
			want := http.StatusForbidden
			if !c.loopback {
				want = http.StatusOK
			}
			runServeAttack(t, serveAttack{
				args: []string{"--addr", c.addr},
				do: func(t *testing.T, base string) {
					a := send(t, http.MethodGet, base+"/api/v1/domains", nil, map[string]string{"Host": "evil.example"})
					if a.status != want {
						t.Errorf("Host: evil.example: %s, want %d", a, want)
					}
					a = send(t, http.MethodPost, base+"/api/v1/plan", []byte(`{"goal": "Kill"}`), map[string]string{"Host": "evil.example:80", "Content-Type": "application/json"})
					if a.status != want {
						t.Errorf("POST with Host: evil.example: %s, want %d", a, want)
					}
					if a := send(t, http.MethodGet, base+"/api/v1/domains", nil, nil); a.status != http.StatusOK {
						t.Errorf("the server's own address: %s", a)
					}
				},
				check: func(t *testing.T, r *result) {
					warned := strings.Contains(r.stderr.String(), "anyone who can reach it")
					if c.loopback && warned {
						t.Errorf("a loopback server warned it serves the network:\n%s", r.stderr)
					}
					if !c.loopback && !warned {
						t.Errorf("a server on every address did not warn it serves the network:\n%s", r.stderr)
					}
				},
			})
		})
	}
}

// loopbackOnlyName returns a host name, other than localhost, whose every
// address is a loopback one: the machine's own name, or one of
// /etc/hosts. It returns "" and why when there is none.
func loopbackOnlyName() (name, why string) {
	var names []string
	if h, err := os.Hostname(); err == nil {
		names = append(names, h)
	}
	if hosts, err := os.ReadFile("/etc/hosts"); err == nil {
		for _, line := range strings.Split(string(hosts), "\n") {
			line, _, _ = strings.Cut(line, "#")
			if fields := strings.Fields(line); len(fields) > 1 {
				names = append(names, fields[1:]...)
			}
		}
	}
	for _, n := range names {
		if strings.EqualFold(n, "localhost") || net.ParseIP(n) != nil {
			continue
		}
		ips, err := net.LookupIP(n)
		if err != nil || len(ips) == 0 {
			continue
		}
		loopback := true
		for _, ip := range ips {
			loopback = loopback && ip.IsLoopback()
		}
		if loopback {
			return n, ""
		}
	}
	return "", fmt.Sprintf("tried %q", names)
}

func TestArenaLogsAreBounded(t *testing.T) {
	src, err := fs.ReadFile(domains.Files, "battlemage.yaml")
	if err != nil {
		t.Fatal(err)
	}
	// The battle mage with 40 more GOAP kinds (a file may have 256): at
	// the most fights, --record would write some 18 GB of logs.
	var b strings.Builder
	b.Write(src)
	for i := range 40 {
		fmt.Fprintf(&b, "  - name: extra%d\n    goals:\n      - {goal: Kill, priority: 5}\n", i)
	}
	runAttack(t, attack{
		args:   []string{"arena", "many.yaml", "--fights", "1000", "--record", "logs"},
		files:  map[string][]byte{"many.yaml": []byte(b.String())},
		exits:  []int{1},
		stderr: regexp.MustCompile(`--record would write about \d+ bytes of event logs \(1000 fights × 45 kinds × about 400 KB\), more than --max-record`),
		check: func(t *testing.T, r *result) {
			if entries, err := os.ReadDir(filepath.Join(r.dir, "logs")); err == nil && len(entries) > 0 {
				t.Errorf("%d logs written before the refusal", len(entries))
			}
		},
	})
}
