package inspect

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/ploy-ai/ploy/agent"
)

// Replay serves the inspector's page over a decision recording instead of
// a running game (`ploy serve --replay FILE`): the page shows every
// agent's decisions, with a timeline to scrub through them, as it shows a
// recording opened from a live game. It has no game, so no breakpoint,
// no event stream, no trace: its API is GET /api/v1/recording alone.
type Replay struct {
	opt    ReplayOptions
	body   []byte // the recording, as JSON Lines
	counts ReplayCounts
}

// ReplayCounts say what a Replay holds.
type ReplayCounts struct {
	Decisions int // decisions in the recording
	Agents    int // agents they are of
}

// Counts returns how many decisions the replay holds, of how many agents.
func (p *Replay) Counts() ReplayCounts { return p.counts }

// ReplayOptions are a Replay's.
type ReplayOptions struct {
	// Name is the recording's, as the page shows it (the file's path).
	Name string
	// AllowRemote lets the handler answer requests addressed to any host
	// name, as Options.AllowRemote does the inspector's.
	AllowRemote bool
	// MaxRecording is the most bytes the recording may take as the page
	// reads it (DefaultMaxRecording when 0): a larger one is refused.
	MaxRecording int
}

// NewReplay makes the page's server for rec, a recording read with
// agent.ReadRecording (which bounds it). The decisions are written again
// as a recording (the header, then a line each), for the page to read as
// it reads a file it opens.
func NewReplay(rec *agent.Recording, opt ReplayOptions) (*Replay, error) {
	if opt.MaxRecording <= 0 {
		opt.MaxRecording = DefaultMaxRecording
	}
	buf := &cappedBuffer{max: opt.MaxRecording}
	h := rec.Header
	h.Decisions = len(rec.Decisions)
	head, err := json.Marshal(h)
	if err != nil {
		return nil, err
	}
	_, err = buf.Write(append(head, '\n'))
	enc := json.NewEncoder(buf)
	for i := 0; err == nil && i < len(rec.Decisions); i++ {
		err = enc.Encode(&rec.Decisions[i])
	}
	if err == errTooLarge {
		return nil, fmt.Errorf("%s: the recording's %d decisions are more than %d bytes as JSON, the most the page reads", opt.Name, len(rec.Decisions), opt.MaxRecording)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %v", opt.Name, err)
	}
	agents := map[string]struct{}{}
	for i := range rec.Decisions {
		agents[rec.Decisions[i].Agent] = struct{}{}
	}
	return &Replay{opt: opt, body: bytes.Clone(buf.Bytes()), counts: ReplayCounts{len(rec.Decisions), len(agents)}}, nil
}

// ReadReplay makes the page's server for the recording r holds, read one
// decision at a time (agent.RecordingReader: positioned errors, a line at
// most agent.MaxRecordLine) and written again as NewReplay writes it, in
// at most opt.MaxRecording bytes read and written. Unlike NewReplay, it
// never holds the decoded recording: its memory is the bytes it serves
// and one decision (a 38 MB colony recording: 0.3 GiB read whole first,
// about 2× the file streamed).
func ReadReplay(r io.Reader, opt ReplayOptions) (*Replay, error) {
	if opt.MaxRecording <= 0 {
		opt.MaxRecording = DefaultMaxRecording
	}
	rr, err := agent.NewRecordingReader(r, opt.Name, int64(opt.MaxRecording))
	if err != nil {
		return nil, err
	}
	buf := &cappedBuffer{max: opt.MaxRecording}
	head, err := json.Marshal(rr.Header())
	if err != nil {
		return nil, err
	}
	if _, err := buf.Write(append(head, '\n')); err != nil {
		return nil, fmt.Errorf("%s: the header is more than %d bytes", opt.Name, opt.MaxRecording)
	}
	enc := json.NewEncoder(buf)
	agents := map[string]struct{}{}
	n := 0
	for {
		var d agent.Decision
		err := rr.Next(&d)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if err := enc.Encode(&d); err == errTooLarge {
			return nil, fmt.Errorf("%s:%d: the decisions up to here are more than %d bytes as JSON, the most the page reads", opt.Name, rr.Line(), opt.MaxRecording)
		} else if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", opt.Name, rr.Line(), err)
		}
		if _, seen := agents[d.Agent]; !seen {
			agents[strings.Clone(d.Agent)] = struct{}{}
		}
		n++
	}
	return &Replay{opt: opt, body: buf.Bytes(), counts: ReplayCounts{n, len(agents)}}, nil
}

// ServeHTTP answers the page (/), its assets, and GET /api/v1/recording;
// anything else is 404, a method other than GET or HEAD 405, as JSON
// errors. It has the inspector's checks of the host and of another
// site's page.
func (p *Replay) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !admitted(w, r, p.opt.AllowRemote, "the replay", "") {
		return
	}
	a, isAsset := pageAssets[r.URL.Path]
	if !isAsset && r.URL.Path != "/" && r.URL.Path != "/api/v1/recording" {
		fail(w, &apiError{Status: http.StatusNotFound, Message: fmt.Sprintf("no such endpoint: %s (a replay answers /api/v1/recording alone)", r.URL.Path)})
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", http.MethodGet)
		fail(w, &apiError{Status: http.StatusMethodNotAllowed, Message: fmt.Sprintf("%s takes GET, not %s", r.URL.Path, r.Method)})
		return
	}
	switch {
	case isAsset:
		a.Write(w)
	case r.URL.Path == "/":
		writeIndex(w, pageData{Mode: "replay", Recording: p.opt.Name})
	default:
		w.Header().Set("Content-Disposition", `attachment; filename="recording.jsonl"`)
		writeBody(w, "application/x-ndjson", p.body)
	}
}
