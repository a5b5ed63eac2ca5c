package viewer

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"time"
)

// Call answers one request of the JSON API in the calling goroutine, with
// no HTTP: method is the endpoint's path under /api/v1/ ("plan",
// "resolve", "arena/fight", ...) and request its body. It returns the
// status and the body the endpoint would send: the same answer, or the
// same error object ({"error": ..., "field": ...}), under the same limits
// (Config.MaxBody for the request, the searches' caps, Config.MaxAnswer
// for the answer, Config.Timeout for the wait). The endpoints that stream
// (live, arena/batch) and the GETs are not offered: an unknown method is
// 404, as an unknown path is.
//
// A program that embeds ploy calls it where a page would send a request:
// package host (the C library, the WebAssembly build) builds a Server
// with Config.Domain and answers its callers' calls with it. Where a
// handler refuses a request at once when MaxConcurrent are working, Call
// waits for a free slot, up to Config.Timeout: its caller is a program's
// own thread, which would retry anyway. Call is safe for concurrent use;
// ctx stops the work as a client that goes away does.
func (s *Server) Call(ctx context.Context, method string, request []byte) (status int, answer []byte) {
	endpoint, ok := s.calls[method]
	if !ok {
		return callFailed(&apiError{Status: http.StatusNotFound, Field: "method", Message: fmt.Sprintf("unknown method %q; the methods: %s", method, strings.Join(s.Methods(), ", "))})
	}
	if int64(len(request)) > s.cfg.MaxBody {
		return callFailed(&apiError{Status: http.StatusRequestEntityTooLarge, Message: fmt.Sprintf("the request body is larger than %d bytes, the most the server takes", s.cfg.MaxBody)})
	}
	select {
	case s.slots <- struct{}{}:
	default: // wait for one, up to the timeout
		timer := time.NewTimer(s.cfg.Timeout)
		defer timer.Stop()
		select {
		case s.slots <- struct{}{}:
		case <-timer.C:
			return callFailed(&apiError{Status: http.StatusServiceUnavailable, Message: fmt.Sprintf("busy: %d requests were working for all of %s", cap(s.slots), s.cfg.Timeout)})
		case <-ctx.Done():
			return callFailed(&apiError{Status: http.StatusServiceUnavailable, Message: "canceled: " + ctx.Err().Error()})
		}
	}
	defer func() { <-s.slots }()
	// The work stops at the timeout, as a handler's does when it answers
	// 503: the search sees its context done and ends soon after.
	ctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()
	body, err := run(endpoint, s, ctx, request)
	switch {
	case ctx.Err() == context.DeadlineExceeded:
		return callFailed(&apiError{Status: http.StatusServiceUnavailable, Message: fmt.Sprintf("timeout: no answer within %s", s.cfg.Timeout)})
	case ctx.Err() != nil:
		return callFailed(&apiError{Status: http.StatusServiceUnavailable, Message: "canceled: " + ctx.Err().Error()})
	case err != nil:
		return callFailed(asAPIError(err))
	case len(body) > s.cfg.MaxAnswer:
		return callFailed(&apiError{Status: http.StatusUnprocessableEntity, Message: fmt.Sprintf("the answer is %d bytes, more than the %d the server answers", len(body), s.cfg.MaxAnswer)})
	}
	return http.StatusOK, body
}

// Methods returns the methods Call answers, sorted.
func (s *Server) Methods() []string {
	names := make([]string, 0, len(s.calls))
	for name := range s.calls {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// callFailed is an error's status and body, as fail writes them. A
// message echoes what the request named: a megabyte of goal name comes
// back cut, as the loader cuts its messages.
func callFailed(e *apiError) (int, []byte) {
	e.Message, e.Field = cut(e.Message), cut(e.Field)
	b, err := json.Marshal(e)
	if err != nil {
		b = []byte(`{"error":"cannot encode the error"}`)
	}
	return e.Status, append(b, '\n')
}
