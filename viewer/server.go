// Package viewer is ploy's web app: an http.Handler that answers the JSON
// API under /api/v1/ (plan, htn, trace, explain, lint, arena, resolve,
// graph with the bytes of the matching command's --json output; domains,
// domain, decomposition and tree for the figures alone), and serves the
// embedded pages, one panel per figure of the source lessons (see
// docs/background.md). `ploy serve` runs it; a program can mount it in its
// own server.
//
// The handler reads no file after New: the domains it offers are the
// shipped ones and those named in Config.Files, read and parsed once.
// A request may carry a domain's source instead; it is parsed under the
// loader's own limits. Every request is bounded: its body by
// Config.MaxBody, its search by a budget the request may lower but not
// raise, the number of requests working at once by
// Config.MaxConcurrent (more get 503 at once, with Retry-After), the
// wait for an answer by Config.Timeout, and the answer by Config.MaxAnswer.
// A POST must be JSON, and a request from another site's page is refused.
// docs/api.md documents the API and
// docs/limits.md every limit.
package viewer

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ploy-ai/ploy/arena"
	"github.com/ploy-ai/ploy/domain"
	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/htn"
	"github.com/ploy-ai/ploy/internal/webguard"
)

// Defaults of Config's limits, used where a field is zero.
const (
	DefaultMaxBody = 1 << 20 // request body, bytes
	// DefaultMaxTraceBudget caps a traced search lower than a plain one:
	// a trace records every node and edge, and its JSON is about a
	// kilobyte per state expanded.
	DefaultMaxTraceBudget = 10_000
	DefaultMaxFights      = 100 // arena fights per kind: about a second
	DefaultTimeout        = 10 * time.Second
	// DefaultMaxSearchBytes is the memory one search may hold: a quarter
	// of the command's search.DefaultMaxBytes, since several run at once.
	DefaultMaxSearchBytes = 64 << 20
	// DefaultMaxAnswer caps every answer of the JSON API. A trace is
	// written into a buffer that stops at the cap (a trace of a wide
	// domain runs to kilobytes per state); a graph's size is counted
	// before it is made (a wide engine-model file has a million edges).
	DefaultMaxAnswer = 8 << 20
)

// Config is what the server offers and the limits it holds requests to.
type Config struct {
	// Files are domain files to offer besides the shipped ones, read once
	// by New (each at most domain.MaxFileSize bytes) and named by the path
	// as given. A file named like a shipped one takes its place.
	Files []string
	// MaxBody is the most bytes a request body may have; 0 means
	// DefaultMaxBody.
	MaxBody int64
	// MaxBudget caps a search's states expanded (plan, explain, resolve);
	// 0 means goap.DefaultBudget. A request may ask for less, never more.
	MaxBudget int
	// MaxTraceBudget caps a traced GOAP search; 0 means
	// DefaultMaxTraceBudget.
	MaxTraceBudget int
	// MaxHTNSteps caps an HTN decomposition's steps; 0 means
	// htn.DefaultMaxSteps.
	MaxHTNSteps int
	// MaxFights caps an arena batch's fights per kind; 0 means
	// DefaultMaxFights.
	MaxFights int
	// MaxSearchBytes caps the memory of each GOAP search (goap.Options'
	// MaxBytes); 0 means DefaultMaxSearchBytes.
	MaxSearchBytes int
	// MaxAnswer caps every answer, in bytes: one past it is refused with
	// 422, a trace's and a graph's before they are made. 0 means
	// DefaultMaxAnswer.
	MaxAnswer int
	// MaxConcurrent is how many requests may work at once; the others are
	// refused with 503 at once. 0 means twice GOMAXPROCS.
	MaxConcurrent int
	// Timeout is how long a request waits for its answer before it gets
	// 503; 0 means DefaultTimeout. The request's searches, decompositions
	// and resolves are then stopped (as they are when the client goes),
	// so that its slot is free soon after: within the time its parse and
	// domain build take, which the loader's limits bound.
	Timeout time.Duration
	// LoopbackOnly refuses, with 403, a request whose Host header names
	// anything but the loopback (localhost, 127.0.0.0/8, ::1): a page
	// whose own name an attacker has pointed at 127.0.0.1 (DNS
	// rebinding) then cannot use the server. ploy serve sets it when it
	// listens on the loopback.
	LoopbackOnly bool
	// MaxStreams is how many live-agent streams (figure 4) may run at
	// once, apart from MaxConcurrent's slots; more get 503 at once. 0
	// means DefaultMaxStreams.
	MaxStreams int
	// MaxStreamTime is the longest a live-agent stream runs; 0 means
	// DefaultMaxStreamTime.
	MaxStreamTime time.Duration
	// Domain, if set, is the one domain the server offers, loaded by the
	// program that embeds ploy (package host: the C library and the
	// WebAssembly build answer API calls about a domain their caller
	// loaded once). Requests then name no domain and send no source, and
	// the shipped domains are not offered; Files must be empty.
	Domain *domain.File
}

// Server is the web app. It is safe for concurrent use.
type Server struct {
	cfg     Config
	files   map[string]*domain.File // by name, as requests give it
	names   []string                // the offered names, sorted
	started map[string]bool         // names of Config.Files and Config.Domain
	only    *domain.File            // Config.Domain: the one domain offered
	slots   chan struct{}           // a token per request working
	streams chan struct{}           // a token per live-agent stream
	routes  map[string]route
	// calls are the endpoints Call answers, by method name (plan,
	// resolve, ...): every POST endpoint that answers once.
	calls map[string]endpoint
	// planners keeps warm planners for each offered domain: a warm
	// planner plans without allocating. Read-only after New.
	planners map[*goap.Domain]*sync.Pool
	// arenaStreams holds a token per arena batch streaming, besides its
	// slot: a batch is the longest work the server does.
	arenaStreams chan struct{}
}

type route struct {
	method string
	serve  func(s *Server, w http.ResponseWriter, r *http.Request)
}

// New reads and parses the shipped domains and cfg.Files; an unreadable
// or invalid file is an error, positioned as the loader positions it.
func New(cfg Config) (*Server, error) {
	if cfg.MaxBody <= 0 {
		cfg.MaxBody = DefaultMaxBody
	}
	if cfg.MaxBudget <= 0 {
		cfg.MaxBudget = goap.DefaultBudget
	}
	if cfg.MaxTraceBudget <= 0 {
		cfg.MaxTraceBudget = DefaultMaxTraceBudget
	}
	if cfg.MaxHTNSteps <= 0 {
		cfg.MaxHTNSteps = htn.DefaultMaxSteps
	}
	if cfg.MaxFights <= 0 {
		cfg.MaxFights = DefaultMaxFights
	}
	cfg.MaxFights = min(cfg.MaxFights, arena.MaxFights)
	if cfg.MaxSearchBytes <= 0 {
		cfg.MaxSearchBytes = DefaultMaxSearchBytes
	}
	if cfg.MaxAnswer <= 0 {
		cfg.MaxAnswer = DefaultMaxAnswer
	}
	if cfg.MaxConcurrent <= 0 {
		cfg.MaxConcurrent = 2 * runtime.GOMAXPROCS(0)
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.MaxStreams <= 0 {
		cfg.MaxStreams = DefaultMaxStreams
	}
	if cfg.MaxStreamTime <= 0 {
		cfg.MaxStreamTime = DefaultMaxStreamTime
	}
	s := &Server{cfg: cfg, files: map[string]*domain.File{}, started: map[string]bool{}, slots: make(chan struct{}, cfg.MaxConcurrent)}
	s.streams = make(chan struct{}, cfg.MaxStreams)
	s.arenaStreams = make(chan struct{}, MaxArenaStreams)
	entries, err := fs.ReadDir(domains.Files, ".")
	if err != nil {
		return nil, fmt.Errorf("viewer: %w", err)
	}
	if cfg.Domain != nil {
		if len(cfg.Files) > 0 {
			return nil, errors.New("viewer: Config.Domain and Config.Files are set: a server given its one domain reads no file")
		}
		s.only = cfg.Domain
		s.files[cfg.Domain.Path] = cfg.Domain
		s.started[cfg.Domain.Path] = true // the caller's, not shipped
		entries = nil                     // the shipped domains are not offered
	}
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".yaml") {
			continue
		}
		src, err := fs.ReadFile(domains.Files, e.Name())
		if err != nil {
			return nil, fmt.Errorf("viewer: %w", err)
		}
		f, err := domain.Parse(e.Name(), src)
		if err != nil {
			return nil, err
		}
		s.files[e.Name()] = f
	}
	for _, name := range cfg.Files {
		src, err := domain.ReadFile(name)
		if err != nil {
			var pe *fs.PathError
			if errors.As(err, &pe) {
				err = domain.ErrorList{{File: name, Msg: pe.Err.Error()}}
			}
			return nil, err
		}
		f, err := domain.Parse(name, src)
		if err != nil {
			return nil, err
		}
		s.files[name] = f
		s.started[name] = true
	}
	s.planners = map[*goap.Domain]*sync.Pool{}
	for name, f := range s.files {
		s.names = append(s.names, name)
		if d := f.GOAP; d != nil && !f.EngineModel() {
			s.planners[d] = &sync.Pool{New: func() any { return goap.NewPlanner(d) }}
		}
	}
	sort.Strings(s.names)
	s.calls = map[string]endpoint{
		"domain":        noContext((*Server).describeSource),
		"plan":          (*Server).plan,
		"htn":           (*Server).htn,
		"trace":         (*Server).trace,
		"decomposition": (*Server).decomposition,
		"explain":       (*Server).explain,
		"resolve":       (*Server).resolve,
		"graph":         noContext((*Server).graph),
		"lint":          noContext((*Server).lint),
		"arena":         (*Server).arena,
		"tree":          noContext((*Server).tree),
		"personalities": (*Server).personalities,
		"arena/fight":   noContext((*Server).arenaFight),
	}
	s.routes = map[string]route{
		"/":                   {http.MethodGet, (*Server).serveIndex},
		"/api/v1/domains":     {http.MethodGet, (*Server).serveDomains},
		"/api/v1/live":        {http.MethodPost, (*Server).live},
		"/api/v1/arena/batch": {http.MethodPost, (*Server).arenaBatch},
	}
	for method, endpoint := range s.calls {
		contentType := "application/json"
		if method == "arena/fight" {
			contentType = "application/x-ndjson"
		}
		s.routes["/api/v1/"+method] = route{http.MethodPost, workAs(contentType, endpoint)}
	}
	for path, rt := range assetRoutes() {
		s.routes[path] = rt
	}
	return s, nil
}

// planner returns a planner for d, warm if d is an offered domain, and
// the function that gives it back.
func (s *Server) planner(d *goap.Domain) (*goap.Planner, func()) {
	pool, ok := s.planners[d]
	if !ok {
		return goap.NewPlanner(d), func() {}
	}
	p := pool.Get().(*goap.Planner)
	return p, func() { pool.Put(p) }
}

// Domains returns the names of the domains the server offers, sorted.
func (s *Server) Domains() []string { return append([]string(nil), s.names...) }

// ServeHTTP routes a request: an unknown path is 404 and a wrong method
// 405, both as JSON errors.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.cfg.LoopbackOnly && !loopbackHost(r.Host) {
		fail(w, &apiError{Status: http.StatusForbidden, Message: fmt.Sprintf("the server answers requests to the loopback only, not to host %q", r.Host)})
		return
	}
	if e := crossSite(r); e != nil {
		fail(w, e)
		return
	}
	rt, ok := s.routes[r.URL.Path]
	if !ok {
		fail(w, &apiError{Status: http.StatusNotFound, Message: fmt.Sprintf("no such endpoint: %s", r.URL.Path)})
		return
	}
	if r.Method != rt.method && !(rt.method == http.MethodGet && r.Method == http.MethodHead) {
		w.Header().Set("Allow", rt.method)
		fail(w, &apiError{Status: http.StatusMethodNotAllowed, Message: fmt.Sprintf("%s takes %s, not %s", r.URL.Path, rt.method, r.Method)})
		return
	}
	rt.serve(s, w, r)
}

// crossSite refuses, with 403, a request a page of another site sent
// (webguard.CrossSite says which).
func crossSite(r *http.Request) *apiError {
	if why := webguard.CrossSite(r); why != "" {
		return &apiError{Status: http.StatusForbidden, Message: why}
	}
	return nil
}

// loopbackHost reports whether a Host header names the loopback.
func loopbackHost(hostport string) bool { return webguard.LoopbackHost(hostport) }

// apiError is an error answer: {"error": MESSAGE}, with "field" naming
// the request field at fault, and "errors" the positioned errors of a
// domain source.
type apiError struct {
	Status  int         `json:"-"`
	Message string      `json:"error"`
	Field   string      `json:"field,omitempty"`
	Errors  []errorJSON `json:"errors,omitempty"`
	More    int         `json:"more_errors,omitempty"`
}

type errorJSON struct {
	File    string `json:"file"`
	Line    int    `json:"line,omitempty"`
	Column  int    `json:"column,omitempty"`
	Message string `json:"message"`
}

func (e *apiError) Error() string { return e.Message }

func badField(field, format string, args ...any) *apiError {
	return &apiError{Status: http.StatusBadRequest, Field: field, Message: fmt.Sprintf(format, args...)}
}

// invalid is the answer to a domain that cannot be used: its errors with
// their positions, at most domain.MaxErrors of them.
func invalid(message string, err error) *apiError {
	e := &apiError{Status: http.StatusUnprocessableEntity, Message: message}
	var list domain.ErrorList
	switch x := err.(type) {
	case domain.ErrorList:
		list = x
	case *domain.Error:
		list = domain.ErrorList{x}
	default:
		e.Message += ": " + err.Error()
		return e
	}
	for i, le := range list {
		if i == domain.MaxErrors {
			e.More = len(list) - i
			break
		}
		e.Errors = append(e.Errors, errorJSON{File: le.File, Line: le.Pos.Line, Column: le.Pos.Col, Message: cut(le.Msg)})
	}
	return e
}

func fail(w http.ResponseWriter, e *apiError) {
	// A message echoes what the request named: a megabyte of goal name
	// comes back cut, as the loader cuts its messages (callFailed).
	status, b := callFailed(e)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	if status == http.StatusServiceUnavailable {
		w.Header().Set("Retry-After", "1")
	}
	w.WriteHeader(status)
	w.Write(b)
}

// cut shortens s to domain.MaxMessage runes, marking the cut with "…".
func cut(s string) string {
	if len(s) <= domain.MaxMessage {
		return s
	}
	n := 0
	for i := range s {
		if n == domain.MaxMessage {
			return s[:i] + "…"
		}
		n++
	}
	return s
}

// endpoint is a request's work: its body in, its answer out. ctx is done
// when nobody waits for the answer any more (Config.Timeout passed, or
// the client went): the endpoint hands it to its searches, which then
// stop.
type endpoint func(s *Server, ctx context.Context, body []byte) ([]byte, error)

// noContext makes an endpoint of one whose work is bounded by the loader's
// limits and its own caps alone, with no planner loop to stop.
func noContext(f func(s *Server, body []byte) ([]byte, error)) endpoint {
	return func(s *Server, _ context.Context, body []byte) ([]byte, error) { return f(s, body) }
}

// work wraps an endpoint: it takes a slot or refuses at once, decodes
// nothing itself, and waits for the answer at most Config.Timeout. The
// endpoint runs on its own goroutine and keeps its slot until it ends,
// whether or not anyone still waits for it, so that abandoned work still
// counts against the bound; its context is done at the timeout or when
// the client goes, which stops its searches, so that it ends soon after.
func work(endpoint endpoint) func(*Server, http.ResponseWriter, *http.Request) {
	return workAs("application/json", endpoint)
}

// workAs is work for an endpoint whose answer has another content type.
func workAs(contentType string, endpoint endpoint) func(*Server, http.ResponseWriter, *http.Request) {
	return func(s *Server, w http.ResponseWriter, r *http.Request) {
		// The body is read before a slot is taken, so that a slow sender
		// holds a connection (bounded by the server's read timeout), not
		// a slot; and on this goroutine, since the request is not to be
		// used once the handler returns.
		body, err := readJSONBody(w, r, s.cfg.MaxBody)
		if err != nil {
			fail(w, err)
			return
		}
		select {
		case s.slots <- struct{}{}:
		default:
			fail(w, &apiError{Status: http.StatusServiceUnavailable, Message: fmt.Sprintf("busy: %d requests are already working; retry in a second", cap(s.slots))})
			return
		}
		type answer struct {
			body []byte
			err  error
		}
		done := make(chan answer, 1)
		// The work's context is done when the client goes or this handler
		// returns (after the 503 for the timeout, say). It has no deadline
		// of its own: one at the same instant as the timer's would race
		// it, and the work could end first with a "stopped" answer sent
		// as a 200 instead of the 503.
		ctx, cancel := context.WithCancel(r.Context())
		defer cancel()
		go func() {
			answerBody, err := run(endpoint, s, ctx, body)
			// The slot is free before the answer is: a client that sends
			// its next request on the answer finds it free.
			<-s.slots
			done <- answer{answerBody, err}
		}()
		timer := time.NewTimer(s.cfg.Timeout)
		defer timer.Stop()
		select {
		case a := <-done:
			if a.err != nil {
				fail(w, asAPIError(a.err))
				return
			}
			// Every answer is bounded. Those that grow with the input
			// or with a plan (trace, graph, plan, htn, explain, ...) are
			// refused before they are made (answerFits, traceAnswer);
			// this is the bound for all the others, whose size the
			// request's other caps bound (budget, steps, fights, body).
			if len(a.body) > s.cfg.MaxAnswer {
				fail(w, &apiError{Status: http.StatusUnprocessableEntity, Message: fmt.Sprintf("the answer is %d bytes, more than the %d the server answers", len(a.body), s.cfg.MaxAnswer)})
				return
			}
			writeBody(w, contentType, a.body)
		case <-timer.C:
			fail(w, &apiError{Status: http.StatusServiceUnavailable, Message: fmt.Sprintf("timeout: no answer within %s", s.cfg.Timeout)})
		case <-r.Context().Done():
			// the client went away: nobody to answer
		}
	}
}

// run calls endpoint, turning a panic into a 500 answer.
func run(endpoint endpoint, s *Server, ctx context.Context, request []byte) (body []byte, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = &apiError{Status: http.StatusInternalServerError, Message: fmt.Sprintf("internal error: %v", p)}
		}
	}()
	return endpoint(s, ctx, request)
}

// cappedBuffer is a buffer that refuses to grow past max bytes: a
// writer over it stops at the first refusal.
type cappedBuffer struct {
	bytes.Buffer
	max int
}

var errAnswerTooLarge = errors.New("viewer: answer too large")

func (b *cappedBuffer) Write(p []byte) (int, error) {
	if b.Len()+len(p) > b.max {
		return 0, errAnswerTooLarge
	}
	return b.Buffer.Write(p)
}

// traceAnswer runs write into a buffer of at most Config.MaxAnswer bytes;
// a trace past it is refused, with what to lower.
func (s *Server) traceAnswer(write func(w *bufio.Writer) error) ([]byte, error) {
	buf := &cappedBuffer{max: s.cfg.MaxAnswer}
	w := bufio.NewWriter(buf)
	err := write(w)
	if err == nil {
		err = w.Flush()
	}
	if err == errAnswerTooLarge {
		return nil, &apiError{Status: http.StatusUnprocessableEntity, Field: "budget", Message: fmt.Sprintf("the trace is larger than %d bytes, the most the server answers: lower budget (or max_steps)", s.cfg.MaxAnswer)}
	}
	if err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// readJSONBody reads a POST's body, at most limit bytes, refusing any
// content type but JSON, and a body without one: a browser sends a
// cross-site form, text/plain, Blob, ArrayBuffer or sendBeacon POST
// without asking, the last three with no content type at all; a JSON
// content type makes it ask first, and the server never says yes.
func readJSONBody(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, *apiError) {
	if why := webguard.JSONBody(r.Header.Get("Content-Type")); why != "" {
		return nil, &apiError{Status: http.StatusUnsupportedMediaType, Message: why}
	}
	return readBody(w, r, limit)
}

// writeBody answers with b, of the content type given.
func writeBody(w http.ResponseWriter, contentType string, b []byte) {
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.Write(b)
}

// asAPIError is err as the API answers it: an apiError as it is, any
// other error a 500.
func asAPIError(err error) *apiError {
	var ae *apiError
	var ng *errNoGoal
	switch {
	case errors.As(err, &ae):
	case errors.As(err, &ng):
		// plan and resolve answer it as their commands' --json do;
		// elsewhere (trace, explain) the command says it and exits 3
		ae = &apiError{Status: http.StatusUnprocessableEntity, Field: "agent", Message: ng.Error()}
	default:
		ae = &apiError{Status: http.StatusInternalServerError, Message: err.Error()}
	}
	return ae
}

// readBody reads the request body, at most limit bytes of it.
func readBody(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, *apiError) {
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(http.MaxBytesReader(w, r.Body, limit)); err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return nil, &apiError{Status: http.StatusRequestEntityTooLarge, Message: fmt.Sprintf("the request body is larger than %d bytes, the most the server takes", tooLarge.Limit)}
		}
		if errors.Is(err, os.ErrDeadlineExceeded) {
			// The server's read deadline (ploy serve sets it to --timeout)
			// passed before the body did: the request's time is up, as
			// it is when its work takes too long.
			return nil, &apiError{Status: http.StatusServiceUnavailable, Message: "timeout: the request body did not arrive in time"}
		}
		return nil, &apiError{Status: http.StatusBadRequest, Message: fmt.Sprintf("cannot read the request body: %v", err)}
	}
	return buf.Bytes(), nil
}

// decode reads the request body into v: one JSON object, no unknown
// field, nothing after it. An empty body is an empty object.
func decode(body []byte, v any) error {
	if len(bytes.TrimSpace(body)) == 0 {
		body = []byte("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		e := &apiError{Status: http.StatusBadRequest, Message: "malformed JSON: " + err.Error()}
		var syn *json.SyntaxError
		var typ *json.UnmarshalTypeError
		switch {
		case errors.As(err, &syn):
			e.Message = fmt.Sprintf("malformed JSON at byte %d: %v", syn.Offset, syn)
		case errors.As(err, &typ):
			// typ.Field is a Go path (startRequest.set, with the
			// embedded structs' type names, and no map keys): name the
			// request's own field instead, found at the error's offset.
			path, inArray := jsonPathAt(body, typ.Offset)
			e.Field = path
			if inArray {
				e.Message = fmt.Sprintf("field %q must hold %s, not a JSON %s", path, jsonPlural(jsonType(typ.Type.Kind().String())), typ.Value)
			} else {
				e.Message = fmt.Sprintf("field %q must be %s, not a JSON %s", path, jsonType(typ.Type.Kind().String()), typ.Value)
			}
		case strings.HasPrefix(err.Error(), "json: unknown field "):
			name, _ := strconv.Unquote(strings.TrimPrefix(err.Error(), "json: unknown field "))
			e.Field = jsonKeyPath(body, name)
			e.Message = fmt.Sprintf("unknown field %q", e.Field)
		}
		return e
	}
	if dec.More() {
		return &apiError{Status: http.StatusBadRequest, Message: "malformed JSON: more after the request object"}
	}
	if _, err := dec.Token(); err == nil {
		return &apiError{Status: http.StatusBadRequest, Message: "malformed JSON: more after the request object"}
	}
	return saidOnce(body)
}

// saidOnce refuses what encoding/json passes over in silence: a member
// named twice in one object, of which it keeps the last (the command
// refuses --target NAME given twice), and a null in an array, which it
// reads as 0 or "" (a coordinate of [null, 1]).
func saidOnce(body []byte) error {
	var err error
	var seen []map[string]bool // the member names of each open object
	jsonWalk(body, func(tok json.Token, _ int64, isKey bool, open []jsonFrame) bool {
		seen = seen[:len(open)]
		switch {
		case isKey:
			name := tok.(string)
			if seen[len(open)-1][name] {
				err = badField(jsonPathOf(open), "field %q given twice: give it once", jsonPathOf(open))
				return true
			}
			seen[len(open)-1][name] = true
		case tok == json.Delim('{'):
			seen = append(seen, map[string]bool{})
		case tok == json.Delim('['):
			seen = append(seen, nil)
		case tok == nil && len(open) > 0 && !open[len(open)-1].object:
			err = badField(jsonPathOf(open), "field %q holds a null: an array's elements are values", jsonPathOf(open))
			return true
		}
		return false
	})
	return err
}

// jsonFrame is an object or array being read by jsonWalk.
type jsonFrame struct {
	object, wantKey bool
	key             string // an object's member being read
}

// jsonWalk reads body, valid JSON, a token at a time, and calls visit
// with each token, the byte offset just after it, whether it is an
// object's member name, and the open objects and arrays, outermost first.
// It stops when visit returns true.
func jsonWalk(body []byte, visit func(tok json.Token, end int64, isKey bool, open []jsonFrame) bool) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var open []jsonFrame
	valueDone := func() {
		if n := len(open); n > 0 && open[n-1].object {
			open[n-1].wantKey = true
		}
	}
	for {
		tok, err := dec.Token()
		if err != nil {
			return
		}
		isKey := false
		if n := len(open); n > 0 && open[n-1].object && open[n-1].wantKey {
			if name, ok := tok.(string); ok {
				isKey = true
				open[n-1].key, open[n-1].wantKey = name, false
			}
		}
		if visit(tok, dec.InputOffset(), isKey, open) {
			return
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			open = append(open, jsonFrame{object: tok == json.Delim('{'), wantKey: true})
		case json.Delim('}'), json.Delim(']'):
			open = open[:len(open)-1]
			valueDone()
		default:
			if !isKey {
				valueDone()
			}
		}
	}
}

// jsonPathOf is the request's name for a value inside the open objects
// and arrays: the member names, joined by dots (targets.fireplace), with
// arrays standing for their elements.
func jsonPathOf(open []jsonFrame) string {
	var names []string
	for _, f := range open {
		if f.object {
			names = append(names, f.key)
		}
	}
	return strings.Join(names, ".")
}

// jsonPathAt returns the path of the value of body that encoding/json
// reports at offset (the end of a literal, or just after the { or [ that
// starts an object or array), and whether that value is an array's
// element.
func jsonPathAt(body []byte, offset int64) (path string, inArray bool) {
	jsonWalk(body, func(tok json.Token, end int64, isKey bool, open []jsonFrame) bool {
		if isKey || end < offset || tok == json.Delim('}') || tok == json.Delim(']') {
			return false
		}
		path, inArray = jsonPathOf(open), len(open) > 0 && !open[len(open)-1].object
		return true
	})
	return path, inArray
}

// jsonKeyPath returns the path of the first member of body named name
// (encoding/json names an unknown field without its path), or name if
// there is none.
func jsonKeyPath(body []byte, name string) string {
	path := name
	jsonWalk(body, func(tok json.Token, _ int64, isKey bool, open []jsonFrame) bool {
		if isKey && tok == name {
			path = jsonPathOf(open)
			return true
		}
		return false
	})
	return path
}

// jsonPlural is what an array of jsonType holds: "numbers" for "a number".
func jsonPlural(one string) string {
	switch one {
	case "a string":
		return "strings"
	case "an array":
		return "arrays"
	case "a number":
		return "numbers"
	case "an object":
		return "objects"
	}
	return one
}

func jsonType(kind string) string {
	switch kind {
	case "string":
		return "a string"
	case "slice":
		return "an array"
	case "bool":
		return "true or false"
	case "int", "int64", "uint64", "float64":
		return "a number"
	case "struct", "map":
		return "an object"
	}
	return kind
}
