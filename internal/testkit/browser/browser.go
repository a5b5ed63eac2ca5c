// Package browser drives pages in headless Chromium (Debian's chromium
// package) for the browser tests of ploy serve's figures and of the live
// inspector: it starts the browser, reads and waits on the page, watches
// its console and saves screenshots for a person to look at.
package browser

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// ChromiumEnv names a Chromium other than the one on the PATH.
const ChromiumEnv = "PLOY_CHROMIUM"

// RequireEnv, set to "1", makes a missing Chromium fail the browser tests
// instead of skipping them: .ci/run sets it, so that CI never passes
// without having driven the pages.
const RequireEnv = "PLOY_REQUIRE_BROWSER"

// Find returns Chromium's path. With -short, or with no Chromium found,
// it skips the test, saying why and how to install Chromium, so that
// `go test ./...` on a machine without it runs everything else; with
// RequireEnv set, no Chromium fails the test instead.
func Find(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("a browser test: -short skips it")
	}
	if path := os.Getenv(ChromiumEnv); path != "" {
		return path
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if path, err := exec.LookPath(name); err == nil {
			return path
		}
	}
	msg := fmt.Sprintf("a browser test, and no Chromium on the PATH: install it with\n"+
		"\tsudo apt-get install -y chromium   (Debian, Ubuntu)\n"+
		"or set %s to a Chromium or Chrome binary (.ci/run installs it when it is missing)", ChromiumEnv)
	if os.Getenv(RequireEnv) == "1" {
		t.Fatalf("%s; %s=1 requires it", msg, RequireEnv)
	}
	t.Skip(msg)
	return ""
}

// starts is how many times Start tries to start Chromium. A browser that
// exits before it opens its debugging connection ("chrome failed to
// start", seen once in CI while other packages' tests loaded the machine)
// is started again on a fresh profile; a page that misbehaves later is
// never retried.
const starts = 3

// Start starts headless Chromium on a fresh profile, with the flags a
// closed network needs (no background connections to Google's hosts),
// and returns a tab's context that ends after timeout; the browser stops
// at the test's end.
func Start(t testing.TB, timeout time.Duration) context.Context {
	t.Helper()
	path := Find(t)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("hide-scrollbars", true),
		// A container's /dev/shm can be small; a renderer that runs out
		// of it crashes.
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.WindowSize(960, 760),
	)
	if os.Geteuid() == 0 {
		// Chromium refuses to run as root with its sandbox on (CI runs
		// as root in a container).
		opts = append(opts, chromedp.NoSandbox)
	}
	ctx, cancelTimeout := context.WithTimeout(context.Background(), timeout)
	t.Cleanup(cancelTimeout)
	var err error
	for try := 1; try <= starts; try++ {
		// No UserDataDir: chromedp then makes its own, and on exit kills
		// chromium's child processes that outlive it and removes the
		// folder.
		alloc, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
		tab, cancelTab := chromedp.NewContext(alloc)
		// Start the browser here, once per context. chromedp starts it on
		// a context's first use and, when that start fails, starts it
		// again on the next use; the two starts then close one channel
		// twice and the test binary panics. So a failed start throws its
		// contexts away and makes new ones.
		if err = chromedp.Do(tab); err == nil {
			t.Cleanup(func() {
				cancelTab()
				cancelAlloc()
			})
			return tab
		}
		cancelTab()
		cancelAlloc()
		if ctx.Err() != nil {
			break
		}
		t.Logf("starting %s (try %d of %d): %v", path, try, starts, err)
		time.Sleep(time.Second)
	}
	t.Fatalf("starting %s: %v", path, errors.Join(err, ctx.Err()))
	return nil
}

// Read evaluates the script read, which reads what from the page, into
// a T.
func Read[T any](t testing.TB, tab context.Context, what, read string) T {
	t.Helper()
	v, err := chromedp.Run(tab, chromedp.Evaluate[T](read))
	if err != nil {
		t.Fatalf("reading %s: %v", what, err)
	}
	return v
}

// WaitFor waits up to timeout for the script cond to hold, then reads the
// page with read; if cond never holds, the test fails with what read
// sees.
func WaitFor[T any](t testing.TB, tab context.Context, what, cond string, timeout time.Duration, read string) T {
	t.Helper()
	if _, err := chromedp.Run(tab, chromedp.Poll[bool](cond, chromedp.WithPollingTimeout(timeout))); err != nil {
		shows, _ := chromedp.Run(tab, chromedp.Evaluate[T](read))
		t.Fatalf("%s: never %s: %v; the page shows %+v", what, cond, err, shows)
	}
	return Read[T](t, tab, "the page after "+what, read)
}

// WatchConsole collects what the page writes to its console, and returns
// the check to run at the test's end: every message must contain one of
// expected (the refusals the test provokes), each used once, and each of
// expected must have been seen.
func WatchConsole(t testing.TB, tab context.Context, expected ...string) func() {
	var mu sync.Mutex
	var console []string
	listen, stopListening := context.WithCancel(tab)
	messages := chromedp.Console(listen)
	listened := make(chan struct{})
	go func() {
		defer close(listened)
		for m, err := range messages {
			if err != nil {
				return
			}
			mu.Lock()
			console = append(console, m.String())
			mu.Unlock()
		}
	}()
	return func() {
		stopListening()
		<-listened
	next:
		for _, m := range console {
			for i, e := range expected {
				if strings.Contains(m, e) {
					expected = slices.Delete(expected, i, i+1)
					continue next
				}
			}
			t.Errorf("the page's console: %s", m)
		}
		for _, e := range expected {
			t.Errorf("the page's console does not say %q", e)
		}
	}
}

// Screenshot saves the element whose id is id as
// testdata/screenshots/NAME.png (not committed: for a person to look at).
func Screenshot(t testing.TB, tab context.Context, id, name string) {
	t.Helper()
	png, err := chromedp.Run(tab, chromedp.Screenshot(chromedp.ID(id)))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	dir := filepath.Join("testdata", "screenshots")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", path)
}
