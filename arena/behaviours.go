package arena

import (
	"github.com/ploy-ai/ploy/agent"
)

// mageActions is the game's code for the seven primitive actions: they
// take time, move the mage and can fail in the world. Every agent kind runs
// these same behaviours.
type mageActions struct {
	w      *World
	timer  int // ticks left of a timed action
	target vec // where a walk goes
	stage  int // 0 walking, 1 working
	aim    *enemy
}

func seconds(s float64) int { return int(s/TickSeconds + 0.5) }

func (m *mageActions) behaviours() map[string]agent.Behaviour {
	w := m.w
	return map[string]agent.Behaviour{
		"Approach": agent.Funcs{TickFunc: func(*agent.Agent) agent.Status {
			e := w.nearest()
			if e == nil {
				return agent.Failure
			}
			if w.moveTo(e.pos, approachTo) {
				return agent.Success
			}
			return agent.Running
		}},
		"TakeCover": agent.Funcs{
			StartFunc: func(*agent.Agent) { m.target = nearestCover(w.mage) },
			TickFunc: func(*agent.Agent) agent.Status {
				if w.moveTo(m.target, 0) {
					return agent.Success
				}
				return agent.Running
			},
		},
		"Recharge": m.timed(
			func() int {
				if w.inCover() {
					return seconds(1.5)
				}
				return seconds(4) // fumbling in the open
			},
			func() bool { return w.crystals },
			func() {
				w.crystals = false
				w.charges = staffCharges
			}),
		"CastBolt": agent.Funcs{
			StartFunc: func(*agent.Agent) { m.timer, m.aim = seconds(0.8), w.nearest() },
			TickFunc: func(*agent.Agent) agent.Status {
				if w.charges == 0 || m.aim == nil {
					return agent.Failure
				}
				if m.timer--; m.timer > 0 {
					return agent.Running
				}
				w.charges--
				if m.aim.pos.dist(w.mage) > rangeMetres || !alive(w, m.aim) {
					return agent.Failure // the target moved away or is gone
				}
				chance := hitInOpen
				if w.inCover() {
					chance = hitInCover
				}
				if w.rng.Float64() >= chance {
					return agent.Failure // missed
				}
				if m.aim.health -= boltDamage; m.aim.health <= 0 {
					w.remove(m.aim)
					w.killed++
				}
				return agent.Success
			},
		},
		"GetCrystals": m.fetch(cache, seconds(1), func() bool {
			w.crystals = true
			return true
		}),
		"FetchPotion": m.fetch(shrine, seconds(0.5), func() bool {
			if !w.shrineHas {
				return false // someone's been: wait for the respawn
			}
			w.shrineHas, w.potion = false, true
			w.respawnAt = w.Tick + potionRespawn
			return true
		}),
		"DrinkPotion": m.timed(
			func() int { return seconds(1) },
			func() bool { return w.potion },
			func() {
				w.potion = false
				w.health = min(100, w.health+potionHeals)
			}),
	}
}

// timed is an action that works in place for a number of ticks: it fails
// as soon as what it needs is gone, and does its deed when the time is up.
func (m *mageActions) timed(duration func() int, needs func() bool, deed func()) agent.Behaviour {
	return agent.Funcs{
		StartFunc: func(*agent.Agent) { m.timer = duration() },
		TickFunc: func(*agent.Agent) agent.Status {
			if !needs() {
				return agent.Failure
			}
			if m.timer--; m.timer > 0 {
				return agent.Running
			}
			deed()
			return agent.Success
		},
	}
}

// fetch walks to a place, works there for some ticks, then takes what is
// there (take reports whether there was anything).
func (m *mageActions) fetch(place vec, work int, take func() bool) agent.Behaviour {
	return agent.Funcs{
		StartFunc: func(*agent.Agent) { m.stage, m.timer = 0, work },
		TickFunc: func(*agent.Agent) agent.Status {
			if m.stage == 0 {
				if !m.w.moveTo(place, 0.5) {
					return agent.Running
				}
				m.stage = 1
			}
			if m.timer--; m.timer > 0 {
				return agent.Running
			}
			if take() {
				return agent.Success
			}
			return agent.Failure
		},
	}
}

func nearestCover(p vec) vec {
	best := covers[0]
	for _, c := range covers[1:] {
		if c.dist(p) < best.dist(p) {
			best = c
		}
	}
	return best
}

func alive(w *World, e *enemy) bool {
	for _, x := range w.enemies {
		if x == e {
			return true
		}
	}
	return false
}

func (w *World) remove(e *enemy) {
	for i, x := range w.enemies {
		if x == e {
			w.enemies = append(w.enemies[:i], w.enemies[i+1:]...)
			return
		}
	}
}
