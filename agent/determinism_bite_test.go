package agent_test

import (
	"crypto/sha256"
	"fmt"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/agent"
)

// The queue's determinism tests compare runs of one process with each
// other, so anything fixed once per process gives the same wrong log
// every time and passes them. These compare the same crowds' event logs
// with digests recorded at commit 969d5c2; a change to any event, its
// order or its content fails them. If the change is meant, run with -v
// and record the new digest.

func digest(s string) string {
	return fmt.Sprintf("%d bytes, sha256 %x", len(s), sha256.Sum256([]byte(s)))
}

func TestQueueLogMatchesTheRecordedGolden(t *testing.T) {
	const golden = "13374 bytes, sha256 1ff0476e1e5b54d1d90f5f4ae2398dd940bc18667f8fb6cf56967467b472afa6"
	var rec agent.Recorder
	q := agent.NewQueue(4, 5)
	agents, worlds := crowd(t, 12, q, &rec)
	for tick := 0; tick < 40; tick++ {
		if tick == 7 {
			worlds[4].set("healthy", false)
		}
		for _, a := range agents {
			a.Tick()
		}
		q.Frame()
	}
	var sb strings.Builder
	rec.WriteJSONL(&sb)
	got := digest(sb.String())
	t.Logf("log: %s", got)
	if got != golden {
		t.Errorf("log is %s, recorded %s:\n%s", got, golden, sb.String())
	}
}

func TestResolverQueueLogMatchesTheRecordedGolden(t *testing.T) {
	const golden = "41580 bytes, sha256 9d1a450078405ffda35015208ba45cd5756cc6384e788a5a5db609925a1293b4"
	var rec agent.Recorder
	q := agent.NewQueue(4, 5)
	survivors, camps := resolverCrowd(t, 12, q, &rec, 1)
	mages, _ := crowd(t, 4, q, &rec)
	for tick := 0; tick < 40; tick++ {
		if tick == 9 {
			camps[2].piles["wood_south"].logs = 0
			q.Cancel(survivors[5])
		}
		if tick == 15 {
			q.Remove(survivors[7])
		}
		for _, a := range survivors {
			a.Tick()
		}
		for _, m := range mages {
			m.Tick()
		}
		q.Frame()
	}
	var sb strings.Builder
	rec.WriteJSONL(&sb)
	got := digest(sb.String())
	t.Logf("log: %s", got)
	if got != golden {
		t.Errorf("log is %s, recorded %s:\n%s", got, golden, sb.String())
	}
}
