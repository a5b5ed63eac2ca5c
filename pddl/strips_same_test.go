package pddl_test

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"

	"github.com/ploy-ai/ploy/pddl"
)

// stripsTreesDigest is the SHA-256 of renderDomain and renderProblem of
// the 21 STRIPS instances of ../shared/pddl, in instances.tsv's order, as
// the STRIPS-only parser of commit e0770ca read them: the ADL front end
// must read every one of them to the very same tree, positions included.
const stripsTreesDigest = "8984b6ae7776363518034f93e65be250b97972411d9909662b0388c61b3213b8"

func TestStripsTreesUnchanged(t *testing.T) {
	h := sha256.New()
	for _, in := range instances(t) {
		domSrc, probSrc := readInstance(t, in)
		d, err := pddl.ParseDomain(in.domain, domSrc)
		if err != nil {
			t.Fatal(err)
		}
		p, err := pddl.ParseProblem(in.problem, probSrc)
		if err != nil {
			t.Fatal(err)
		}
		h.Write([]byte(renderDomain(d)))
		h.Write([]byte(renderProblem(p)))
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != stripsTreesDigest {
		t.Errorf("the STRIPS instances' trees changed: digest %s, want %s", got, stripsTreesDigest)
	}
}
