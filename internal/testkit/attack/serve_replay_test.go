package attack

import (
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// TestServeReplayAttacks: `ploy serve --replay` reads a recording whole
// (at most 64 MiB) and serves the page over it. A long game's recording
// just under the bound is served in bounded memory to clients that all
// download it at once (the answer is one copy, shared), with the
// server's checks of the host and of other sites; a file past the bound
// stops it at start, saying so, before it is read (it was read and
// decoded whole first: 288 MiB and 20 s to refuse a 70 MB file).
func TestServeReplayAttacks(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 60 MB and a 70 MB recording")
	}
	t.Run("a recording just under the bound, downloaded by many at once", func(t *testing.T) {
		long := longRecording(t, 60<<20)
		runServeAttack(t, serveAttack{
			args:   []string{"--replay", "long.jsonl"},
			files:  map[string][]byte{"long.jsonl": long},
			maxRSS: replayMaxRSS,
			do: func(t *testing.T, base string) {
				var wg sync.WaitGroup
				sizes := make([]int64, 8)
				for i := range sizes {
					wg.Add(1)
					go func() {
						defer wg.Done()
						resp, err := http.Get(base + "/api/v1/recording")
						if err != nil {
							t.Error(err)
							return
						}
						defer resp.Body.Close()
						sizes[i], _ = io.Copy(io.Discard, resp.Body)
					}()
				}
				wg.Wait()
				for i, n := range sizes {
					if n < int64(len(long))/2 || n > 64<<20 {
						t.Errorf("download %d: %d bytes, want the recording's (%d read)", i, n, len(long))
					}
				}
				if a := send(t, "GET", base+"/", nil, nil); a.status != 200 || !strings.Contains(a.header.Get("Content-Security-Policy"), "script-src 'self'") {
					t.Errorf("the page: %s, CSP %q", a, a.header.Get("Content-Security-Policy"))
				}
				if a := send(t, "GET", base+"/api/v1/recording", nil, map[string]string{"Host": "attacker.example:80"}); a.status != 403 {
					t.Errorf("a rebound host name: %s, want 403", a)
				}
				if a := send(t, "GET", base+"/api/v1/recording", nil, map[string]string{"Origin": "http://attacker.example", "Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "cors"}); a.status != 403 {
					t.Errorf("another site's page reading the recording: %s, want 403", a)
				}
				if a := send(t, "POST", base+"/api/v1/recording", []byte(`{}`), map[string]string{"Content-Type": "application/json"}); a.status != 405 {
					t.Errorf("a POST: %s, want 405", a)
				}
			},
		})
	})
	t.Run("a recording past the bound", func(t *testing.T) {
		runAttack(t, attack{
			args:   []string{"serve", "--addr", "127.0.0.1:0", "--replay", "long.jsonl"},
			files:  map[string][]byte{"long.jsonl": longRecording(t, 70<<20)},
			exits:  []int{1},
			maxRSS: 96 << 20,
			stderr: regexp.MustCompile(`^long\.jsonl: longer than 67108864 bytes\n$`),
		})
	})
}

// replayMaxRSS bounds `ploy serve --replay` on a recording of up to 64
// MiB: the decisions as read, the recording written again, and the
// garbage collector's headroom (395 MiB measured for 60 MiB and eight
// downloads at once; a copy per download would pass it).
const replayMaxRSS = 600 << 20
