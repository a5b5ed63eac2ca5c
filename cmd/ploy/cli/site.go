package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/ploy-ai/ploy/viewer"
)

// wasmPackage is the WebAssembly program `ploy site` builds.
const wasmPackage = "github.com/ploy-ai/ploy/bindings/wasm"

// Bounds of what ploy site reads and writes. ploy.wasm is about 24 MB
// (docs/viewer.md); a file four times that is no build of ploy.
const (
	maxSiteWasm     = 100 << 20
	maxSiteWasmExec = 1 << 20
	// siteBuildTime bounds the build: a cold build takes under a minute
	// on a slow machine.
	siteBuildTime = 10 * time.Minute
)

// goCommand is the go toolchain ploy site builds with; a test names one
// that is not there.
var goCommand = "go"

func runSite(e *env, args []string) int {
	var wasmFile string
	var force bool
	fset := flagSet(e, "site", "DIR [flags]",
		"Write the web app's figures (ploy serve's page, docs/viewer.md) into DIR as a\n"+
			"static site that plans in the browser: index.html, its scripts and styles,\n"+
			"ploy.wasm (ploy built for WebAssembly, which answers the page's API\n"+
			"requests in the page) and Go's wasm_exec.js that runs it. No server: put DIR\n"+
			"on any static host, or serve it with one, such as python3 -m http.server\n"+
			"(a browser does not load WebAssembly into a page opened from a file).\n\n"+
			"ploy.wasm is built with the go toolchain on the PATH, from the ploy module of\n"+
			"the current directory (GOOS=js GOARCH=wasm go build "+wasmPackage+"),\n"+
			"and wasm_exec.js comes from that Go; or give --wasm FILE, a build made\n"+
			"already, with the wasm_exec.js of the Go that built it beside it.\n\n"+
			"DIR must be new or empty, unless --force.",
		`  ploy site public
  ploy site public --wasm build/ploy.wasm
  cd public && python3 -m http.server   # then open http://127.0.0.1:8000/
`)
	fset.StringVar(&wasmFile, "wasm", "", "copy this ploy.wasm (GOOS=js GOARCH=wasm go build "+wasmPackage+") instead of building one; wasm_exec.js is taken from beside it, else from the go toolchain's GOROOT")
	fset.BoolVar(&force, "force", false, "write into DIR even if it is not empty: the site's files are replaced, the others left")
	positional, st := parse(e, fset, args)
	if st >= 0 {
		return st
	}
	switch len(positional) {
	case 0:
		return usageErr(e, fset, "name the directory to write the site into: ploy site DIR")
	case 1:
		if positional[0] == "" {
			return usageErr(e, fset, "name the directory to write the site into: ploy site DIR (an empty name is none)")
		}
	default:
		return usageErr(e, fset, "one directory, got %d: %s", len(positional), strings.Join(positional, " "))
	}
	dir := positional[0]
	fail := func(format string, args ...any) int {
		fmt.Fprintf(e.stderr, "ploy site: "+format+"\n", args...)
		return exitInvalid
	}
	if info, err := os.Stat(dir); err == nil {
		if !info.IsDir() {
			return fail("%s: not a directory", dir)
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			return fail("%s", errorText(err))
		}
		if len(entries) > 0 && !force {
			return fail("%s is not empty (%d entries): name a new or empty directory, or give --force to write the site's files into it", dir, len(entries))
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fail("%s", errorText(err))
	}

	srv, err := viewer.New(viewer.Config{})
	if err != nil {
		return fail("%s", errorText(err))
	}
	files, err := srv.Site()
	if err != nil {
		return fail("%s", errorText(err))
	}
	// Refused now rather than after the build: a name of the site's that
	// DIR holds as a directory (--force).
	for _, name := range append(siteNames(files), "ploy.wasm", "wasm_exec.js") {
		if info, err := os.Lstat(filepath.Join(dir, name)); err == nil && info.IsDir() {
			return fail("%s is a directory: ploy site writes a file of that name there; move it away", filepath.Join(dir, name))
		}
	}
	var wasm, wasmExec []byte
	if wasmFile != "" {
		if wasm, err = readWasm(wasmFile); err != nil {
			return fail("%s", err)
		}
		wasmExec, err = findWasmExec(filepath.Dir(wasmFile))
	} else {
		fmt.Fprintf(e.stderr, "ploy site: building ploy.wasm (GOOS=js GOARCH=wasm %s build %s)…\n", goCommand, wasmPackage)
		wasm, err = buildWasm()
		if err == nil {
			wasmExec, err = findWasmExec("")
		}
	}
	if err != nil {
		return fail("%s", err)
	}
	files = append(files, viewer.SiteFile{Name: "ploy.wasm", Body: wasm}, viewer.SiteFile{Name: "wasm_exec.js", Body: wasmExec})

	if err := writeSite(dir, files); err != nil {
		return fail("%s", err)
	}
	total := 0
	for _, f := range files {
		total += len(f.Body)
	}
	fmt.Fprintf(e.stdout, "ploy site: wrote %d files, %.1f MB (ploy.wasm %.1f MB), into %s\n", len(files), float64(total)/1e6, float64(len(wasm))/1e6, dir)
	fmt.Fprintf(e.stdout, "serve it with any static server, such as: cd %s && python3 -m http.server   # then open http://127.0.0.1:8000/\n", shellQuote(dir))
	return exitOK
}

func siteNames(files []viewer.SiteFile) []string {
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = f.Name
	}
	return names
}

// writeSite writes files into dir, made if it is not there. Every file
// is written beside its place under a temporary name first, and renamed
// into place once all are written: a failure on the way (a full disk, a
// name taken by a directory) leaves no site half old and half new, and
// removes a dir it made. A rename replaces a symbolic link of the site's
// name rather than writing through it, outside dir.
func writeSite(dir string, files []viewer.SiteFile) (err error) {
	_, statErr := os.Stat(dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return errors.New(errorText(err))
	}
	var temps []string
	defer func() {
		if err == nil {
			return
		}
		for _, t := range temps {
			os.Remove(t)
		}
		if statErr != nil {
			os.Remove(dir) // made here, and empty again
		}
	}()
	for _, f := range files {
		t, err := os.CreateTemp(dir, ".ploy-site-*.tmp")
		if err != nil {
			return errors.New(errorText(err))
		}
		temps = append(temps, t.Name())
		_, err = t.Write(f.Body)
		if cerr := t.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = os.Chmod(t.Name(), 0o644)
		}
		if err != nil {
			return fmt.Errorf("%s: %s", filepath.Join(dir, f.Name), errorText(err))
		}
	}
	for i, f := range files {
		if err := os.Rename(temps[i], filepath.Join(dir, f.Name)); err != nil {
			temps = temps[i:]
			return fmt.Errorf("%s (%d of the site's %d files were written before it)", errorText(err), i, len(files))
		}
	}
	return nil
}

// readWasm reads --wasm's file: a WebAssembly module, at most maxSiteWasm
// bytes, that has the site's functions (their names are strings in it).
func readWasm(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("--wasm %s: %v", name, err)
	}
	defer f.Close()
	if info, err := f.Stat(); err == nil && info.IsDir() {
		return nil, fmt.Errorf("--wasm %s: a directory, not a ploy.wasm", name)
	}
	b, err := io.ReadAll(io.LimitReader(f, maxSiteWasm+1))
	if err != nil {
		return nil, fmt.Errorf("--wasm %s: %s", name, errorText(err))
	}
	if len(b) > maxSiteWasm {
		return nil, fmt.Errorf("--wasm %s: longer than %d bytes, too long for ploy.wasm", name, maxSiteWasm)
	}
	if err := checkWasm(b); err != nil {
		return nil, fmt.Errorf("--wasm %s: %v", name, err)
	}
	return b, nil
}

// checkWasm says whether b is a WebAssembly module with the site's
// functions in it: built from bindings/wasm of a ploy that has them.
func checkWasm(b []byte) error {
	if !bytes.HasPrefix(b, []byte("\x00asm")) {
		return errors.New("not a WebAssembly module (it does not start with \\0asm)")
	}
	if !bytes.Contains(b, []byte("siteStream")) {
		return fmt.Errorf("a WebAssembly module without the site's functions (siteStream): build ploy.wasm from %s of this version of ploy", wasmPackage)
	}
	return nil
}

// buildWasm builds ploy.wasm with the go toolchain, in the current
// directory's module, and returns it.
func buildWasm() ([]byte, error) {
	how := fmt.Sprintf("give --wasm FILE, a ploy.wasm built with GOOS=js GOARCH=wasm go build -o ploy.wasm %s in a checkout of ploy", wasmPackage)
	goBin, err := exec.LookPath(goCommand)
	if err != nil {
		return nil, fmt.Errorf("no go toolchain on the PATH to build ploy.wasm with: install Go (https://go.dev/dl/) and run ploy site in a checkout of ploy, or %s", how)
	}
	tmp, err := os.MkdirTemp("", "ploy-site-")
	if err != nil {
		return nil, errors.New(errorText(err))
	}
	defer os.RemoveAll(tmp)
	out := filepath.Join(tmp, "ploy.wasm")
	ctx, cancel := context.WithTimeout(context.Background(), siteBuildTime)
	defer cancel()
	cmd := exec.CommandContext(ctx, goBin, "build", "-trimpath", "-o", out, wasmPackage)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	var stderr bytes.Buffer
	cmd.Stderr = &limitedBuffer{max: 4 << 10, buf: &stderr}
	if err := cmd.Run(); err != nil {
		why := strings.TrimSpace(stderr.String())
		if why == "" {
			why = err.Error()
		}
		return nil, fmt.Errorf("cannot build ploy.wasm here: %s\n(the build needs ploy's module: run ploy site in a checkout of ploy, or %s)", why, how)
	}
	b, err := readWasm(out)
	if err != nil {
		return nil, fmt.Errorf("the build of ploy.wasm: %v", err)
	}
	return b, nil
}

// findWasmExec returns Go's wasm_exec.js: from dir when it has one (beside
// a --wasm file), else from the go toolchain's GOROOT (lib/wasm since Go
// 1.24, misc/wasm before).
func findWasmExec(dir string) ([]byte, error) {
	var tried []string
	if dir != "" {
		tried = append(tried, filepath.Join(dir, "wasm_exec.js"))
	}
	if goBin, err := exec.LookPath(goCommand); err == nil {
		if out, err := exec.Command(goBin, "env", "GOROOT").Output(); err == nil && len(out) > 0 {
			root := strings.TrimSpace(string(out))
			tried = append(tried, filepath.Join(root, "lib", "wasm", "wasm_exec.js"), filepath.Join(root, "misc", "wasm", "wasm_exec.js"))
		}
	}
	for _, name := range tried {
		f, err := os.Open(name)
		if err != nil {
			continue
		}
		b, err := io.ReadAll(io.LimitReader(f, maxSiteWasmExec+1))
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %s", name, errorText(err))
		}
		if len(b) > maxSiteWasmExec {
			return nil, fmt.Errorf("%s: longer than %d bytes, not Go's wasm_exec.js", name, maxSiteWasmExec)
		}
		return b, nil
	}
	if dir != "" {
		return nil, fmt.Errorf("no wasm_exec.js beside the --wasm file, nor a go toolchain on the PATH to take it from: copy the one of the Go that built the file, $(go env GOROOT)/lib/wasm/wasm_exec.js, into %s", dir)
	}
	return nil, fmt.Errorf("no wasm_exec.js in the go toolchain's GOROOT (tried %s)", strings.Join(tried, ", "))
}

// shellQuote quotes s for a POSIX shell, when it needs quoting.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._/-+=:,") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// limitedBuffer keeps the first max bytes written to it and drops the
// rest: a build's errors, said to the user, are bounded.
type limitedBuffer struct {
	max int
	buf *bytes.Buffer
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if room := l.max - l.buf.Len(); room > 0 {
		l.buf.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}
