package cli_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/cmd/ploy/cli"
)

// runPloy runs ploy with args and returns its status, stdout and stderr.
func runPloy(args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	st := cli.Main(args, nil, &stdout, &stderr)
	return st, stdout.String(), stderr.String()
}

// fakeWasm writes a file that passes for ploy.wasm (the magic number and
// the site's function's name), with a wasm_exec.js beside it, and
// returns its path.
func fakeWasm(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	wasm := filepath.Join(dir, "ploy.wasm")
	if err := os.WriteFile(wasm, []byte("\x00asm\x01\x00\x00\x00 ... siteStream ..."), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "wasm_exec.js"), []byte("// Go's wasm_exec.js\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return wasm
}

// TestSiteRefuses checks ploy site's refusals: each with its status and
// message, and nothing written.
func TestSiteRefuses(t *testing.T) {
	tmp := t.TempDir()
	file := filepath.Join(tmp, "afile")
	full := filepath.Join(tmp, "full")
	notWasm := filepath.Join(tmp, "notes.txt")
	noSite := filepath.Join(tmp, "other.wasm")
	for name, body := range map[string]string{file: "x", filepath.Join(full, "keep.txt"): "mine", notWasm: "hello", noSite: "\x00asm\x01\x00\x00\x00 a module"} {
		os.MkdirAll(filepath.Dir(name), 0o755)
		if err := os.WriteFile(name, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bare := filepath.Join(tmp, "bare") // a wasm with no wasm_exec.js beside it
	os.MkdirAll(bare, 0o755)
	os.WriteFile(filepath.Join(bare, "ploy.wasm"), []byte("\x00asm siteStream"), 0o644)
	out := filepath.Join(tmp, "out")
	for _, c := range []struct {
		name   string
		args   []string
		noGo   bool
		status int
		stderr string
	}{
		{"no directory", []string{"site"}, false, 2, `ploy site: name the directory to write the site into: ploy site DIR\nrun 'ploy site --help' for usage`},
		{"an empty name", []string{"site", ""}, false, 2, `ploy site: name the directory to write the site into: ploy site DIR \(an empty name is none\)\nrun 'ploy site --help' for usage`},
		{"two directories", []string{"site", out, "more"}, false, 2, `ploy site: one directory, got 2: \S+/out more`},
		{"unknown flag", []string{"site", out, "--wsam", "x"}, false, 2, `flag provided but not defined: -wsam`},
		{"a file", []string{"site", file, "--wasm", fakeWasm(t)}, false, 1, `^ploy site: \S+/afile: not a directory\n$`},
		{"not empty", []string{"site", full, "--wasm", fakeWasm(t)}, false, 1, `^ploy site: \S+/full is not empty \(1 entries\): name a new or empty directory, or give --force to write the site's files into it\n$`},
		{"missing wasm", []string{"site", out, "--wasm", filepath.Join(tmp, "nope.wasm")}, false, 1, `^ploy site: --wasm \S+/nope.wasm: no such file or directory\n$`},
		{"wasm a directory", []string{"site", out, "--wasm", bare}, false, 1, `^ploy site: --wasm \S+/bare: a directory, not a ploy.wasm\n$`},
		{"not wasm", []string{"site", out, "--wasm", notWasm}, false, 1, `--wasm \S+/notes.txt: not a WebAssembly module \(it does not start with \\0asm\)`},
		{"another program", []string{"site", out, "--wasm", noSite}, false, 1, `--wasm \S+/other.wasm: a WebAssembly module without the site's functions \(siteStream\)`},
		{"no wasm_exec.js", []string{"site", out, "--wasm", filepath.Join(bare, "ploy.wasm")}, true, 1, `no wasm_exec.js beside the --wasm file, nor a go toolchain on the PATH to take it from: copy .*wasm_exec.js, into \S+/bare`},
		{"no go", []string{"site", out}, true, 1, `no go toolchain on the PATH to build ploy.wasm with: install Go .* or give --wasm FILE`},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.noGo {
				defer cli.UseGoCommand("ploy-test-no-such-go")()
			}
			st, stdout, stderr := runPloy(c.args...)
			if st != c.status || !regexp.MustCompile(c.stderr).MatchString(stderr) || stdout != "" {
				t.Errorf("ploy %s: status %d, stdout %q, stderr %q; want %d and stderr matching %q", strings.Join(c.args, " "), st, stdout, stderr, c.status, c.stderr)
			}
		})
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("a refused ploy site made %s", out)
	}
	if entries, _ := os.ReadDir(full); len(entries) != 1 {
		t.Errorf("a refused ploy site wrote into the full directory: %d entries", len(entries))
	}
}

// TestSiteWrites writes a site with --wasm: every file the page loads,
// by a relative address, the wasm copied as it is; --force writes into a
// directory that has files, leaving them.
func TestSiteWrites(t *testing.T) {
	wasm := fakeWasm(t)
	dir := filepath.Join(t.TempDir(), "public")
	st, stdout, stderr := runPloy("site", dir, "--wasm", wasm)
	if st != 0 || stderr != "" || !strings.Contains(stdout, "python3 -m http.server") {
		t.Fatalf("ploy site: %d, stdout %q, stderr %q", st, stdout, stderr)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("ploy site: wrote %d files, ", len(entries)); !strings.HasPrefix(stdout, want) || len(entries) < 17 {
		t.Errorf("ploy site says %q; the directory has %d files (want 17 or more: the page, 13 assets, site.js, ploy.wasm, wasm_exec.js)", stdout, len(entries))
	}
	page, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	refs := regexp.MustCompile(`(?:src|href)="([^"#]*)"`).FindAllStringSubmatch(string(page), -1)
	var loaded []string
	for _, m := range refs {
		ref := m[1]
		if strings.HasPrefix(ref, "/") || strings.Contains(ref, "://") {
			t.Errorf("index.html loads %q: not a relative address", ref)
			continue
		}
		loaded = append(loaded, ref)
		if _, err := os.Stat(filepath.Join(dir, ref)); err != nil {
			t.Errorf("index.html loads %q, which the site lacks: %v", ref, err)
		}
	}
	scripts := regexp.MustCompile(`<script src="([^"]+)" defer></script>`).FindAllStringSubmatch(string(page), -1)
	if len(scripts) < 3 || scripts[0][1] != "wasm_exec.js" || scripts[1][1] != "site.js" || scripts[2][1] != "common.js" {
		t.Errorf("the site's scripts %q: want wasm_exec.js, site.js, then common.js first of the figures'", scripts)
	}
	if !strings.Contains(string(page), `http-equiv="Content-Security-Policy"`) || !strings.Contains(string(page), "wasm-unsafe-eval") {
		t.Errorf("index.html has no Content-Security-Policy that lets it run ploy.wasm")
	}
	for _, name := range []string{"ploy.wasm", "wasm_exec.js"} {
		got, _ := os.ReadFile(filepath.Join(dir, name))
		want, _ := os.ReadFile(filepath.Join(filepath.Dir(wasm), name))
		if !bytes.Equal(got, want) {
			t.Errorf("%s: %q, want the --wasm file's %q", name, got, want)
		}
	}
	// --force: the site again, into a directory with a file of its own.
	if err := os.WriteFile(filepath.Join(dir, "CNAME"), []byte("figures.example\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if st, _, stderr := runPloy("site", dir, "--wasm", wasm); st != 1 || !strings.Contains(stderr, "is not empty") {
		t.Errorf("ploy site into the site again, without --force: %d %q; want 1, not empty", st, stderr)
	}
	if st, _, stderr := runPloy("site", dir, "--wasm", wasm, "--force"); st != 0 {
		t.Errorf("ploy site --force: %d %q", st, stderr)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "CNAME")); err != nil || string(b) != "figures.example\n" {
		t.Errorf("ploy site --force changed a file not its own: %q, %v", b, err)
	}
}

// TestSiteHelp checks the command is listed and its help names its flags.
func TestSiteHelp(t *testing.T) {
	st, stdout, _ := runPloy("site", "--help")
	if st != 0 || !strings.HasPrefix(stdout, "Usage: ploy site DIR [flags]") || !strings.Contains(stdout, "-wasm") || !strings.Contains(stdout, "-force") {
		t.Errorf("ploy site --help: %d %q", st, stdout)
	}
	if _, stdout, _ := runPloy("help"); !strings.Contains(stdout, "  site ") {
		t.Errorf("ploy help does not list site:\n%s", stdout)
	}
}

// TestSiteLeavesNothingHalfWritten: ploy site --force into a directory
// where a file of the site's is a directory fails before it writes
// anything (the page's other files not replaced by half), and a file of
// the site's that is a symbolic link is replaced, the file it points to
// left alone.
func TestSiteLeavesNothingHalfWritten(t *testing.T) {
	wasm := fakeWasm(t)
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "public")
	if err := os.MkdirAll(filepath.Join(dir, "wasm_exec.js"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "wasm_exec.js", "keep"), []byte("mine"), 0o644)
	os.WriteFile(filepath.Join(dir, "index.html"), []byte("the old page"), 0o644)
	st, stdout, stderr := runPloy("site", dir, "--wasm", wasm, "--force")
	if st != 1 || stdout != "" || !strings.Contains(stderr, "wasm_exec.js is a directory") {
		t.Errorf("ploy site --force over a directory named wasm_exec.js: %d, stdout %q, stderr %q", st, stdout, stderr)
	}
	entries, _ := os.ReadDir(dir)
	if page, _ := os.ReadFile(filepath.Join(dir, "index.html")); len(entries) != 2 || string(page) != "the old page" {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("a failed ploy site left %q, index.html %.40q: want the two entries as they were", names, page)
	}

	outside := filepath.Join(tmp, "outside.html")
	os.WriteFile(outside, []byte("not the site's"), 0o644)
	linked := filepath.Join(tmp, "linked")
	os.MkdirAll(linked, 0o755)
	if err := os.Symlink(outside, filepath.Join(linked, "index.html")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if st, _, stderr := runPloy("site", linked, "--wasm", wasm, "--force"); st != 0 {
		t.Fatalf("ploy site --force over a link: %d %q", st, stderr)
	}
	if b, _ := os.ReadFile(outside); string(b) != "not the site's" {
		t.Errorf("ploy site wrote through the link index.html into %s: %.40q", outside, b)
	}
	if info, err := os.Lstat(filepath.Join(linked, "index.html")); err != nil || !info.Mode().IsRegular() || info.Mode().Perm() != 0o644 {
		t.Errorf("index.html after ploy site over a link: %v %v, want a regular file, mode 0644", info.Mode(), err)
	}
}
