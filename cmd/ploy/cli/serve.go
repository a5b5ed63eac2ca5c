package cli

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/ploy-ai/ploy/domain"
	"github.com/ploy-ai/ploy/inspect"
	"github.com/ploy-ai/ploy/viewer"
)

// serveShutdown is how long a stopping server waits for the requests it
// is answering.
const serveShutdown = 5 * time.Second

// stopSignals is the context a server runs in until Ctrl-C or SIGTERM;
// a test replaces it to stop the server itself.
var stopSignals = func() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

func runServe(e *env, args []string) int {
	var addr, replay string
	var cfg viewer.Config
	var maxBody int
	fset := flagSet(e, "serve", "[FILE...] [flags]",
		"Serve ploy's web app and its JSON API (docs/api.md) on ADDR, loopback by\ndefault: the shipped domains and the files named, read once at start. Every\nrequest is bounded (docs/limits.md); stop the server with Ctrl-C.\n\nWith --replay FILE, serve the live inspector's page (docs/inspector.md) over\na decision recording instead: every agent's decisions, with a timeline to\nscrub through them.",
		`  ploy serve
  ploy serve mydomain.yaml --addr 127.0.0.1:8080
  ploy serve --replay game.jsonl
`)
	fset.StringVar(&addr, "addr", "127.0.0.1:7070", "address to listen on, HOST:PORT (a host other than loopback serves the network)")
	fset.IntVar(&maxBody, "max-body", viewer.DefaultMaxBody, "most bytes of a request body")
	fset.IntVar(&cfg.MaxConcurrent, "max-concurrent", 0, "requests working at once, the others refused with 503 (0: twice the CPUs)")
	fset.DurationVar(&cfg.Timeout, "timeout", viewer.DefaultTimeout, "longest wait for a request's answer")
	fset.DurationVar(&cfg.MaxStreamTime, "max-stream-time", viewer.DefaultMaxStreamTime, "longest a live-agent stream runs")
	fset.StringVar(&replay, "replay", "", "serve the inspector's page over this decision recording (a .jsonl file an agent.FlightRecorder or the inspector wrote), at most 64 MiB, instead of the web app")
	positional, st := parse(e, fset, args)
	if st >= 0 {
		return st
	}
	if replay != "" && len(positional) > 0 {
		return usageErr(e, fset, "--replay serves a recording, not domain files: drop %q", positional[0])
	}
	if _, _, err := net.SplitHostPort(addr); err != nil {
		return usageErr(e, fset, "--addr must be HOST:PORT, not %q", addr)
	}
	if maxBody < 1 || maxBody > domain.MaxFileSize {
		return usageErr(e, fset, "--max-body must be from 1 to %d, not %d", domain.MaxFileSize, maxBody)
	}
	if cfg.MaxConcurrent < 0 {
		return usageErr(e, fset, "--max-concurrent must not be negative, not %d", cfg.MaxConcurrent)
	}
	if cfg.Timeout <= 0 {
		return usageErr(e, fset, "--timeout must be positive, not %s", cfg.Timeout)
	}
	if cfg.MaxStreamTime <= 0 {
		return usageErr(e, fset, "--max-stream-time must be positive, not %s", cfg.MaxStreamTime)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		fmt.Fprintf(e.stderr, "ploy serve: %v\n", err)
		return exitInvalid
	}
	defer ln.Close()
	// On the loopback, refuse requests addressed to any other name: a
	// rebound DNS name must not reach the server through the browser.
	// What counts is the address listened on, not the flag's text: a
	// name (LOCALHOST, a host name resolving to 127.0.0.1) is listened on
	// at one of its addresses, and that address says who can connect.
	cfg.LoopbackOnly = listensOnLoopback(ln.Addr())
	var handler http.Handler
	var serving string
	if replay != "" {
		// Read before serving: a bad file stops it at start, positioned.
		page, st := readReplay(e, replay, !cfg.LoopbackOnly)
		if page == nil {
			return st
		}
		handler = page
		n := page.Counts()
		serving = fmt.Sprintf("recording %s: %d decisions of %d agents", replay, n.Decisions, n.Agents)
	} else {
		cfg.MaxBody = int64(maxBody)
		cfg.Files = positional
		srv, err := viewer.New(cfg)
		if err != nil {
			if _, positioned := err.(domain.ErrorList); positioned {
				fmt.Fprint(e.stderr, domain.Format(err, nil))
			} else {
				fmt.Fprintf(e.stderr, "ploy serve: %s\n", errorText(err))
			}
			return exitInvalid
		}
		handler = srv
		serving = fmt.Sprintf("%d domains", len(srv.Domains()))
	}
	hs := &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       cfg.Timeout,
		WriteTimeout:      cfg.Timeout + 5*time.Second,
		IdleTimeout:       time.Minute,
		MaxHeaderBytes:    64 << 10,
	}
	if !cfg.LoopbackOnly {
		fmt.Fprintf(e.stderr, "ploy serve: listening on %s: anyone who can reach it can use the server\n", ln.Addr())
	}
	ctx, stop := stopSignals()
	defer stop()
	fmt.Fprintf(e.stdout, "ploy serve: http://%s/ (%s; Ctrl-C stops)\n", ln.Addr(), serving)
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	select {
	case err := <-served:
		fmt.Fprintf(e.stderr, "ploy serve: %v\n", err)
		return exitInvalid
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), serveShutdown)
	defer cancel()
	if err := hs.Shutdown(shutdown); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		fmt.Fprintf(e.stderr, "ploy serve: %v\n", err)
		return exitInvalid
	}
	fmt.Fprintln(e.stdout, "ploy serve: stopped")
	return exitOK
}

// listensOnLoopback reports whether a listener's address is a loopback
// one (127.0.0.0/8, ::1): only the machine itself can connect. The
// unspecified address (0.0.0.0, ::) listens on every interface.
func listensOnLoopback(a net.Addr) bool {
	tcp, ok := a.(*net.TCPAddr)
	return ok && tcp.IP.IsLoopback()
}

// maxReplay is the most bytes of a recording `ploy serve --replay` reads:
// the page reads it whole, in the browser.
const maxReplay = inspect.DefaultMaxRecording

// readReplay reads the decision recording --replay names, one decision at
// a time and bounded (inspect.ReadReplay), into the page's server; a bad
// one is reported, positioned, with the status of a bad input.
func readReplay(e *env, name string, allowRemote bool) (*inspect.Replay, int) {
	f, status := openInput(e, name)
	if f == nil {
		return nil, status
	}
	defer f.Close()
	if info, err := f.Stat(); err == nil && info.IsDir() {
		// Opening a directory succeeds; reading it would say "read NAME:
		// is a directory", the name twice.
		fmt.Fprintf(e.stderr, "%s: a directory, not a decision recording\n", name)
		return nil, exitInvalid
	} else if err == nil && info.Mode().IsRegular() && info.Size() > maxReplay {
		// Said before it is read, at once. ReadReplay's bound says the
		// same of a file that grows, or a pipe.
		fmt.Fprintf(e.stderr, "%s: longer than %d bytes\n", name, maxReplay)
		return nil, exitInvalid
	}
	page, err := inspect.ReadReplay(f, inspect.ReplayOptions{Name: name, AllowRemote: allowRemote, MaxRecording: maxReplay})
	if err != nil {
		fmt.Fprintf(e.stderr, "%s\n", err)
		return nil, exitInvalid
	}
	return page, -1
}
