package arena_test

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/arena"
	"github.com/ploy-ai/ploy/domain"
	"github.com/ploy-ai/ploy/domains"
)

func battleMageFile(t *testing.T, extra string) *domain.File {
	t.Helper()
	src, err := fs.ReadFile(domains.Files, "battlemage.yaml")
	if err != nil {
		t.Fatal(err)
	}
	f, err := domain.Parse("battlemage.yaml", append(src, extra...))
	if err != nil {
		t.Fatalf("%s", domain.Format(err, append(src, extra...)))
	}
	return f
}

// TestKindsFromTheFileFightAsTheBuiltIn checks that the shipped battle
// mage's agents: section, which says what the built-in kinds do, fights
// exactly as they do: the same table, byte for byte, and the same event
// logs.
func TestKindsFromTheFileFightAsTheBuiltIn(t *testing.T) {
	f := battleMageFile(t, "")
	kinds, err := arena.KindsFrom(f)
	if err != nil {
		t.Fatal(err)
	}
	run := func(kinds []arena.Kind, record string) (text, js string, logs [][]byte) {
		table, err := arena.Run(arena.Config{GOAP: f.GOAP, HTN: f.HTN, Fights: 12, Seed: 3, Kinds: kinds, Record: record})
		if err != nil {
			t.Fatal(err)
		}
		var a, b bytes.Buffer
		table.WriteText(&a)
		table.WriteJSON(&b)
		for _, path := range table.Logs {
			log, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			logs = append(logs, log)
		}
		return a.String(), b.String(), logs
	}
	builtText, builtJSON, builtLogs := run(arena.Kinds, filepath.Join(t.TempDir(), "built"))
	fileText, fileJSON, fileLogs := run(kinds, filepath.Join(t.TempDir(), "file"))
	if fileText != builtText {
		t.Errorf("the file's kinds' table:\n%s\nthe built-in kinds':\n%s", fileText, builtText)
	}
	if fileJSON != builtJSON {
		t.Error("the JSON tables differ")
	}
	if len(fileLogs) != len(builtLogs) {
		t.Fatalf("%d logs from the file's kinds, %d from the built-in", len(fileLogs), len(builtLogs))
	}
	for i := range fileLogs {
		if !bytes.Equal(fileLogs[i], builtLogs[i]) {
			t.Errorf("event log %d differs", i)
		}
	}
}

// TestEditingTheFileChangesTheFight edits the file's GOAP agent to heal
// as soon as it is not healthy, as the HTN does: its row changes.
func TestEditingTheFileChangesTheFight(t *testing.T) {
	shipped := battleMageFile(t, "")
	src, _ := fs.ReadFile(domains.Files, "battlemage.yaml")
	edited := strings.Replace(string(src), `{goal: GetHealthy, priority: 10, when: {health: "< 40"}}`, `{goal: GetHealthy, priority: 10}`, 1)
	if edited == string(src) {
		t.Fatal("the shipped file no longer has the GOAP agent's GetHealthy option")
	}
	f, err := domain.Parse("edited.yaml", []byte(edited))
	if err != nil {
		t.Fatal(err)
	}
	row := func(f *domain.File) string {
		kinds, err := arena.KindsFrom(f)
		if err != nil {
			t.Fatal(err)
		}
		table, err := arena.Run(arena.Config{GOAP: f.GOAP, HTN: f.HTN, Fights: 10, Seed: 1, Kinds: kinds[:1]})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		table.WriteJSON(&b)
		return b.String()
	}
	if a, b := row(shipped), row(f); a == b {
		t.Errorf("the edited GOAP agent fights as the shipped one:\n%s", a)
	}
}

// TestKindsFromRefuses checks the errors: a file without agents, and an
// input the arena's world cannot supply.
func TestKindsFromRefuses(t *testing.T) {
	src, _ := fs.ReadFile(domains.Files, "soldier.yaml")
	soldier, _ := domain.Parse("soldier.yaml", src)
	if _, err := arena.KindsFrom(soldier); err == nil || !strings.Contains(err.Error(), "soldier.yaml lacks facts the arena's world drives: in_range, in_cover, staff_charged, spare_crystals, carrying_potion, potion_at_shrine, healthy, enemy_dead") {
		t.Errorf("the soldier's agents in the battle mage's arena: %v", err)
	}
	mage, _ := fs.ReadFile(domains.Files, "battlemage.yaml")
	f, err := domain.Parse("mana.yaml", []byte(strings.Replace(string(mage), "inputs: {health: 100}", "inputs: {health: 100, mana: 5}", 1)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := arena.KindsFrom(f); err == nil || !strings.Contains(err.Error(), `declares input "mana", which the arena's world cannot supply: it supplies health, enemies, charges`) {
		t.Errorf("an input the arena cannot supply: %v", err)
	}
}

// TestHybridKindFights runs a tree agent from a file whose leaves plan:
// an htn leaf fights with the battle mage HTN's Fight task, a plan leaf
// heals with GOAP (a tree with planning leaves). It fights and kills.
func TestHybridKindFights(t *testing.T) {
	src, _ := fs.ReadFile(domains.Files, "battlemage.yaml")
	text := string(src)
	text = text[:strings.Index(text, "\ninputs:")] + `
inputs: {health: 100}
agents:
  - name: hybrid
    title: tree with planning leaves
    tree:
      selector:
        - sequence: [{when: {health: "< 40"}}, {plan: GetHealthy}]
        - sequence: [{when: {enemy_dead: false}}, {htn: Fight}]
        - {htn: ChargeStaff}
`
	f, err := domain.Parse("hybrid.yaml", []byte(text))
	if err != nil {
		t.Fatalf("%s", domain.Format(err, []byte(text)))
	}
	kinds, err := arena.KindsFrom(f)
	if err != nil {
		t.Fatal(err)
	}
	table, err := arena.Run(arena.Config{GOAP: f.GOAP, HTN: f.HTN, Fights: 4, Seed: 1, Kinds: kinds})
	if err != nil {
		t.Fatal(err)
	}
	r := table.Rows[0]
	if r.Kind != "hybrid" || r.Killed == 0 || r.Plans == 0 || r.StepsPerPlan == nil || r.ExpandedPerPlan == nil {
		t.Errorf("the hybrid's row: %+v; want kills, decompositions and GOAP searches", r)
	}
}
