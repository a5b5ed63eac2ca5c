package replay_test

import (
	"encoding/json"
	"io/fs"
	"testing"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/domain"
	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/replay"
)

// FuzzDecideAndWhy: whatever decision a recording holds (any kind,
// options, snapshot, profile, limits, MTR), deciding it again and
// answering why for it never panics, against an engine-model file and a
// state-space one with HTN and agent kinds.
func FuzzDecideAndWhy(f *testing.F) {
	for _, seed := range []string{
		`{"tick":1,"agent":"a","kind":"resolver","decided":"plan","agent_kind":"survivor","goal":"Warm","options":[{"goal":"Warm","current":true},{"goal":"Fed","why":"goal holds"}],"snapshot":{"values":{"warmth":3},"at":{"X":0,"Y":0},"targets":{"fireplace":{"X":1,"Y":2}}},"limits":{"budget":3}}`,
		`{"tick":1,"agent":"a","kind":"goap","decided":"plan","agent_kind":"goap","goal":"Kill","current":"Kill","options":[{"goal":"Kill"},{"goal":"GetHealthy","why":"when is false"}],"snapshot":{"facts":["healthy"]},"profile":{"incapable":["CastBolt"],"costs":{"Approach":{"otherwise":2,"rules":[]}}}}`,
		`{"tick":1,"agent":"a","kind":"htn","decided":"interruption","task":"BeABattleMage","running":[1,0,2],"snapshot":{"facts":[]}}`,
		`{"tick":1,"agent":"a","kind":"tree","decided":"choice","current":"Approach","margin":1,"options":[{"goal":"Approach","score":1,"current":true},{"goal":"FetchPotion","score":1e308,"why":"score is not a number"}],"snapshot":{"facts":["healthy"]}}`,
		`{"tick":1,"agent":"a","kind":"goap","decided":"goal","options":[{"goal":"Nope"}],"snapshot":{"facts":["nope"]}}`,
	} {
		f.Add([]byte(seed))
	}
	files := map[string]*domain.File{}
	for _, name := range []string{"survivor.yaml", "battlemage.yaml"} {
		src, err := fs.ReadFile(domains.Files, name)
		if err != nil {
			f.Fatal(err)
		}
		if files[name], err = domain.Parse(name, src); err != nil {
			f.Fatal(err)
		}
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		var d agent.Decision
		if json.Unmarshal(line, &d) != nil || len(line) > 4096 {
			return
		}
		for _, file := range files {
			r := replay.New(replay.FromFile(file))
			r.Run([]agent.Decision{d, d}, -1)
			r.Why([]agent.Decision{d, d}, 1)
		}
	})
}
