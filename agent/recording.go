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

// ReadRecording reads a decision recording (FlightRecorder.WriteJSONL's
// format, docs/records.md) from r, reading at most maxBytes bytes (0:
// no bound of its own; the caller's reader may have one). name is the
// file's name, for errors, which say NAME:LINE: and what is wrong: a
// header of another format or version, a line that is not a decision
// (an unknown field included: a recording of a newer version), a line
// longer than MaxRecordLine, more decisions than the header says.
func ReadRecording(r io.Reader, name string, maxBytes int64) (*Recording, error) {
	if maxBytes > 0 {
		r = &boundedReader{r: r, left: maxBytes, max: maxBytes, name: name}
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), MaxRecordLine)
	rec := &Recording{}
	line := 0
	errorf := func(format string, args ...any) error {
		return fmt.Errorf("%s:%d: %s", name, line, fmt.Sprintf(format, args...))
	}
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if line == 1 {
			if err := strictJSON(b, &rec.Header); err != nil {
				return nil, errorf("not a decision recording's header: %v", err)
			}
			if rec.Header.Format != RecordFormat {
				return nil, errorf("format %q, not %q: not a decision recording", rec.Header.Format, RecordFormat)
			}
			if rec.Header.Version != RecordVersion {
				return nil, errorf("version %d; this ploy reads version %d", rec.Header.Version, RecordVersion)
			}
			if rec.Header.Decisions < 0 || rec.Header.Dropped < 0 {
				return nil, errorf("the header's decisions and dropped must not be negative")
			}
			continue
		}
		if len(b) == 0 {
			continue
		}
		if len(rec.Decisions) == rec.Header.Decisions {
			return nil, errorf("more decisions than the header's %d", rec.Header.Decisions)
		}
		var d Decision
		if err := strictJSON(b, &d); err != nil {
			return nil, errorf("not a decision: %v", err)
		}
		if d.Agent == "" {
			return nil, errorf("a decision with no agent")
		}
		rec.Decisions = append(rec.Decisions, d)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			line++
			return nil, errorf("a line longer than %d bytes", MaxRecordLine)
		}
		var tooBig *readBoundError
		if errors.As(err, &tooBig) {
			return nil, err
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if line == 0 {
		return nil, fmt.Errorf("%s: empty: a decision recording starts with a header line", name)
	}
	if len(rec.Decisions) != rec.Header.Decisions {
		return nil, fmt.Errorf("%s: the header says %d decisions, the file has %d: cut short?", name, rec.Header.Decisions, len(rec.Decisions))
	}
	return rec, nil
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
			return 0, &readBoundError{b.name, b.max}
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
