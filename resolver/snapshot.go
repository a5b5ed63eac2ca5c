package resolver

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// Point is a position in the game's world.
type Point struct{ X, Y float64 }

// Dimensions is how many coordinates a Point has, X and Y: the length of
// a position read as a list, [x, y], by the loader (at:, targets:), the
// ploy command (--at, --target) and the JSON API (at, targets). Every
// DistanceModel, StraightLine included, measures between two Points, so
// this is the dimension of the grid or distance model too. A test ties
// it to Point's fields.
const Dimensions = 2

// Target is where a target sensor found a target key's position (or the
// position of the entity it resolved to), if it found one.
type Target struct {
	At    Point
	Found bool
}

// Snapshot is what a resolve reads of the world: the agent's key values,
// where it stands and where its targets are, a few arrays of plain numbers.
// The game fills it on the goroutine that owns the agent (at Submit, when a
// queue is used), so that a resolve on a worker touches nothing else of the
// world.
type Snapshot struct {
	// Values holds each key's value, by KeyID: 0 or 1 for a boolean.
	Values []int64
	// At is the agent's position.
	At Point
	// Targets holds each target key's position, by TargetID.
	Targets []Target
}

// NewSnapshot returns a snapshot of the domain's shape: every key 0
// (false), the agent at the origin, no target found.
func (d *Domain) NewSnapshot() *Snapshot {
	return &Snapshot{Values: make([]int64, len(d.keys)), Targets: make([]Target, len(d.targets))}
}

// set sets a key's value by name: a bool or a whole number.
func (s *Snapshot) set(d *Domain, name string, v int64) error {
	k, ok := d.keyIndex[name]
	if !ok {
		return fmt.Errorf("resolver: unknown key %q", name)
	}
	if d.keys[k].Kind == Bool && v != 0 && v != 1 {
		return fmt.Errorf("resolver: %q is a boolean key; its value is 0 or 1, not %d", name, v)
	}
	s.Values[k] = v
	return nil
}

// SnapshotOf returns a snapshot with the given key values (booleans as 0
// or 1), the agent at at, and the given target positions, by name.
func (d *Domain) SnapshotOf(values map[string]int64, at Point, targets map[string]Point) (*Snapshot, error) {
	s := d.NewSnapshot()
	s.At = at
	for _, name := range sortedKeys(values) {
		if err := s.set(d, name, values[name]); err != nil {
			return nil, err
		}
	}
	for _, name := range sortedKeys(targets) {
		t, ok := d.targetIndex[name]
		if !ok {
			return nil, fmt.Errorf("resolver: no action targets %q", name)
		}
		s.Targets[t] = Target{At: targets[name], Found: true}
	}
	return s, nil
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// checkSnapshot panics on a snapshot of another shape: a resolve would
// read past its arrays or misread them.
func (d *Domain) checkSnapshot(s *Snapshot) {
	if err := d.CheckSnapshot(s); err != nil {
		panic(err.Error())
	}
}

// CheckSnapshot reports a snapshot that does not fit the domain: nil, its
// arrays of another length, a boolean key neither 0 nor 1, or a position
// that is not finite.
func (d *Domain) CheckSnapshot(s *Snapshot) error {
	switch {
	case s == nil:
		return fmt.Errorf("resolver: nil snapshot")
	case len(s.Values) != len(d.keys):
		return fmt.Errorf("resolver: snapshot has %d key values; domain %q has %d keys", len(s.Values), d.name, len(d.keys))
	case len(s.Targets) != len(d.targets):
		return fmt.Errorf("resolver: snapshot has %d targets; domain %q has %d", len(s.Targets), d.name, len(d.targets))
	case !finite(s.At):
		return fmt.Errorf("resolver: the agent's position %v is not finite", s.At)
	}
	// An agent's snapshot is checked at every sense, so the common case,
	// a snapshot that fits, is tested in one pass without a branch per
	// key or target: v&^1 is 0 only for 0 and 1, and x-x is 0 for a
	// finite x and NaN otherwise, which a sum keeps. Only a snapshot
	// that does not fit is looked at again, to say where.
	var notBool int64
	for _, k := range d.boolKeys {
		notBool |= s.Values[k] &^ 1
	}
	var spread float64
	for i := range s.Targets {
		if tg := &s.Targets[i]; tg.Found {
			spread += (tg.At.X - tg.At.X) + (tg.At.Y - tg.At.Y)
		}
	}
	if notBool == 0 && spread == 0 {
		return nil
	}
	for _, k := range d.boolKeys {
		if v := s.Values[k]; v != 0 && v != 1 {
			return fmt.Errorf("resolver: boolean key %q has value %d in the snapshot; want 0 or 1", d.keys[k].Name, v)
		}
	}
	for t, tg := range s.Targets {
		if tg.Found && !finite(tg.At) {
			return fmt.Errorf("resolver: target %q's position %v is not finite", d.targets[t], tg.At)
		}
	}
	return nil
}

// finite reports whether both coordinates are finite: x-x is 0 for every
// finite x and NaN for ±Inf and NaN, one subtraction instead of four tests
// (a resolve checks every target).
func finite(p Point) bool { return p.X-p.X == 0 && p.Y-p.Y == 0 }

// FormatSnapshot renders the snapshot's values the way the CLI prints a state:
// true booleans by name, integers as key=value.
func (d *Domain) FormatSnapshot(s *Snapshot) string {
	var parts []string
	for k, v := range s.Values {
		switch {
		case d.keys[k].Kind == Int:
			parts = append(parts, fmt.Sprintf("%s=%d", d.keys[k].Name, v))
		case v == 1:
			parts = append(parts, d.keys[k].Name)
		}
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// DistanceModel measures how far apart two positions are for the agent:
// the cost of getting from one to the other before the domain's
// DistanceCost is applied. It must not be negative, and for the resolver's
// chain to be least-cost it must obey the triangle inequality (going
// through a third point is never shorter), as straight lines and shortest
// path lengths do, and give the same answer for the same two points
// throughout a resolve.
//
// +Inf means there is no way from one to the other: a chain that would
// need it is not a chain (Reason Unreachable), and neither is one whose
// cost, times DistanceCost, passes the float range. A NaN or a negative
// distance makes Resolve panic. Shortest path lengths with +Inf between
// places that are not connected still obey the triangle inequality, so
// unreachable places do not cost the resolver its exactness.
//
// A resolve calls Distance once per action with a target it puts in front
// of a chain, and once more per candidate chain, always with to the next
// target of the chain (never the agent's position), which a model may
// rely on: package navgrid's Fields measures one distance field per target.
type DistanceModel interface {
	Distance(from, to Point) float64
}

// StraightLine is the default DistanceModel: the Euclidean distance. It
// is cheap; a path length is a navigation query per candidate action per
// resolve, affordable for a few dozen agents but not for a crowd.
type StraightLine struct{}

// Distance returns the straight-line distance from from to to.
func (StraightLine) Distance(from, to Point) float64 { return straight(from, to) }

// straight is the Euclidean distance. The square root of the sum of
// squares is as accurate as math.Hypot (within an ulp) while the squares
// neither overflow nor fall below the normal range, and much cheaper (the
// profile had Hypot at a fifth of a resolve); outside that range, Hypot,
// which scales first.
func straight(from, to Point) float64 {
	dx, dy := to.X-from.X, to.Y-from.Y
	if s := dx*dx + dy*dy; s < 1e300 && s > 1e-300 {
		return math.Sqrt(s)
	}
	return math.Hypot(dx, dy)
}
