// Package arena is the arena of the GOAP and HTN lessons (see
// docs/background.md): a deterministic simulation of
// the battle mage's three-minute fight in which GOAP, HTN and
// behaviour-tree and utility agents fight the same fights, and the batch
// that compares them.
package arena

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/ploy-ai/ploy/goap"
)

// The arena's fixed step and fight length.
const (
	TickSeconds = 0.1
	FightTicks  = 1800 // three minutes
)

// Geometry, in metres, and the tuning of the fight. The mage's facts are
// computed from these factors every tick: in range is distance ≤ 12 m,
// healthy is health ≥ 60.
const (
	width, height = 40.0, 30.0
	rangeMetres   = 12.0 // in_range: the nearest enemy within this
	approachTo    = 10.0 // Approach stops this close, comfortably in range
	coverRadius   = 1.0  // in_cover: this close to a cover spot
	healthyAt     = 60.0 // healthy: health at least this
	mageSpeed     = 4.0  // metres per second
	enemySpeed    = 1.5
	enemyReach    = 9.0 // enemies stop and attack from this distance
	enemyHealth   = 60.0
	boltDamage    = 35.0 // two hits kill
	hitInCover    = 0.95 // a steady cast from cover
	hitInOpen     = 0.7
	attackEvery   = 15 // ticks between an enemy's attacks
	hurtInOpen    = 14.0
	hurtInCover   = 5.0
	potionHeals   = 50.0
	potionRespawn = 200 // ticks after the potion is taken
	staffCharges  = 3
	maxEnemies    = 4
)

// Places in the arena.
var (
	mageStart = vec{10, 15}
	cache     = vec{1, 15} // crystals, at the back
	shrine    = vec{20, 2}
	covers    = []vec{{14, 10}, {14, 20}, {24, 15}, {7, 6}, {7, 24}}
)

type vec struct{ x, y float64 }

func (a vec) sub(b vec) vec       { return vec{a.x - b.x, a.y - b.y} }
func (a vec) add(b vec) vec       { return vec{a.x + b.x, a.y + b.y} }
func (a vec) scale(k float64) vec { return vec{a.x * k, a.y * k} }
func (a vec) dist(b vec) float64  { return math.Hypot(a.x-b.x, a.y-b.y) }
func (a vec) length() float64     { return math.Hypot(a.x, a.y) }

type enemy struct {
	pos      vec
	health   float64
	cooldown int
}

// World is one fight: the mage, the enemies, the shrine, the cache.
type World struct {
	Tick      int
	mage      vec
	health    float64
	charges   int
	crystals  bool
	potion    bool // carried
	shrineHas bool
	respawnAt int
	enemies   []*enemy
	spawns    []int // ticks at which enemies arrive, drawn from the seed
	spawnY    []float64
	rng       *rand.Rand // combat chance: the same stream for every agent kind
	killed    int
	dead      bool
	healthSum float64
	// Health holds the mage's health at every tick, for the plots.
	Health []float64
}

// newWorld sets up fight number fight of the batch drawn from seed: the
// same arrivals for every agent kind.
func newWorld(seed uint64, fight int) *World {
	setup := rand.New(rand.NewPCG(seed, uint64(fight)*2+1))
	w := &World{
		mage: mageStart, health: 100, crystals: true, shrineHas: true,
		rng: rand.New(rand.NewPCG(seed, uint64(fight)*2+2)),
	}
	for t := 0; t < FightTicks; t += 100 + setup.IntN(101) { // every 10 to 20 s
		w.spawns = append(w.spawns, t)
		w.spawnY = append(w.spawnY, 3+setup.Float64()*(height-6))
	}
	return w
}

// factNames are the battle mage's facts, in the order of factSet.
var factNames = [...]string{"in_range", "in_cover", "staff_charged", "spare_crystals", "carrying_potion", "potion_at_shrine", "healthy", "enemy_dead"}

// factSet holds the domain's indices of the battle mage's facts, resolved
// once per batch rather than by name every tick.
type factSet [len(factNames)]goap.Fact

func resolveFacts(d *goap.Domain) (factSet, error) {
	var fs factSet
	for i, name := range factNames {
		f, ok := d.Fact(name)
		if !ok {
			return fs, fmt.Errorf("arena: the domain has no fact %q: the arena senses the battle mage's facts", name)
		}
		fs[i] = f
	}
	return fs, nil
}

// Facts computes the mage's facts from the world's continuous factors.
func (w *World) Facts(fs *factSet, facts goap.State) {
	near := w.nearest()
	for i, v := range [len(factNames)]bool{
		near != nil && near.pos.dist(w.mage) <= rangeMetres,
		w.inCover(),
		w.charges > 0,
		w.crystals,
		w.potion,
		w.shrineHas,
		w.health >= healthyAt,
		len(w.enemies) == 0,
	} {
		facts.Set(fs[i], v)
	}
}

func (w *World) inCover() bool {
	for _, c := range covers {
		if c.dist(w.mage) <= coverRadius {
			return true
		}
	}
	return false
}

func (w *World) nearest() *enemy {
	var best *enemy
	for _, e := range w.enemies {
		if best == nil || e.pos.dist(w.mage) < best.pos.dist(w.mage) {
			best = e
		}
	}
	return best
}

// moveTo steps the mage toward p and reports whether it has arrived.
func (w *World) moveTo(p vec, within float64) bool {
	d := p.sub(w.mage)
	dist := d.length()
	if dist <= within {
		return true
	}
	step := mageSpeed * TickSeconds
	if dist-within <= step {
		w.mage = w.mage.add(d.scale((dist - within) / dist))
		return true
	}
	w.mage = w.mage.add(d.scale(step / dist))
	return false
}

// step advances everything but the mage by one tick.
func (w *World) step() {
	w.Tick++
	for len(w.spawns) > 0 && w.spawns[0] <= w.Tick && len(w.enemies) < maxEnemies {
		w.enemies = append(w.enemies, &enemy{pos: vec{width - 2, w.spawnY[0]}, health: enemyHealth, cooldown: attackEvery})
		w.spawns, w.spawnY = w.spawns[1:], w.spawnY[1:]
	}
	if !w.shrineHas && w.Tick >= w.respawnAt {
		w.shrineHas = true
	}
	for _, e := range w.enemies {
		d := w.mage.sub(e.pos)
		if dist := d.length(); dist > enemyReach {
			e.pos = e.pos.add(d.scale(enemySpeed * TickSeconds / dist))
			continue
		}
		if e.cooldown--; e.cooldown <= 0 {
			e.cooldown = attackEvery
			if w.inCover() {
				w.health -= hurtInCover
			} else {
				w.health -= hurtInOpen
			}
		}
	}
	if w.health <= 0 {
		w.health = 0
		w.dead = true
	}
	w.healthSum += w.health
	w.Health = append(w.Health, w.health)
}

// over reports whether the fight has ended.
func (w *World) over() bool { return w.dead || w.Tick >= FightTicks }
