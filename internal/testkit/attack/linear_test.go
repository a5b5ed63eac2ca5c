package attack

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ploy-ai/ploy/internal/testkit/widefile"
)

// TestWholeFileAnalysesAreLinear: a file of 5 000 goals, 5 000 actions and
// 20 000 facts. Building its domain took goals × actions × state words (a
// per-goal pass over every action: 108 s of wall time for this plan on the
// shared 2-core machine), and lint's searches a work limit each (minutes).
// Both now take about a second of CPU.
//
// The file fits the loader's limits by being flow style with short names
// (internal/testkit/widefile): 720 KiB, under domain.MaxFileSize (8 MiB), and about
// 375 000 of domain.MaxTokens' 524 288 tokens by its linear count: 2 a
// fact (f1,f2,... without spaces, a comma counted twice), 43 an action
// ({name: a1, preconditions: {f1: true}, effects: {f2: true}, cost: 1}),
// 24 a goal. Its bit masks take 75 MiB of goap.MaxMaskBytes' 256.
//
// The fixed command takes 1 to 2 s of CPU here (up to 7 s of wall time
// with five other test runs on the machine's two cores). The old one took
// 32 s of CPU to plan (killed at 60 s of wall time on the loaded machine)
// and minutes to lint. So the plan's hang guard is 40 s of wall time,
// several times the fixed command's worst seen under load, and its CPU
// time is bounded by 12 s, six times the fixed command's and well under
// the old one's 32 s: the old command fails on the bound when it is not
// killed by the guard (the machine unloaded); the lint's guard is 60 s.
func TestWholeFileAnalysesAreLinear(t *testing.T) {
	src := widefile.GOAP(widefile.Shape{Goals: 5000, Actions: 5000, Facts: 20000})
	files := map[string][]byte{"wide.yaml": src}
	t.Run("plan", func(t *testing.T) {
		runAttack(t, attack{
			args:      []string{"plan", "wide.yaml", "--goal", "g1"},
			files:     files,
			exits:     []int{0},
			hangGuard: 40 * time.Second,
			check: func(t *testing.T, r *result) {
				if bound := 12 * time.Second; r.cpu > bound {
					t.Errorf("the plan took %v of CPU, more than %v: is building the domain linear?", r.cpu.Round(time.Millisecond), bound)
				}
				t.Logf("the plan took %v of CPU, %v of wall time", r.cpu.Round(time.Millisecond), r.wall.Round(time.Millisecond))
				// g1 wants f8: the chain's first eight actions.
				out := r.stdout.buf.String()
				steps := regexp.MustCompile(`(?m)^\s*\d+\.\s+(a\d+)`).FindAllStringSubmatch(out, -1)
				var got []string
				for _, s := range steps {
					got = append(got, s[1])
				}
				if strings.Join(got, " ") != "a0 a1 a2 a3 a4 a5 a6 a7" {
					t.Errorf("plan %v, want a0 to a7:\n%s", got, out)
				}
			},
		})
	})
	t.Run("lint", func(t *testing.T) {
		runAttack(t, attack{
			args:      []string{"lint", "wide.yaml"},
			files:     files,
			exits:     []int{0},
			hangGuard: 60 * time.Second,
			check: func(t *testing.T, r *result) {
				// Facts past the chain's end (f5001 on) are used by goals
				// or by nothing: 15 000 warnings at least, with those of
				// goals no action reaches, and of the goals lint could not
				// search within its shared work limit.
				m := regexp.MustCompile(`wide\.yaml: (\d+) warnings`).FindStringSubmatch(r.stdout.String() + r.stderr.String())
				if m == nil {
					t.Fatalf("no warning count:\n%s", r.stdout.String()+r.stderr.String())
				}
				if n, _ := strconv.Atoi(m[1]); n < 15000 {
					t.Errorf("%d warnings, want at least 15 000", n)
				}
			},
		})
	})
}
