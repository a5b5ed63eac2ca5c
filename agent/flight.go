package agent

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"sync"
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
// slices are reused: once the ring has grown, recording allocates nothing.
// JSON is made only when the recording is written. The byte bound counts
// the memory the slots hold (a domain's names are shared, not counted).
type FlightRecorder struct {
	maxDecisions int
	maxBytes     int64

	mu      sync.Mutex
	slots   []Decision // a ring, oldest at head
	held    []int64    // the bytes each slot holds, by slot
	head, n int
	bytes   int64 // held by the n decisions in the ring
	dropped int64
}

// NewFlightRecorder returns a recorder that keeps at most maxDecisions
// decisions and maxBytes bytes of them (both at least 1).
func NewFlightRecorder(maxDecisions int, maxBytes int64) *FlightRecorder {
	if maxDecisions < 1 || maxBytes < 1 {
		panic(fmt.Sprintf("agent: NewFlightRecorder(%d, %d): both bounds must be at least 1", maxDecisions, maxBytes))
	}
	return &FlightRecorder{maxDecisions: maxDecisions, maxBytes: maxBytes}
}

// RecordDecision keeps a copy of d, dropping the oldest decisions while
// the recorder is over either bound. A decision larger than the byte
// bound alone is dropped itself.
func (f *FlightRecorder) RecordDecision(d *Decision) {
	f.mu.Lock()
	defer f.mu.Unlock()
	need := d.bytes()
	if need > f.maxBytes {
		f.dropped++
		return
	}
	for f.n > 0 && (f.n == f.maxDecisions || f.bytes+need > f.maxBytes) {
		f.bytes -= f.held[f.head]
		f.head = (f.head + 1) % len(f.slots)
		f.n--
		f.dropped++
	}
	if f.n == len(f.slots) {
		f.grow()
	}
	i := (f.head + f.n) % len(f.slots)
	f.slots[i].copyFrom(d)
	f.held[i] = f.slots[i].bytes() // its slices may be larger than d's, from an earlier decision
	f.n++
	f.bytes += f.held[i]
}

// runsNoGameCode marks a sink that touches no agent: a Queue may deliver
// to an agent that records into it while other workers still search.
func (f *FlightRecorder) runsNoGameCode() {}

// grow doubles the ring (up to maxDecisions), oldest first.
func (f *FlightRecorder) grow() {
	size := min(max(2*len(f.slots), 16), f.maxDecisions)
	bigger, held := make([]Decision, size), make([]int64, size)
	for i := range f.n {
		j := (f.head + i) % len(f.slots)
		bigger[i], held[i] = f.slots[j], f.held[j]
	}
	f.slots, f.held, f.head = bigger, held, 0
}

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
// decisions it holds, oldest first.
func (f *FlightRecorder) WriteJSONL(w io.Writer, h RecordHeader) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	h.Format, h.Version, h.Decisions, h.Dropped = RecordFormat, RecordVersion, f.n, f.dropped
	head, err := json.Marshal(h)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	bw.Write(head)
	bw.WriteByte('\n')
	enc := json.NewEncoder(bw)
	for i := range f.n {
		if err := enc.Encode(&f.slots[(f.head+i)%len(f.slots)]); err != nil {
			return err
		}
	}
	return bw.Flush()
}
