package arena

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/htn"
)

// MaxFights bounds a batch's fights per kind: about 3 s of work at the
// most, and with Record about 180 KB of logs per fight and kind (0.9 GB).
const MaxFights = 1000

// MaxBatchWork bounds a batch's planning work: GOAP states expanded and
// HTN decomposition steps, over every fight and kind (the default batch
// does about 77 000, a batch of MaxFights about 2 million). A
// domain whose searches run to their limits every time, such as an HTN
// method that recurses without progress, is stopped here after a few
// seconds rather than running for minutes.
const MaxBatchWork = 20_000_000

// Config describes a batch.
type Config struct {
	GOAP   *goap.Domain // the battle mage
	HTN    *htn.Domain  // its HTN
	Fights int          // default 40, at most MaxFights
	Seed   uint64
	Kinds  []Kind // default: all, in table order
	// Record, if set, is a directory that receives one event log per fight
	// and kind, with the world at every tick, for replay.
	Record string
	// Timing adds planning time to the table. It makes the table differ
	// from run to run, so it is off by default.
	Timing bool
	// Progress, if set, is called after every fight.
	Progress func(done, total int)
	// Decisions, if set, receives every agent's decision records
	// (agent.Config.Decisions), the fights one after another.
	Decisions agent.DecisionSink
}

// Row is one agent kind's results over the batch, per fight unless the
// name says otherwise.
type Row struct {
	Kind          string             `json:"kind"`
	Title         string             `json:"title"`
	Fights        int                `json:"fights"`
	Survived      int                `json:"survived"`
	Killed        float64            `json:"killed"`
	MeanHealth    float64            `json:"mean_health"`
	Plans         float64            `json:"plans"`
	Replans       float64            `json:"replans"`
	ReplanReasons map[string]float64 `json:"replan_reasons"`
	// ExpandedPerPlan and StepsPerPlan are nil for a kind that expands no
	// states (the HTNs and trees) or takes no decomposition steps (GOAP
	// and trees): the table's "-", JSON's null.
	ExpandedPerPlan *float64 `json:"expanded_per_plan"`
	StepsPerPlan    *float64 `json:"steps_per_plan"`
	Interruptions   float64  `json:"interruptions"`
	TopLevel        float64  `json:"top_level_interruptions"`
	StepsDone       float64  `json:"actions_done"`
	ActionsFailed   float64  `json:"actions_failed"`
	WorkPerTick     float64  `json:"work_per_tick"`
	PlanningMicros  *float64 `json:"planning_us,omitempty"`
	// Health is the mage's health at every tick of the batch's first fight.
	Health []float64 `json:"-"`
}

// Table is a batch's result.
type Table struct {
	Fights int
	Seed   uint64
	Rows   []Row
	// Logs are the event logs Config.Record asked for, in the order
	// written.
	Logs []string
}

// Run fights the batch: every kind fights the same Fights fights, drawn
// from Seed. The same Config gives the same table, byte for byte (unless
// Timing is set).
func Run(cfg Config) (*Table, error) { return RunContext(context.Background(), cfg) }

// RunContext is Run, stopping between fights with ctx's error once ctx is
// done: a server's batch ends soon after its client goes.
func RunContext(ctx context.Context, cfg Config) (*Table, error) {
	if cfg.Fights <= 0 {
		cfg.Fights = 40
	}
	if cfg.Fights > MaxFights {
		return nil, fmt.Errorf("arena: %d fights per kind is more than %d", cfg.Fights, MaxFights)
	}
	kinds := cfg.Kinds
	if len(kinds) == 0 {
		kinds = Kinds
	}
	facts, extra, err := prepare(cfg.GOAP)
	if err != nil {
		return nil, err
	}
	if cfg.Record != "" {
		if err := os.MkdirAll(cfg.Record, 0o755); err != nil {
			return nil, err
		}
	}
	t := &Table{Fights: cfg.Fights, Seed: cfg.Seed}
	done, total := 0, cfg.Fights*len(kinds)
	budget := MaxBatchWork
	for _, k := range kinds {
		row := Row{Kind: k.Name, Title: k.Title, Fights: cfg.Fights, ReplanReasons: map[string]float64{}}
		var plans, expanded, steps, work, ticks int
		var planning time.Duration
		for i := 0; i < cfg.Fights; i++ {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			res, err := fight(cfg, k, extra, &facts, i, budget, nil)
			if err != nil {
				return nil, err
			}
			if res.log != "" {
				t.Logs = append(t.Logs, res.log)
			}
			s := res.stats
			if !res.world.dead {
				row.Survived++
			}
			row.Killed += float64(res.world.killed)
			row.MeanHealth += res.world.healthSum / float64(res.world.Tick)
			row.Replans += float64(s.Replans)
			for r, n := range s.ReplanReasons {
				row.ReplanReasons[r] += float64(n)
			}
			row.Interruptions += float64(s.Interruptions)
			row.TopLevel += float64(s.TopLevelChanges)
			row.StepsDone += float64(s.StepsDone)
			row.ActionsFailed += float64(s.ActionsFailed)
			plans += s.Plans
			expanded += s.Expanded
			steps += s.Steps
			work += s.Expanded + s.Steps + s.TreeTicks
			budget -= s.Expanded + s.Steps
			ticks += res.world.Tick
			planning += s.PlanningTime
			if i == 0 {
				row.Health = res.world.Health
			}
			done++
			if cfg.Progress != nil {
				cfg.Progress(done, total)
			}
		}
		n := float64(cfg.Fights)
		row.Killed /= n
		row.MeanHealth /= n
		row.Plans = float64(plans) / n
		row.Replans /= n
		for r := range row.ReplanReasons {
			row.ReplanReasons[r] /= n
		}
		row.ExpandedPerPlan = perPlan(expanded, plans)
		row.StepsPerPlan = perPlan(steps, plans)
		row.Interruptions /= n
		row.TopLevel /= n
		row.StepsDone /= n
		row.ActionsFailed /= n
		row.WorkPerTick = float64(work) / float64(ticks)
		if cfg.Timing {
			us := float64(planning.Microseconds()) / n
			row.PlanningMicros = &us
		}
		t.Rows = append(t.Rows, row)
	}
	return t, nil
}

// perPlan is work per plan, or nil where there was no such work.
func perPlan(work, plans int) *float64 {
	if work == 0 || plans == 0 {
		return nil
	}
	x := float64(work) / float64(plans)
	return &x
}

type fightResult struct {
	world *World
	stats agent.Stats
	log   string // the event log's path, if recorded
}

// prepare checks that g is the battle mage, as the arena senses and runs
// it, and resolves what every fight needs from it.
func prepare(g *goap.Domain) (factSet, extraGoals, error) {
	facts, err := resolveFacts(g)
	if err != nil {
		return facts, extraGoals{}, err
	}
	if err := checkDomain(g); err != nil {
		return facts, extraGoals{}, err
	}
	extra, err := newExtraGoals(g)
	return facts, extra, err
}

// LogName is the name of the event log Config.Record writes for fight
// number fight (from 0) of kind.
func LogName(kind string, fight int) string { return fmt.Sprintf("%s-%02d.jsonl", kind, fight) }

// WriteLog fights fight number n (from 0) of cfg's batch with kind k
// alone and writes its event log to w: the same bytes Config.Record
// writes to LogName(k.Name, n), since a fight depends only on the seed,
// its number and the kind. cfg's Fights, Kinds, Record and Progress are
// not used.
func WriteLog(cfg Config, k Kind, n int, w io.Writer) error {
	if n < 0 || n >= MaxFights {
		return fmt.Errorf("arena: fight %d is not from 0 to %d", n, MaxFights-1)
	}
	facts, extra, err := prepare(cfg.GOAP)
	if err != nil {
		return err
	}
	cfg.Record = ""
	_, err = fight(cfg, k, extra, &facts, n, MaxBatchWork, w)
	return err
}

// fight runs one fight of one kind, unless its planning work passes
// budget, recording it into Config.Record's directory or, if that is
// empty, to out if set.
func fight(cfg Config, k Kind, extra extraGoals, facts *factSet, i, budget int, out io.Writer) (fightResult, error) {
	w := newWorld(cfg.Seed, i)
	var rec *recorder
	var log string
	if cfg.Record != "" {
		log = filepath.Join(cfg.Record, LogName(k.Name, i))
		f, err := os.Create(log)
		if err != nil {
			return fightResult{}, err
		}
		defer f.Close()
		out = f
	}
	if out != nil {
		rec = &recorder{enc: json.NewEncoder(out), w: w}
		rec.layout(cfg.Seed, i, k.Name)
	}
	env := &kindEnv{
		g: cfg.GOAP, h: cfg.HTN, w: w, acts: &mageActions{w: w}, timing: cfg.Timing, extra: extra, decisions: cfg.Decisions,
		sensor: func(_ *agent.Agent, s goap.State) { w.Facts(facts, s) },
	}
	if rec != nil {
		env.events = rec.event
	}
	a, err := k.make(env)
	if err != nil {
		return fightResult{}, err
	}
	for !w.over() {
		a.Tick()
		if s := a.Stats(); s.Expanded+s.Steps > budget {
			return fightResult{}, fmt.Errorf("arena: the batch's planning passed %d states and decomposition steps (%s, fight %d): the domain's searches run to their limits; see ploy lint and ploy trace", MaxBatchWork, k.Name, i+1)
		}
		w.step()
		if rec != nil {
			rec.snapshot()
		}
	}
	return fightResult{world: w, stats: a.Stats(), log: log}, rec.err()
}

// recorder writes a fight's events and the world at every tick as JSON
// lines: {"event": ...} and {"world": ...}.
type recorder struct {
	enc  *json.Encoder
	w    *World
	fail error
}

func (r *recorder) event(e agent.Event) {
	if r.fail == nil {
		r.fail = r.enc.Encode(struct {
			Event agent.Event `json:"event"`
		}{e})
	}
}

// layoutJSON is a log's first line: what stays put during a fight, for
// a replay to draw. Positions are metres, x right and y down from the
// arena's corner.
type layoutJSON struct {
	Seed        uint64       `json:"seed"`
	Fight       int          `json:"fight"` // from 0, as in the log's name
	Agent       string       `json:"agent"`
	Width       float64      `json:"width"`
	Height      float64      `json:"height"`
	Ticks       int          `json:"ticks"` // the most a fight lasts
	TickSeconds float64      `json:"tick_seconds"`
	MageStart   [2]float64   `json:"mage_start"`
	Cover       [][2]float64 `json:"cover"`
	CoverRadius float64      `json:"cover_radius"`
	Shrine      [2]float64   `json:"shrine"`
	Cache       [2]float64   `json:"crystal_cache"`
	Range       float64      `json:"range"` // a bolt's reach: in_range
	MaxHealth   float64      `json:"max_health"`
	EnemyHealth float64      `json:"enemy_health"`
	Charges     int          `json:"max_charges"`
}

func (r *recorder) layout(seed uint64, fight int, kind string) {
	l := layoutJSON{
		Seed: seed, Fight: fight, Agent: kind, Width: width, Height: height,
		Ticks: FightTicks, TickSeconds: TickSeconds, MageStart: mageStart.pair(),
		CoverRadius: coverRadius, Shrine: shrine.pair(), Cache: cache.pair(), Range: rangeMetres,
		MaxHealth: 100, EnemyHealth: enemyHealth, Charges: staffCharges,
	}
	for _, c := range covers {
		l.Cover = append(l.Cover, c.pair())
	}
	r.fail = r.enc.Encode(struct {
		Layout layoutJSON `json:"layout"`
	}{l})
}

// worldJSON is the world after a tick. The fields after enemies came
// later than the others, for the replay; a reader of older logs finds
// them missing.
type worldJSON struct {
	Tick        int          `json:"tick"`
	Mage        [2]float64   `json:"mage"`
	Health      float64      `json:"health"`
	Charges     int          `json:"charges"`
	Enemies     [][2]float64 `json:"enemies"`
	EnemyHealth []float64    `json:"enemy_health"` // in the order of enemies
	Crystals    bool         `json:"crystals"`     // spare crystals carried
	Potion      bool         `json:"potion"`       // a potion carried
	ShrineHas   bool         `json:"shrine"`       // a potion waits at the shrine
	Killed      int          `json:"killed"`       // enemies killed so far
	Dead        bool         `json:"dead,omitempty"`
}

func (r *recorder) snapshot() {
	if r.fail != nil {
		return
	}
	w := r.w
	wj := worldJSON{
		Tick: w.Tick, Mage: w.mage.pair(), Health: w.health, Charges: w.charges, Enemies: [][2]float64{}, EnemyHealth: []float64{},
		Crystals: w.crystals, Potion: w.potion, ShrineHas: w.shrineHas, Killed: w.killed, Dead: w.dead,
	}
	for _, e := range w.enemies {
		wj.Enemies = append(wj.Enemies, e.pos.pair())
		wj.EnemyHealth = append(wj.EnemyHealth, round(e.health))
	}
	r.fail = r.enc.Encode(struct {
		World worldJSON `json:"world"`
	}{wj})
}

func (r *recorder) err() error {
	if r == nil {
		return nil
	}
	return r.fail
}

func round(x float64) float64 { return float64(int(x*100+0.5)) / 100 }

// pair is v for a log, to the centimetre.
func (v vec) pair() [2]float64 { return [2]float64{round(v.x), round(v.y)} }

// WriteText writes the table for a person, one row per agent kind.
func (t *Table) WriteText(w io.Writer) error {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%d fights per agent kind, seed %d; per fight unless noted\n\n", t.Fights, t.Seed)
	header := []string{"agent", "survived", "killed", "health", "plans", "replans", "expanded/plan", "steps/plan", "interrupts", "top-level", "work/tick"}
	timing := len(t.Rows) > 0 && t.Rows[0].PlanningMicros != nil
	if timing {
		header = append(header, "plan µs")
	}
	rows := [][]string{header}
	for _, r := range t.Rows {
		cells := []string{
			r.Kind,
			fmt.Sprintf("%d/%d", r.Survived, r.Fights),
			f1(r.Killed), f1(r.MeanHealth), f1(r.Plans), f1(r.Replans),
			dash(r.ExpandedPerPlan), dash(r.StepsPerPlan),
			f1(r.Interruptions), f1(r.TopLevel), f2(r.WorkPerTick),
		}
		if timing {
			cells = append(cells, f1(*r.PlanningMicros))
		}
		rows = append(rows, cells)
	}
	widths := make([]int, len(header))
	for _, row := range rows {
		for i, c := range row {
			widths[i] = max(widths[i], len([]rune(c)))
		}
	}
	for _, row := range rows {
		for i, c := range row {
			pad := widths[i] - len([]rune(c))
			if i == 0 {
				sb.WriteString(c + strings.Repeat(" ", pad))
			} else {
				sb.WriteString("  " + strings.Repeat(" ", pad) + c)
			}
		}
		sb.WriteByte('\n')
	}
	sb.WriteString("\nreplans per fight, by reason:\n")
	for _, r := range t.Rows {
		if len(r.ReplanReasons) == 0 {
			continue
		}
		var parts []string
		reasons := slices.Sorted(maps.Keys(r.ReplanReasons))
		slices.SortStableFunc(reasons, func(a, b string) int {
			switch {
			case r.ReplanReasons[a] > r.ReplanReasons[b]:
				return -1
			case r.ReplanReasons[a] < r.ReplanReasons[b]:
				return 1
			}
			return 0
		})
		for _, reason := range reasons {
			parts = append(parts, fmt.Sprintf("%s %s", reason, f1(r.ReplanReasons[reason])))
		}
		fmt.Fprintf(&sb, "  %-10s %s\n", r.Kind, strings.Join(parts, ", "))
	}
	_, err := io.WriteString(w, sb.String())
	return err
}

// WriteJSON writes the rows as a JSON array.
func (t *Table) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(t.Rows)
}

func f1(x float64) string { return fmt.Sprintf("%.1f", x) }
func f2(x float64) string { return fmt.Sprintf("%.2f", x) }

func dash(x *float64) string {
	if x == nil {
		return "-"
	}
	return f1(*x)
}
