package attack

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/internal/testkit/camp"
)

// longRecording is a camp's recording, its decisions repeated until it
// holds about size bytes (the header's count made to match): a recording
// a long game would write.
func longRecording(t *testing.T, size int) []byte {
	lines := strings.Split(strings.TrimSpace(string(camp.Record(t, camp.Options{Agents: 8, Ticks: 120, Workers: 1}))), "\n")
	body := lines[1:]
	var b bytes.Buffer
	n := 0
	for b.Len() < size {
		for _, l := range body {
			b.WriteString(l)
			b.WriteByte('\n')
			n++
		}
	}
	head := fmt.Sprintf(`{"format":"ploy-decisions","version":1,"domain":"survivor.yaml","decisions":%d,"dropped":0}`, n)
	return append([]byte(head+"\n"), b.Bytes()...)
}

// TestRecordingAttacks: ploy replay and ploy why read a recording one
// decision at a time, so a long one (150 MB here) is replayed and searched
// in the memory of a few decisions; a line past the bound and a count
// that lies are positioned errors.
func TestRecordingAttacks(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 150 MB recording")
	}
	long := longRecording(t, 150<<20)
	t.Run("replay a long recording", func(t *testing.T) {
		runAttack(t, attack{
			args:      []string{"replay", "long.jsonl"},
			files:     map[string][]byte{"long.jsonl": long},
			exits:     []int{0},
			maxRSS:    96 << 20,
			hangGuard: 5 * 60e9,
			check: func(t *testing.T, r *result) {
				if !strings.Contains(r.stdout.buf.String(), ": 0 changed") {
					t.Errorf("stdout: %s", r.stdout.String())
				}
			},
		})
	})
	t.Run("why in a long recording", func(t *testing.T) {
		runAttack(t, attack{
			args:   []string{"why", "long.jsonl", "--agent", "s03", "--tick", "1000000", "--json"},
			files:  map[string][]byte{"long.jsonl": long},
			exits:  []int{0},
			maxRSS: 96 << 20,
		})
	})
	t.Run("a line past the bound", func(t *testing.T) {
		rec := `{"format":"ploy-decisions","version":1,"domain":"survivor.yaml","decisions":1,"dropped":0}` + "\n" + `{"agent":"` + strings.Repeat("a", 8<<20) + `"}` + "\n"
		runAttack(t, attack{
			args:   []string{"replay", "big.jsonl"},
			files:  map[string][]byte{"big.jsonl": []byte(rec)},
			exits:  []int{1},
			stderr: regexp.MustCompile(`big\.jsonl:2: a line longer than 4194304 bytes`),
		})
	})
	t.Run("a count that lies", func(t *testing.T) {
		rec := bytes.Replace(long[:200<<10], []byte(`"decisions":`), []byte(`"decisions":9`), 1)
		rec = rec[:bytes.LastIndexByte(rec, '\n')+1]
		runAttack(t, attack{
			args:   []string{"replay", "short.jsonl"},
			files:  map[string][]byte{"short.jsonl": rec},
			exits:  []int{1},
			stderr: regexp.MustCompile(`short\.jsonl: the header says 9\d+ decisions, the file has \d+: cut short\?`),
		})
	})
}
