package inspect

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// stream is one open event stream: Frame queues its events, never
// waiting; a stream that falls Options.StreamBuffer events behind loses
// the newer ones and is told how many.
type stream struct {
	events chan []byte
	lost   atomic.Int64
	done   chan struct{}
	once   sync.Once
}

func (s *stream) end() { s.once.Do(func() { close(s.done) }) }

// maxChangedNames is how many changed agents a frame event names; past it
// the event says how many more changed.
const maxChangedNames = 256

// The event stream's timing: a comment line is sent when nothing else
// has been for keepAlive (so that a dead connection is found), and each
// write must finish within writeWait.
const (
	keepAlive = 15 * time.Second
	writeWait = 10 * time.Second
)

// frameEvent is the "frame" event: a frame copied the agents.
type frameEvent struct {
	Tick    int      `json:"tick"`
	Changed []string `json:"changed"`
	More    int      `json:"more,omitempty"`
	Paused  bool     `json:"paused"`
}

// broadcast queues an event for every open stream (mu held), dropping it
// for a stream whose queue is full.
func (in *Inspector) broadcast(event string, v any) {
	in.cmu.Lock()
	defer in.cmu.Unlock()
	if len(in.streams) == 0 {
		return
	}
	b, err := json.Marshal(v)
	if err != nil {
		return
	}
	msg := []byte(fmt.Sprintf("event: %s\ndata: %s\n\n", event, b))
	for s := range in.streams {
		select {
		case s.events <- msg:
		default:
			s.lost.Add(1)
		}
	}
}

// quietFrameEvery is how often a frame event is sent when no agent
// changed and the game is not paused: often enough for a page to show the
// game's tick, not sixty empty events a second for every open stream.
const quietFrameEvery = time.Second

// publishFrame sends the "frame" event (mu held): for a frame that
// changed an agent or paused, and for other frames at most once per
// quietFrameEvery.
func (in *Inspector) publishFrame(tick int, changed []string, now time.Time) {
	if len(changed) == 0 && !in.pause.paused {
		if now.Sub(in.quietSent) < quietFrameEvery {
			return
		}
		in.quietSent = now
	}
	e := frameEvent{Tick: tick, Changed: changed, Paused: in.pause.paused}
	if e.Changed == nil {
		e.Changed = []string{}
	}
	if len(changed) > maxChangedNames {
		e.Changed, e.More = changed[:maxChangedNames], len(changed)-maxChangedNames
	}
	in.broadcast("frame", e)
}

func (in *Inspector) publishPause()  { in.broadcast("paused", in.state()) }
func (in *Inspector) publishResume() { in.broadcast("resumed", in.state()) }

// serveEvents answers GET /api/v1/events: a Server-Sent Events stream of
// "state" (at once), "frame", "paused", "resumed" and "lost" events. An
// open stream is its client's heartbeat.
func (in *Inspector) serveEvents(w http.ResponseWriter, r *http.Request) {
	id := r.URL.Query().Get("client")
	if len(id) > MaxClientID {
		fail(w, badField("client", "the client id is %d bytes, more than %d", len(id), MaxClientID))
		return
	}
	if r.Method == http.MethodHead {
		// What a GET would answer, without opening a stream: a HEAD is
		// no client watching, and holds none of the streams' places.
		h := w.Header()
		h.Set("Content-Type", "text/event-stream")
		h.Set("Cache-Control", "no-store")
		h.Set("X-Content-Type-Options", "nosniff")
		w.WriteHeader(http.StatusOK)
		return
	}
	s := &stream{events: make(chan []byte, in.opt.StreamBuffer), done: make(chan struct{})}
	in.cmu.Lock()
	full := len(in.streams) >= in.opt.MaxStreams
	in.cmu.Unlock()
	if full {
		fail(w, &apiError{Status: http.StatusServiceUnavailable, Message: fmt.Sprintf("busy: %d event streams are already open", in.opt.MaxStreams)})
		return
	}
	if e := in.touch(id, 1); e != nil {
		fail(w, e)
		return
	}
	defer in.touch(id, -1)
	in.mu.RLock()
	closed := in.closed
	in.cmu.Lock()
	if len(in.streams) >= in.opt.MaxStreams || closed {
		in.cmu.Unlock()
		in.mu.RUnlock()
		fail(w, &apiError{Status: http.StatusServiceUnavailable, Message: fmt.Sprintf("busy: %d event streams are already open", in.opt.MaxStreams)})
		return
	}
	in.streams[s] = struct{}{}
	in.cmu.Unlock()
	first, _ := json.Marshal(in.state())
	in.mu.RUnlock()
	defer func() {
		in.cmu.Lock()
		delete(in.streams, s)
		in.cmu.Unlock()
	}()

	rc := http.NewResponseController(w)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusOK)
	send := func(b []byte) bool {
		// Each write has its own deadline, past the server's
		// WriteTimeout: a client that stops reading is cut off, one that
		// reads is served for as long as it stays.
		_ = rc.SetWriteDeadline(time.Now().Add(writeWait))
		if _, err := w.Write(b); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	if !send([]byte(fmt.Sprintf("event: state\ndata: %s\n\n", first))) {
		return
	}
	ping := time.NewTicker(keepAlive)
	defer ping.Stop()
	for {
		select {
		case b := <-s.events:
			if !send(b) {
				return
			}
			if n := s.lost.Swap(0); n > 0 && !send([]byte(fmt.Sprintf("event: lost\ndata: {\"events\":%d}\n\n", n))) {
				return
			}
			in.touch(id, 0)
		case <-ping.C:
			if !send([]byte(": keep-alive\n\n")) {
				return
			}
		case <-s.done:
			return
		case <-r.Context().Done():
			return
		}
	}
}
