package agent

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Recording is a decision recording read back (ReadRecording): its header
// and its decisions, oldest first.
type Recording struct {
	Header    RecordHeader
	Decisions []Decision
}

// MaxRecordLine is the longest line ReadRecording accepts: a decision
// with thousands of facts and steps is a few hundred kilobytes.
const MaxRecordLine = 4 << 20

// maxHeldPerByte and heldSlack bound what the decisions ReadRecording
// keeps hold in memory by the bytes read: maxHeldPerByte times those
// bytes, and heldSlack more. A recorder's decisions hold about as many
// bytes as their JSON (one-letter fact names, the most, four times as
// many), while a line of empty objects ({}, a 56-byte goal option for 3
// bytes) or of bare decisions ({"agent":"a"}, 616 bytes for 14) would
// hold 20 to 90 times the file.
const (
	maxHeldPerByte = 6
	heldSlack      = 1 << 20
)

// ReadRecording reads a whole decision recording (FlightRecorder.WriteJSONL's
// format, docs/records.md) from r: see RecordingReader, which reads one
// decision at a time, in bounded memory. The decisions kept may hold at
// most 6 times the bytes read (and 1 MiB) in memory.
func ReadRecording(r io.Reader, name string, maxBytes int64) (*Recording, error) {
	rr, err := NewRecordingReader(r, name, maxBytes)
	if err != nil {
		return nil, err
	}
	rec := &Recording{Header: rr.Header()}
	var held int64 // what the decisions kept hold
	for {
		var d Decision
		if err := rr.Next(&d); err == io.EOF {
			return rec, nil
		} else if err != nil {
			return nil, err
		}
		if held += d.fitBytes(); held > maxHeldPerByte*rr.bytes+heldSlack {
			return nil, rr.errorf("the decisions up to here would hold %d bytes in memory, more than %d times the %d bytes read: not a recorder's (empty objects, or decisions with nothing in them?)", held, maxHeldPerByte, rr.bytes)
		}
		rec.Decisions = append(rec.Decisions, d)
	}
}

// RecordingReader reads a decision recording one decision at a time, so
// that a recording of any length is replayed in the memory of one line.
// Errors say NAME:LINE: and what is wrong: a header of another format or
// version, a line that is not a decision (an unknown field included: a
// recording of a newer version), a line longer than MaxRecordLine, more
// or fewer decisions than the header says, or more bytes than the bound.
type RecordingReader struct {
	sc     *bufio.Scanner
	name   string
	line   int
	header RecordHeader
	read   int
	bytes  int64          // the bytes of the lines scanned, newlines counted
	bound  *boundedReader // the byte bound, if any
}

// NewRecordingReader reads the header of the recording r holds, reading
// at most maxBytes bytes in all (0: no bound of its own; the caller's
// reader may have one). name is the file's name, for errors.
func NewRecordingReader(r io.Reader, name string, maxBytes int64) (*RecordingReader, error) {
	rr := &RecordingReader{name: name}
	if maxBytes > 0 {
		rr.bound = &boundedReader{r: r, left: maxBytes, max: maxBytes, name: name}
		r = rr.bound
	}
	rr.sc = bufio.NewScanner(r)
	rr.sc.Buffer(make([]byte, 0, 64<<10), MaxRecordLine)
	b, err := rr.scan()
	if err == io.EOF {
		return nil, fmt.Errorf("%s: empty: a decision recording starts with a header line", name)
	}
	if err != nil {
		return nil, err
	}
	h := &rr.header
	switch err := strictJSON(b, h); {
	case err != nil:
		return nil, rr.errorf("not a decision recording's header: %v", err)
	case h.Format != RecordFormat:
		return nil, rr.errorf("format %q, not %q: not a decision recording", h.Format, RecordFormat)
	case h.Version != RecordVersion:
		return nil, rr.errorf("version %d; this ploy reads version %d", h.Version, RecordVersion)
	case h.Decisions < 0 || h.Dropped < 0:
		return nil, rr.errorf("the header's decisions and dropped must not be negative")
	}
	return rr, nil
}

// Header returns the recording's header.
func (rr *RecordingReader) Header() RecordHeader { return rr.header }

// Line returns the line the last decision read was on.
func (rr *RecordingReader) Line() int { return rr.line }

// Next reads the next decision into d (its slices replaced, not reused),
// or returns io.EOF after the last, once the count is the header's.
func (rr *RecordingReader) Next(d *Decision) error {
	for {
		b, err := rr.scan()
		if err == io.EOF {
			if rr.read != rr.header.Decisions {
				return fmt.Errorf("%s: the header says %d decisions, the file has %d: cut short?", rr.name, rr.header.Decisions, rr.read)
			}
			return io.EOF
		}
		if err != nil {
			return err
		}
		if len(b) == 0 {
			continue
		}
		if rr.read == rr.header.Decisions {
			return rr.errorf("more decisions than the header's %d", rr.header.Decisions)
		}
		*d = Decision{}
		if err := strictJSON(b, d); err != nil {
			return rr.errorf("not a decision: %v", err)
		}
		if d.Agent == "" {
			return rr.errorf("a decision with no agent")
		}
		rr.read++
		return nil
	}
}

// scan returns the next line, trimmed, or io.EOF.
func (rr *RecordingReader) scan() ([]byte, error) {
	if rr.sc.Scan() {
		if rr.bound != nil && rr.bound.over != nil {
			// The scanner hands over the line the bound cut before its
			// error: the file is too long, not that line bad.
			return nil, rr.bound.over
		}
		rr.line++
		rr.bytes += int64(len(rr.sc.Bytes())) + 1
		return bytes.TrimSpace(rr.sc.Bytes()), nil
	}
	err := rr.sc.Err()
	var tooBig *readBoundError
	switch {
	case err == nil:
		return nil, io.EOF
	case errors.Is(err, bufio.ErrTooLong):
		rr.line++
		return nil, rr.errorf("a line longer than %d bytes", MaxRecordLine)
	case errors.As(err, &tooBig):
		return nil, err
	}
	return nil, fmt.Errorf("%s: %w", rr.name, err)
}

func (rr *RecordingReader) errorf(format string, args ...any) error {
	return fmt.Errorf("%s:%d: %s", rr.name, rr.line, fmt.Sprintf(format, args...))
}

// strictJSON decodes one JSON value into v, refusing unknown fields and
// anything after the value.
func strictJSON(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("more than one JSON value on the line")
	}
	return nil
}

// boundedReader fails once more than left bytes have been read.
type boundedReader struct {
	r         io.Reader
	left, max int64
	name      string
	over      *readBoundError // set once it refused to read on
}

type readBoundError struct {
	name string
	max  int64
}

func (e *readBoundError) Error() string {
	return fmt.Sprintf("%s: longer than %d bytes", e.name, e.max)
}

func (b *boundedReader) Read(p []byte) (int, error) {
	if b.left == 0 {
		// One more byte tells a file of exactly the bound from a longer
		// one.
		var one [1]byte
		if m, _ := io.ReadFull(b.r, one[:]); m > 0 {
			b.over = &readBoundError{b.name, b.max}
			return 0, b.over
		}
		return 0, io.EOF
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.r.Read(p)
	b.left -= int64(n)
	return n, err
}
