//go:build js && wasm

package main

// The static site's server (`ploy site`, docs/viewer.md): the page's
// requests of the JSON API, which the site's script (viewer/site/site.js)
// takes from fetch, are answered here by the viewer's own handler, in the
// browser, with no network. Streams (figure 4's live agent, figure 7's
// batch) come back a flush at a time, as over HTTP.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"syscall/js"
	"time"

	"github.com/ploy-ai/ploy/viewer"
)

func init() {
	export("siteStream", siteStream)
	export("siteCancel", siteCancel)
}

// siteMaxAnswer bounds what one request sends back to the page. The
// handler bounds each answer (viewer.Config.MaxAnswer) and each stream;
// this is the bound for all, so that a bug cannot fill the tab's memory.
const siteMaxAnswer = 64 << 20

// siteMaxBody is the most bytes of a request body copied into Go: the
// server refuses past its own MaxBody (1 MiB), with its error; a body
// larger still is refused here before it is copied.
const siteMaxBody = 2 * viewer.DefaultMaxBody

var (
	siteOnce   sync.Once
	siteServer *viewer.Server
	siteErr    error

	siteMu      sync.Mutex
	siteLastID  int
	siteCancels = map[int]context.CancelFunc{}
)

// siteHandler is the viewer's server over the shipped domains, made once.
// Its limits are the server's but one: the browser's one thread is the
// bound on the work at once, and a figure's first requests come
// together, so that MaxConcurrent's quick 503 would only refuse them.
func siteHandler() (*viewer.Server, error) {
	siteOnce.Do(func() {
		siteServer, siteErr = viewer.New(viewer.Config{MaxConcurrent: 64})
	})
	return siteServer, siteErr
}

// siteStream(method, path, contentType, body, sink) answers one request
// as viewer's ServeHTTP answers it: body is a Uint8Array or null, and
// sink an object whose methods get the answer, head(status, contentType)
// once, chunk(Uint8Array) for each flush, and end(error) last, error
// undefined but for a request that could not be answered at all. It
// returns the request's number, for siteCancel, at once: the work runs
// on its own goroutine, so that the page's event loop runs meanwhile
// (timers, the stream's pace, the page's drawing).
//
// A call it cannot take (arguments of the wrong kinds) returns an Error
// instead of a number: a panic here would end the program, and every
// figure with it.
func siteStream(_ js.Value, args []js.Value) any {
	if why := siteBadArgs(args); why != "" {
		return js.Global().Get("Error").New("siteStream(method, path, contentType, body, sink): " + why)
	}
	method, path, contentType, jsBody, sink := args[0].String(), args[1].String(), args[2].String(), args[3], args[4]
	ctx, cancel := context.WithCancel(context.Background())
	siteMu.Lock()
	siteLastID++
	id := siteLastID
	siteCancels[id] = cancel
	siteMu.Unlock()
	w := &siteWriter{header: http.Header{}, sink: sink, cancel: cancel}
	// The body is copied now, while the page's value is sure to be there.
	var body []byte
	tooLarge := false
	if jsBody.Type() == js.TypeObject {
		if n := jsBody.Length(); n > siteMaxBody {
			tooLarge = true
		} else {
			body = make([]byte, n)
			js.CopyBytesToGo(body, jsBody)
		}
	}
	go func() {
		defer func() {
			siteMu.Lock()
			delete(siteCancels, id)
			siteMu.Unlock()
			cancel()
		}()
		w.finish(siteServe(ctx, w, method, path, contentType, body, tooLarge))
	}()
	return id
}

// siteBadArgs says what is wrong with siteStream's arguments, or "".
func siteBadArgs(args []js.Value) string {
	if len(args) != 5 {
		return fmt.Sprintf("5 arguments, not %d", len(args))
	}
	for i, v := range args {
		if !typed(v) {
			return fmt.Sprintf("argument %d is %s", i+1, untyped(v))
		}
	}
	for i, name := range []string{"method", "path", "contentType"} {
		if args[i].Type() != js.TypeString {
			return name + " must be a string"
		}
	}
	if b := args[3]; !b.IsNull() && !b.IsUndefined() && !b.InstanceOf(js.Global().Get("Uint8Array")) {
		return "body must be a Uint8Array or null"
	}
	sink := args[4]
	if sink.Type() != js.TypeObject {
		return "sink must be an object"
	}
	for _, m := range []string{"head", "chunk", "end"} {
		if sink.Get(m).Type() != js.TypeFunction {
			return "sink has no method " + m
		}
	}
	return ""
}

// siteServe answers one request into w; an error is a request that got
// no answer.
func siteServe(ctx context.Context, w *siteWriter, method, path, contentType string, body []byte, tooLarge bool) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("ploy.wasm: internal error: %v", p)
		}
	}()
	s, err := siteHandler()
	if err != nil {
		return err
	}
	if tooLarge {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusRequestEntityTooLarge)
		fmt.Fprintf(w, "{\"error\":\"the request body is larger than %d bytes, the most the page sends\"}\n", siteMaxBody)
		return nil
	}
	if !strings.HasPrefix(path, "/") {
		path = "/" + path
	}
	r, err := http.NewRequestWithContext(ctx, method, "http://ploy.wasm"+path, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("ploy.wasm: %v", err)
	}
	if contentType != "" {
		r.Header.Set("Content-Type", contentType)
	}
	s.ServeHTTP(w, r)
	return nil
}

// siteCancel(id) stops the request siteStream numbered id, as a client
// that goes away stops it: the page aborted its fetch. An id that has
// ended already is nothing to stop.
func siteCancel(_ js.Value, args []js.Value) any {
	if len(args) != 1 || args[0].Type() != js.TypeNumber {
		panic("siteCancel takes the number siteStream returned")
	}
	siteMu.Lock()
	cancel := siteCancels[args[0].Int()]
	siteMu.Unlock()
	if cancel != nil {
		cancel()
	}
	return nil
}

var (
	errSiteTooLarge = errors.New("ploy.wasm: the answer is too large")
	errSiteGone     = errors.New("ploy.wasm: the page takes no more of the answer")
)

// siteWriter is a ResponseWriter that hands what the handler writes to
// the page's sink: the head at the first flush or at the end, the body a
// flush at a time.
type siteWriter struct {
	header   http.Header
	status   int
	sink     js.Value
	cancel   context.CancelFunc // the request's
	buf      []byte
	sent     int
	headSent bool
	broken   bool // the sink threw: the page takes nothing more
}

// call calls the sink's method. A sink that throws (its stream gone) is
// called no more, and the request stops as if its client had gone: a
// JavaScript exception in Go is a panic, which would end the program.
func (w *siteWriter) call(method string, args ...any) {
	if w.broken {
		return
	}
	defer func() {
		if p := recover(); p != nil {
			w.broken = true
			w.cancel()
		}
	}()
	w.sink.Call(method, args...)
}

func (w *siteWriter) Header() http.Header { return w.header }

func (w *siteWriter) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
}

func (w *siteWriter) Write(p []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	if w.broken {
		return 0, errSiteGone
	}
	if w.sent+len(w.buf)+len(p) > siteMaxAnswer {
		return 0, errSiteTooLarge
	}
	w.buf = append(w.buf, p...)
	return len(p), nil
}

// Flush sends what was written, then lets the page's event loop run: the
// page reads the chunk and draws it before the handler goes on (a batch
// of fights is work without a pause, and JavaScript runs only when Go
// waits).
func (w *siteWriter) Flush() {
	w.WriteHeader(http.StatusOK)
	w.send()
	time.Sleep(time.Millisecond)
}

func (w *siteWriter) send() {
	if !w.headSent {
		w.headSent = true
		w.call("head", w.status, w.header.Get("Content-Type"))
	}
	if len(w.buf) == 0 {
		return
	}
	chunk := js.Global().Get("Uint8Array").New(len(w.buf))
	js.CopyBytesToJS(chunk, w.buf)
	w.sent += len(w.buf)
	w.buf = w.buf[:0]
	w.call("chunk", chunk)
}

// finish sends the rest and ends the answer; err, if the request got no
// answer, goes to the page as the fetch's failure.
func (w *siteWriter) finish(err error) {
	if err != nil && !w.headSent {
		w.call("end", err.Error())
		return
	}
	w.WriteHeader(http.StatusOK)
	w.send()
	if err != nil {
		w.call("end", err.Error())
		return
	}
	w.call("end", js.Undefined())
}
