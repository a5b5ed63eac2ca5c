package agent

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"unsafe"

	"github.com/ploy-ai/ploy/internal/prefetch"
	"github.com/ploy-ai/ploy/resolver"
)

// The decision recording's format and version, in its header line.
const (
	RecordFormat  = "ploy-decisions"
	RecordVersion = 1
)

// FlightRecorder keeps an agent crowd's most recent decisions, bounded in
// count and in bytes (the oldest dropped first, and counted), and writes
// them as a decision recording: JSON Lines, a header line and then one
// Decision per line (docs/records.md). It is a DecisionSink; one recorder
// may serve many agents, on any goroutines.
//
// Recording copies the decision into a slot of the recorder's ring, whose
// slices are reused: once the ring has grown, recording decisions of like
// sizes allocates nothing. JSON is made only when the recording is
// written. The byte bound counts all the memory the ring holds: its
// slots, and every slice a slot keeps, also one whose decision was
// dropped (a domain's names are shared, not counted).
type FlightRecorder struct {
	maxDecisions int
	maxBytes     int64

	mu      sync.Mutex
	slots   []Decision // a ring, oldest at head
	held    []int64    // the bytes each slot holds (at least slotBytes)
	head, n int
	total   int64 // the bytes the ring holds: the sum of held
	dropped int64
	// scratch is lent when the byte bound leaves no room for one slot.
	scratch     Decision
	lentScratch bool
}

// slotBytes is what an empty slot holds.
const slotBytes = int64(unsafe.Sizeof(Decision{}))

// NewFlightRecorder returns a recorder that keeps at most maxDecisions
// decisions and maxBytes bytes of them (both at least 1).
func NewFlightRecorder(maxDecisions int, maxBytes int64) *FlightRecorder {
	if maxDecisions < 1 || maxBytes < 1 {
		panic(fmt.Sprintf("agent: NewFlightRecorder(%d, %d): both bounds must be at least 1", maxDecisions, maxBytes))
	}
	return &FlightRecorder{maxDecisions: maxDecisions, maxBytes: maxBytes}
}

// RecordDecision keeps a copy of d, dropping the oldest decisions (and
// the memory their slots keep) while the recorder is over either bound.
// A decision that alone is over the byte bound is dropped itself.
func (f *FlightRecorder) RecordDecision(d *Decision) {
	f.lendSlot().copyFrom(d)
	f.keepSlot()
}

// lendSlot locks the recorder and returns the slot the next decision is
// kept in, making room for it: the oldest decision goes when the count
// bound is reached, or when the ring may not grow. The caller fills it
// whole (its slices reused) and calls keepSlot.
func (f *FlightRecorder) lendSlot() *Decision {
	f.mu.Lock()
	if f.n == f.maxDecisions {
		f.evict(false) // its slot is the one reused
	}
	if f.n == len(f.slots) && !f.grow() {
		if f.n == 0 {
			// The bound has no room for even one slot: the decision is
			// filled in a scratch slot and dropped.
			f.lentScratch = true
			return &f.scratch
		}
		f.evict(false) // no room to grow: reuse the oldest's slot
	}
	return &f.slots[(f.head+f.n)%len(f.slots)]
}

// keepSlot keeps the decision lendSlot lent, then drops the oldest
// decisions, letting their slots' slices go, while the ring is over its
// byte bound, and unlocks the recorder.
func (f *FlightRecorder) keepSlot() {
	defer f.mu.Unlock()
	defer f.prefetchNext()
	if f.lentScratch {
		f.scratch, f.lentScratch = Decision{}, false
		f.dropped++
		return
	}
	i := (f.head + f.n) % len(f.slots)
	held := f.slots[i].bytes()
	if held > f.maxBytes && f.slots[i].fitBytes() > f.maxBytes { // what it holds is at least what it needs
		// Over the bound alone: dropped, before it could push older
		// decisions out, and its slot lets its slices go.
		f.slots[i] = Decision{}
		f.setHeld(i, slotBytes)
		f.dropped++
		return
	}
	f.n++
	f.setHeld(i, held)
	for f.total > f.maxBytes && f.n > 1 {
		f.evict(true)
	}
	if f.total > f.maxBytes {
		// Only this decision is left, in a slot whose slices may be
		// larger than it needs from an earlier decision: give it slices
		// of its own size, and drop it if even that is over.
		fit := f.slots[i].fitted()
		f.slots[i] = fit
		f.setHeld(i, fit.bytes())
		if f.total > f.maxBytes {
			f.evict(true)
		}
	}
}

// prefetchNext asks for the memory the next decisions will be written
// into: the next slot's slices (its slot was asked for a decision ago)
// and the slot after it. Once the ring has filled, the next slot is the
// oldest decision's, which in a ring of thousands has long left the
// cache; written cold, a record stalls on every line of its slot and its
// slices (docs/records.md, "Where it stands"). The game's other
// work between two decisions hides the wait.
func (f *FlightRecorder) prefetchNext() {
	if len(f.slots) < 2 {
		return
	}
	// head < len and n <= len: a subtraction wraps the index, not a
	// division.
	next := f.head + f.n
	if next >= len(f.slots) {
		next -= len(f.slots)
	}
	s := &f.slots[next]
	after := next + 1
	if after == len(f.slots) {
		after = 0
	}
	// One call for all of them: the call costs more than its hints.
	prefetch.Ask(
		prefetch.SliceSpan(s.weighed),
		prefetch.SliceSpan(s.Plan),
		prefetch.SliceSpan(s.Snapshot.Values),
		prefetch.SliceSpan(s.found),
		prefetch.SliceSpan(s.chain),
		prefetch.SliceSpan(s.Snapshot.Facts),
		prefetch.ValueSpan(&f.slots[after]),
	)
}

// fitted returns a copy of d in slices of exactly their length, which
// fitBytes counts: a copy by append would round their capacity up to the
// allocator's size class, and a decision that needs exactly the byte
// bound would be dropped.
func (d *Decision) fitted() Decision {
	fit := *d
	fit.Options, fit.Plan, fit.MTR, fit.Running, fit.Rejected = exactCopy(d.Options), exactCopy(d.Plan), exactCopy(d.MTR), exactCopy(d.Running), exactCopy(d.Rejected)
	s := &fit.Snapshot
	s.Facts, s.Values, s.Targets = exactCopy(s.Facts), exactCopy(s.Values), exactCopy(s.Targets)
	fit.weighed, fit.found, fit.chain = exactCopy(d.weighed), exactCopy(d.found), exactCopy(d.chain)
	return fit
}

// exactCopy copies s into a slice of capacity len(s); nil stays nil.
func exactCopy[T any](s []T) []T {
	if s == nil {
		return nil
	}
	out := make([]T, len(s))
	copy(out, s)
	return out
}

// setHeld records that slot i now holds b bytes.
func (f *FlightRecorder) setHeld(i int, b int64) {
	f.total += b - f.held[i]
	f.held[i] = b
}

// evict drops the oldest decision; with release, its slot lets its slices
// go too.
func (f *FlightRecorder) evict(release bool) {
	if release {
		f.slots[f.head] = Decision{}
		f.setHeld(f.head, slotBytes)
	}
	f.head = (f.head + 1) % len(f.slots)
	f.n--
	f.dropped++
}

// grow doubles the ring (up to maxDecisions), oldest first, unless the
// new slots would take the ring past its byte bound: it reports whether
// it grew.
func (f *FlightRecorder) grow() bool {
	size := min(max(2*len(f.slots), 16), f.maxDecisions)
	if f.total+int64(size-len(f.slots))*slotBytes > f.maxBytes {
		size = len(f.slots) + int((f.maxBytes-f.total)/slotBytes)
		if size <= len(f.slots) {
			return false // RecordDecision kept room for a slot: d fit the bound
		}
	}
	bigger, held := make([]Decision, size), make([]int64, size)
	for i := range f.n {
		j := (f.head + i) % len(f.slots)
		bigger[i], held[i] = f.slots[j], f.held[j]
	}
	for i := f.n; i < size; i++ {
		held[i] = slotBytes
	}
	f.total += int64(size-len(f.slots)) * slotBytes
	f.slots, f.held, f.head = bigger, held, 0
	return true
}

// runsNoGameCode marks a sink that touches no agent: a Queue may deliver
// to an agent that records into it while other workers still search.
func (f *FlightRecorder) runsNoGameCode() {}

// Len returns how many decisions the recorder holds, and how many it has
// dropped to stay within its bounds.
func (f *FlightRecorder) Len() (held int, dropped int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.n, f.dropped
}

// RecordHeader is a recording's first line: its format and version, the
// domain the agents ran (its name, and the hash of its file's bytes,
// DomainHash, so that a replay can tell an edited domain from the one
// recorded), and how many decisions it holds and dropped.
type RecordHeader struct {
	Format     string `json:"format"`
	Version    int    `json:"version"`
	Domain     string `json:"domain,omitempty"`
	DomainHash string `json:"domain_hash,omitempty"`
	Decisions  int    `json:"decisions"`
	Dropped    int64  `json:"dropped"`
}

// DomainHash returns the hash a recording's header gives a domain file:
// "sha256:" and the hex SHA-256 of its bytes.
func DomainHash(file []byte) string {
	sum := sha256.Sum256(file)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// WriteJSONL writes the recording: a header line with h's Domain and
// DomainHash (Format, Version and the counts are the recorder's), then the
// decisions it holds, oldest first. It runs none of the game's code: a
// resolver plan's steps it prices itself (Decision.chain) are those of a
// domain without cost functions and of straight-line walks.
func (f *FlightRecorder) WriteJSONL(w io.Writer, h RecordHeader) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	h.Format, h.Version, h.Decisions, h.Dropped = RecordFormat, RecordVersion, f.n, f.dropped
	head, _ := json.Marshal(h) // strings and integers: it cannot fail
	bw := bufio.NewWriter(w)
	bw.Write(head)
	bw.WriteByte('\n')
	enc := json.NewEncoder(bw)
	var whole Decision // a slot with its GoalScores, targets and steps made
	var scores []GoalScore
	var targets []DecisionTarget
	var steps []DecisionStep
	for i := range f.n {
		d := &f.slots[(f.head+i)%len(f.slots)]
		if len(d.weighed) > 0 || d.domain != nil {
			whole = *d
			if len(d.weighed) > 0 {
				scores = goalScoresOf(scores[:0], d.weighed)
				whole.Options = scores
			}
			if d.domain != nil {
				targets = targetsOf(targets[:0], d.domain.Targets(), d.found)
				whole.Snapshot.Targets = targets
			}
			if len(d.chain) > 0 {
				snap := resolver.Snapshot{Values: d.Snapshot.Values, At: d.Snapshot.At, Targets: d.found}
				steps = stepsOf(steps[:0], d.domain, d.chain, &snap, resolver.Options{Profile: d.Profile.resolver})
				whole.Plan = steps
			}
			d = &whole
		}
		if err := enc.Encode(d); err != nil {
			return err
		}
	}
	return bw.Flush()
}
