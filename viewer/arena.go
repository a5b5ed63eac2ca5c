package viewer

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/ploy-ai/ploy/arena"
)

// MaxArenaStreams is how many arena batches may stream at once, each
// also holding one of Config.MaxConcurrent's slots: a batch is the
// longest work the server does, and a page runs one at a time.
const MaxArenaStreams = 2

// arenaWriteWait is how long one event of a batch's stream may take to
// reach a client that has stopped reading, before the batch is dropped.
const arenaWriteWait = 5 * time.Second

// arenaBatch answers POST /api/v1/arena/batch: the batch of
// /api/v1/arena, streamed as Server-Sent Events while it runs: a
// "progress" event after every fight, then "table" (the bytes of
// `ploy arena --json`, one data line per line), "charts" (the SVG charts
// of `ploy arena --plots`, ready to be inserted into a page) and "done".
// A failure before the first event is an ordinary JSON error; after it,
// an "error" event with the same JSON ends the stream. The batch stops
// when the client goes or after Config.Timeout.
func (s *Server) arenaBatch(w http.ResponseWriter, r *http.Request) {
	body, apiErr := readJSONBody(w, r, s.cfg.MaxBody)
	if apiErr != nil {
		fail(w, apiErr)
		return
	}
	select {
	case s.arenaStreams <- struct{}{}:
		defer func() { <-s.arenaStreams }()
	default:
		fail(w, &apiError{Status: http.StatusServiceUnavailable, Message: fmt.Sprintf("busy: %d arena batches are already running; retry in a second", MaxArenaStreams)})
		return
	}
	select {
	case s.slots <- struct{}{}:
		defer func() { <-s.slots }()
	default:
		fail(w, &apiError{Status: http.StatusServiceUnavailable, Message: fmt.Sprintf("busy: %d requests are already working; retry in a second", cap(s.slots))})
		return
	}
	st := &eventStream{w: w, rc: http.NewResponseController(w)}
	defer func() {
		if p := recover(); p != nil {
			st.fail(&apiError{Status: http.StatusInternalServerError, Message: fmt.Sprintf("internal error: %v", p)})
		}
	}()
	cfg, err := s.arenaConfig(body)
	if err != nil {
		st.fail(asAPIError(err))
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), s.cfg.Timeout)
	defer cancel()
	cfg.Progress = func(done, total int) {
		if err := st.send("progress", fmt.Appendf(nil, `{"done":%d,"total":%d}`, done, total)); err != nil {
			cancel() // the client has stopped reading
		}
	}
	tab, err := arena.RunContext(ctx, cfg)
	switch {
	case errors.Is(err, context.DeadlineExceeded) && r.Context().Err() == nil:
		st.fail(&apiError{Status: http.StatusServiceUnavailable, Message: fmt.Sprintf("timeout: the batch did not end within %s; ask for fewer fights", s.cfg.Timeout)})
		return
	case errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded):
		return // the client went, or stopped reading: nobody to answer
	case err != nil:
		st.fail(&apiError{Status: http.StatusUnprocessableEntity, Message: strings.TrimPrefix(err.Error(), "arena: ")})
		return
	}
	var table bytes.Buffer
	if err := tab.WriteJSON(&table); err != nil {
		st.fail(asAPIError(err))
		return
	}
	charts, err := tab.Charts()
	if err != nil {
		st.fail(asAPIError(err))
		return
	}
	type chartJSON struct {
		Name  string `json:"name"`
		Title string `json:"title"`
		SVG   string `json:"svg"`
	}
	list := []chartJSON{}
	for _, c := range charts {
		list = append(list, chartJSON{c.Name, c.Title, inlineSVG(c.SVG)})
	}
	var chartsJSON bytes.Buffer
	enc := json.NewEncoder(&chartsJSON)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(list); err != nil {
		st.fail(asAPIError(err))
		return
	}
	if st.send("table", table.Bytes()) != nil || st.send("charts", chartsJSON.Bytes()) != nil {
		return
	}
	st.send("done", []byte("{}"))
}

// eventStream writes Server-Sent Events, its headers with the first.
type eventStream struct {
	w       http.ResponseWriter
	rc      *http.ResponseController
	started bool
}

// send writes one event, each line of data a data line, and flushes it.
func (st *eventStream) send(event string, data []byte) error {
	if !st.started {
		h := st.w.Header()
		h.Set("Content-Type", "text/event-stream")
		h.Set("Cache-Control", "no-store")
		h.Set("X-Content-Type-Options", "nosniff")
		st.w.WriteHeader(http.StatusOK)
		st.started = true
	}
	// A recorder in tests cannot set deadlines; a real connection can.
	_ = st.rc.SetWriteDeadline(time.Now().Add(arenaWriteWait))
	var b bytes.Buffer
	b.WriteString("event: " + event + "\n")
	for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		b.WriteString("data: " + line + "\n")
	}
	b.WriteByte('\n')
	if _, err := st.w.Write(b.Bytes()); err != nil {
		return err
	}
	return st.rc.Flush()
}

// fail answers e as a JSON error before the stream has started, and as an
// "error" event after.
func (st *eventStream) fail(e *apiError) {
	if !st.started {
		fail(st.w, e)
		return
	}
	e.Message = cut(e.Message)
	b, err := json.Marshal(e)
	if err != nil {
		b = []byte(`{"error":"cannot encode the error"}`)
	}
	st.send("error", b)
}

// styleAttribute is an SVG element's style attribute. The charts package
// arena draws use presentation attributes only; this keeps the page's
// policy should a chart ever carry one.
var styleAttribute = regexp.MustCompile(`style="([^"]*)"`)

// presentation are the CSS properties the charts use that SVG also takes
// as attributes.
var presentation = map[string]bool{
	"fill": true, "fill-opacity": true, "stroke": true, "stroke-opacity": true, "stroke-width": true,
	"stroke-dasharray": true, "stroke-dashoffset": true, "stroke-linecap": true, "stroke-linejoin": true,
	"font-family": true, "font-size": true, "font-style": true, "font-variant": true, "font-weight": true,
	"opacity": true, "text-anchor": true,
}

// inlineSVG makes a chart fit to be part of the page: the page's policy
// (style-src 'self') refuses style attributes, so each becomes the SVG
// presentation attributes it sets, which the policy does not govern; and
// the XML prologue goes.
func inlineSVG(b []byte) string {
	s := string(b)
	if i := strings.Index(s, "<svg"); i >= 0 {
		s = s[i:]
	}
	return styleAttribute.ReplaceAllStringFunc(s, func(m string) string {
		var attrs []string
		for _, decl := range strings.Split(styleAttribute.FindStringSubmatch(m)[1], ";") {
			name, value, ok := strings.Cut(decl, ":")
			name, value = strings.TrimSpace(name), strings.TrimSpace(value)
			if ok && presentation[name] && !strings.ContainsAny(value, `"<&`) {
				attrs = append(attrs, name+`="`+value+`"`)
			}
		}
		return strings.Join(attrs, " ")
	})
}

// arenaFightRequest is the body of arenaFight.
type arenaFightRequest struct {
	source
	Seed  *uint64 `json:"seed"`
	Fight int     `json:"fight"`
	Agent string  `json:"agent"`
}

// arenaFight answers POST /api/v1/arena/fight: the event log of one fight
// of one agent kind, the bytes `ploy arena --record` writes to
// KIND-NN.jsonl, fought again (a fight depends only on its seed, number
// and kind), so that nothing of a batch is kept.
func (s *Server) arenaFight(body []byte) ([]byte, error) {
	var q arenaFightRequest
	if err := decode(body, &q); err != nil {
		return nil, err
	}
	cfg := arena.Config{Seed: 1}
	if q.Seed != nil {
		cfg.Seed = *q.Seed
	}
	if q.Fight < 0 || q.Fight >= s.cfg.MaxFights {
		return nil, badField("fight", "fight %d is not from 0 to %d: fights are numbered from 0, and a batch has at most %d", q.Fight, s.cfg.MaxFights-1, s.cfg.MaxFights)
	}
	f, err := s.stateSpace(q.source, "arena")
	if err != nil {
		return nil, err
	}
	kinds, err := arena.KindsOf(f)
	if err != nil {
		return nil, &apiError{Status: http.StatusUnprocessableEntity, Field: "domain", Message: strings.TrimPrefix(err.Error(), "arena: ")}
	}
	if q.Agent == "" {
		var names []string
		for _, k := range kinds {
			names = append(names, k.Name)
		}
		return nil, badField("agent", "agent is missing; the kinds: %s", strings.Join(names, ", "))
	}
	picked, err := arena.Pick(kinds, []string{q.Agent})
	if err != nil {
		return nil, badField("agent", "%s", err)
	}
	k := picked[0]
	cfg.GOAP, cfg.HTN = f.GOAP, f.HTN
	buf := &cappedBuffer{max: s.cfg.MaxAnswer}
	if err := arena.WriteLog(cfg, k, q.Fight, buf); err != nil {
		if errors.Is(err, errAnswerTooLarge) {
			return nil, &apiError{Status: http.StatusUnprocessableEntity, Message: fmt.Sprintf("the log is larger than %d bytes, the most the server answers", s.cfg.MaxAnswer)}
		}
		return nil, &apiError{Status: http.StatusUnprocessableEntity, Message: strings.TrimPrefix(err.Error(), "arena: ")}
	}
	return buf.Bytes(), nil
}
