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
// Each decision is encoded to JSON when it is recorded, so what the
// recorder holds is what it writes, and its byte bound is exact.
type FlightRecorder struct {
	maxDecisions int
	maxBytes     int64

	mu      sync.Mutex
	lines   [][]byte // a ring of encoded decisions, oldest at head
	head, n int
	bytes   int64
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

// RecordDecision keeps d, dropping the oldest decisions while the recorder
// is over either bound. A decision larger than the byte bound alone is
// dropped itself.
func (f *FlightRecorder) RecordDecision(d *Decision) {
	line, err := json.Marshal(d)
	if err != nil {
		// A Decision holds only strings, numbers and maps of them: only a
		// NaN or infinite cost fails, which a search never returns.
		panic(fmt.Sprintf("agent: encoding a decision: %v", err))
	}
	line = append(line, '\n')
	f.mu.Lock()
	defer f.mu.Unlock()
	if int64(len(line)) > f.maxBytes {
		f.dropped++
		return
	}
	for f.n > 0 && (f.n == f.maxDecisions || f.bytes+int64(len(line)) > f.maxBytes) {
		f.bytes -= int64(len(f.lines[f.head]))
		f.lines[f.head] = nil
		f.head = (f.head + 1) % len(f.lines)
		f.n--
		f.dropped++
	}
	if f.n == len(f.lines) {
		f.grow()
	}
	f.lines[(f.head+f.n)%len(f.lines)] = line
	f.n++
	f.bytes += int64(len(line))
}

// grow doubles the ring (up to maxDecisions), oldest first.
func (f *FlightRecorder) grow() {
	bigger := make([][]byte, min(max(2*len(f.lines), 16), f.maxDecisions))
	for i := range f.n {
		bigger[i] = f.lines[(f.head+i)%len(f.lines)]
	}
	f.lines, f.head = bigger, 0
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
	for i := range f.n {
		bw.Write(f.lines[(f.head+i)%len(f.lines)])
	}
	return bw.Flush()
}
