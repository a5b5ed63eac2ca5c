// Package ctest_test builds the C library (bindings/c) with the system's C
// compiler and runs C programs against it: the example arena (main.c),
// the error paths (testdata/errors.c), the library opened with dlopen as
// C# opens it (testdata/dlopen.c), and the benchmarks' C side
// (testdata/bench.c, bench_test.go). It lives here, in a package with no
// cgo of its own, so that it can say it skips when there is no C
// compiler (then cgo, and bindings/c, cannot be built at all).
//
// It also checks, with no compiler, that the hand-written header
// bindings/c/ploy.h says what the library does: the same functions as
// the header cgo generates, the same constants as package host, and the
// same functions in the C# declarations (bindings/csharp/Ploy.cs).
package ctest_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ploy-ai/ploy/bindings/host"
	"github.com/ploy-ai/ploy/internal/testkit/buildonce"
)

// RequireCC is the environment variable that makes a missing C compiler
// a failure rather than a skip (CI sets it: .ci/run).
const RequireCC = "PLOY_REQUIRE_CC"

const root = "../../.."

// built is the library and the programs, built once per test run in a
// directory removed when it ends.
var built = buildonce.Dir{Pattern: "ploy-c-"}

func TestMain(m *testing.M) {
	code := m.Run()
	built.Remove()
	os.Exit(code)
}

// compiler is the C compiler: $CC, else cc, else gcc.
func compiler(t testing.TB) string {
	t.Helper()
	for _, cc := range []string{os.Getenv("CC"), "cc", "gcc"} {
		if cc == "" {
			continue
		}
		if path, err := exec.LookPath(cc); err == nil {
			return path
		}
	}
	if os.Getenv(RequireCC) == "1" {
		t.Fatalf("no C compiler ($CC, cc or gcc) on PATH, and %s=1: install one (apt-get install gcc)", RequireCC)
	}
	t.Skipf("no C compiler ($CC, cc or gcc) on PATH: the C library cannot be built here (set %s=1 to fail instead)", RequireCC)
	return ""
}

// build builds libploy.so (c-shared) and the C programs into one
// temporary directory, once, and returns it.
func build(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: building the C library takes a while")
	}
	cc := compiler(t)
	return built.Get(t, func(dir string) error { return buildAll(cc, dir) })
}

// goTool is the go command that built this test, else the one on PATH.
func goTool() string {
	if g := filepath.Join(runtime.GOROOT(), "bin", "go"); runtime.GOROOT() != "" {
		if _, err := os.Stat(g); err == nil {
			return g
		}
	}
	return "go"
}

func buildAll(cc, dir string) error {
	goTool := goTool()
	lib := filepath.Join(dir, "libploy.so")
	cmds := [][]string{
		{goTool, "build", "-buildmode=c-shared", "-o", lib, "./bindings/c"},
	}
	c := func(out string, src string, extra ...string) []string {
		args := []string{cc, "-std=c99", "-Wall", "-Wextra", "-Werror", "-O2", "-Ibindings/c", "-o", filepath.Join(dir, out), src,
			"-L" + dir, "-lploy", "-Wl,-rpath," + dir}
		return append(args, extra...)
	}
	cmds = append(cmds,
		c("battle", "examples/c/main.c"),
		c("errors", "bindings/c/ctest/testdata/errors.c", "-pthread"),
		c("bench", "bindings/c/ctest/testdata/bench.c"),
		c("slice", "bindings/c/ctest/testdata/slice.c", "-lm"),
		[]string{cc, "-std=c99", "-Wall", "-Wextra", "-Werror", "-o", filepath.Join(dir, "dlopen"), "bindings/c/ctest/testdata/dlopen.c", "-ldl"},
	)
	for _, args := range cmds {
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("%s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	return nil
}

// run runs a built program with args, from the repository's root, and
// returns its standard output; it fails the test if the program does.
func run(t testing.TB, name string, args ...string) string {
	t.Helper()
	dir := build(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(dir, name), args...)
	cmd.Dir = root
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\nstdout:\n%s\nstderr:\n%s", name, strings.Join(args, " "), err, stdout.Bytes(), stderr.Bytes())
	}
	if stderr.Len() > 0 {
		t.Errorf("%s wrote to stderr:\n%s", name, stderr.Bytes())
	}
	return stdout.String()
}

// TestExample runs the example arena: Kill planned at cost 7, then a
// hundred mages of the five kinds, each kind killing.
func TestExample(t *testing.T) {
	out := run(t, "battle", "domains/battlemage.yaml")
	want := `plan Kill: {"status":"found","plan":["Approach","TakeCover","Recharge","CastBolt"],"cost":7,`
	if !strings.Contains(out, want) {
		t.Errorf("no Kill at cost 7:\n%s", out)
	}
	if !regexp.MustCompile(`(?m)^100 mages, 300 frames, [1-9]\d* plans made, [1-9]\d* decisions recorded$`).MatchString(out) {
		t.Errorf("no plans or no decisions:\n%s", out)
	}
	for _, kind := range []string{"goap", "htn", "htn-break", "bt", "utility"} {
		m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(kind) + `\s+(\d+)\s+(\d+)\s+(\d+)$`).FindStringSubmatch(out)
		if m == nil {
			t.Errorf("no line for %s:\n%s", kind, out)
			continue
		}
		kills, _ := strconv.Atoi(m[1])
		actions, _ := strconv.Atoi(m[2])
		// Twenty mages for 300 frames, an enemy back 20 to 26 frames
		// after it dies: every kind kills many times.
		if kills < 20 || actions < kills {
			t.Errorf("%s: %d kills, %d actions:\n%s", kind, kills, actions, out)
		}
	}
	if !strings.HasSuffix(out, "\nok\n") {
		t.Errorf("the example did not say ok:\n%s", out)
	}
	// The same run twice is the same run: deterministic.
	if again := run(t, "battle", "domains/battlemage.yaml"); again != out {
		t.Errorf("a second run differs:\n%s\nthen\n%s", out, again)
	}
}

// TestExampleFails: the example exits non-zero when something fails, here
// a file with no such kinds.
func TestExampleFails(t *testing.T) {
	dir := build(t)
	cmd := exec.Command(filepath.Join(dir, "battle"), "domains/survivor.yaml")
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("the example ran on the survivor's file:\n%s", out)
	}
	if !strings.Contains(string(out), "domains/survivor.yaml") {
		t.Errorf("the example's error does not name the file:\n%s", out)
	}
}

// TestErrorPaths runs testdata/errors.c: bad and released handles, NULL
// arguments, an unknown kind, buffers too small, messages freed, the
// last error per thread, a survivor's walk (positions, targets and
// destinations), many threads on one world.
func TestErrorPaths(t *testing.T) {
	if out := run(t, "errors", "domains/battlemage.yaml", "domains/survivor.yaml"); out != "ok\n" {
		t.Errorf("errors: %s", out)
	}
}

// TestSlicedWorld runs testdata/slice.c with slices of 1 and 2 chain
// expansions: a camp of survivors sliced through ploy_world_set_slice
// makes the same plans as a whole one, later; no frame expands more than
// ploy_world_frame_stats allows; bad slices and handles fail with the
// thread's last error.
func TestSlicedWorld(t *testing.T) {
	for _, slice := range []string{"1", "2"} {
		out := run(t, "slice", "domains/survivor.yaml", slice)
		if !strings.HasPrefix(out, "slice "+slice+": ") || !strings.HasSuffix(out, "\nok\n") {
			t.Errorf("slice %s: %s", slice, out)
		}
		t.Logf("%s", strings.TrimSuffix(out, "ok\n"))
	}
}

// TestDlopen opens the library at run time, as C# and the engines do.
func TestDlopen(t *testing.T) {
	dir := build(t)
	out := run(t, "dlopen", filepath.Join(dir, "libploy.so"), "domains/battlemage.yaml")
	if !strings.Contains(out, `"cost":7`) || !strings.HasSuffix(out, "ok\n") {
		t.Errorf("dlopen: %s", out)
	}
}

// TestStaticArchive builds libploy.a (c-archive) and links the example
// against it statically.
func TestStaticArchive(t *testing.T) {
	dir := build(t)
	cc := compiler(t)
	lib := filepath.Join(dir, "libploy.a")
	for _, args := range [][]string{
		{goTool(), "build", "-buildmode=c-archive", "-o", lib, "./bindings/c"},
		{cc, "-std=c99", "-O2", "-Ibindings/c", "-o", filepath.Join(dir, "battle-static"), "examples/c/main.c", lib, "-lpthread", "-lm"},
	} {
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	if out := run(t, "battle-static", "domains/battlemage.yaml"); !strings.Contains(out, `"cost":7`) || !strings.HasSuffix(out, "\nok\n") {
		t.Errorf("the static example: %s", out)
	}
}

// A declaration of ploy.h, or of the header cgo writes: a function's
// name, its result and parameter types, in a form both headers share.
type decl struct {
	name   string
	result string
	params []string
}

var declRE = regexp.MustCompile(`(?s)^(?:extern\s+)?([A-Za-z_][\w\s\*]*?)\s*\b(ploy_\w+)\s*\(([^)]*)\)$`)

// declarations parses the function declarations of a C header: its
// comments dropped, each type with const dropped (the ABI is the same)
// and the handles' typedefs spelled as uint64_t.
func declarations(t *testing.T, header string) map[string]decl {
	t.Helper()
	header = regexp.MustCompile(`(?s)/\*.*?\*/|//[^\n]*|(?m)^#[^\n]*`).ReplaceAllString(header, "")
	norm := func(s string) string {
		s = regexp.MustCompile(`\bconst\b`).ReplaceAllString(s, "")
		s = regexp.MustCompile(`\bploy_(domain|world|agent)\b`).ReplaceAllString(s, "uint64_t")
		s = strings.ReplaceAll(s, "long long int", "long long")
		s = strings.ReplaceAll(s, "*", " * ")
		return strings.Join(strings.Fields(s), " ")
	}
	out := map[string]decl{}
	for _, stmt := range strings.Split(header, ";") {
		// A statement after a block's brace starts after it.
		stmt = strings.TrimSpace(stmt[strings.LastIndexAny(stmt, "{}")+1:])
		m := declRE.FindStringSubmatch(stmt)
		if m == nil {
			continue
		}
		d := decl{name: m[2], result: norm(m[1])}
		if p := strings.TrimSpace(m[3]); p != "void" && p != "" {
			for _, param := range strings.Split(p, ",") {
				// The type is all but the last word, the name.
				fields := strings.Fields(norm(param))
				d.params = append(d.params, strings.Join(fields[:len(fields)-1], " "))
			}
		}
		if _, twice := out[d.name]; twice {
			t.Errorf("%s is declared twice", d.name)
		}
		out[d.name] = d
	}
	return out
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, path))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestHeaderMatchesLibrary: ploy.h declares exactly the functions the
// library exports, with the same types (const aside), as the header cgo
// writes beside libploy.so says.
func TestHeaderMatchesLibrary(t *testing.T) {
	dir := build(t)
	generated, err := os.ReadFile(filepath.Join(dir, "libploy.h"))
	if err != nil {
		t.Fatal(err)
	}
	want := declarations(t, string(generated))
	got := declarations(t, readFile(t, "bindings/c/ploy.h"))
	if len(want) < 20 {
		t.Fatalf("only %d functions in cgo's header: the parser is wrong", len(want))
	}
	for name, w := range want {
		g, ok := got[name]
		switch {
		case !ok:
			t.Errorf("ploy.h does not declare %s", name)
		case g.result != w.result || !slices.Equal(g.params, w.params):
			t.Errorf("ploy.h: %s %s(%s); the library: %s %s(%s)", g.result, name, strings.Join(g.params, ", "), w.result, name, strings.Join(w.params, ", "))
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("ploy.h declares %s, which the library does not export", name)
		}
	}
}

// TestHeaderContracts: the signatures, kept exactly, and the
// header's constants are package host's.
func TestHeaderContracts(t *testing.T) {
	h := readFile(t, "bindings/c/ploy.h")
	flat := strings.Join(strings.Fields(regexp.MustCompile(`(?s)/\*.*?\*/`).ReplaceAllString(h, "")), " ")
	for _, sig := range []string{
		"ploy_domain ploy_load(const char *source, size_t len, const char *name, char **error);",
		"char *ploy_call(ploy_domain d, const char *method, const char *request_json);",
		"void ploy_release(uint64_t handle);",
		"void ploy_free(void *p);",
		"const char *ploy_version(void);",
		"ploy_world ploy_world_new(ploy_domain d, int workers);",
		"ploy_agent ploy_agent_new(ploy_world w, const char *kind, const char *name, char **error);",
		"int ploy_agent_set(ploy_agent a, const char *fact_or_key, double value);",
		"int ploy_world_frame(ploy_world w);",
		"int ploy_agent_action(ploy_agent a, char *buf, size_t n);",
		"int ploy_agent_report(ploy_agent a, int status);",
		"typedef uint64_t ploy_domain;", "typedef uint64_t ploy_world;", "typedef uint64_t ploy_agent;",
	} {
		if !strings.Contains(flat, sig) {
			t.Errorf("ploy.h does not declare %s", sig)
		}
	}
	constants := map[string]int{
		"PLOY_RUNNING": host.Running, "PLOY_SUCCESS": host.Success, "PLOY_FAILURE": host.Failure,
		"PLOY_IDLE": int(host.Idle), "PLOY_ACTING": int(host.Acting), "PLOY_WALKING": int(host.Walking),
	}
	for name, want := range constants {
		m := regexp.MustCompile(`(?m)^#define ` + name + ` (\d+)\b`).FindStringSubmatch(h)
		if m == nil {
			t.Errorf("ploy.h does not define %s", name)
			continue
		}
		if got, _ := strconv.Atoi(m[1]); got != want {
			t.Errorf("ploy.h: %s is %d, package host's is %d", name, got, want)
		}
	}
}

// csharpDecl is a [DllImport] declaration of Ploy.cs: a name and its
// parameters' count.
var csharpRE = regexp.MustCompile(`(?s)\[DllImport\([^\]]*\)\]\s*(?:\[[^\]]*\]\s*)*(?:public|internal)\s+static\s+extern\s+[\w\[\]]+\s+(ploy_\w+)\s*\(([^)]*)\)\s*;`)

// TestCSharpMatchesHeader: bindings/csharp/Ploy.cs declares every
// function of ploy.h, with as many parameters, and no other.
func TestCSharpMatchesHeader(t *testing.T) {
	header := declarations(t, readFile(t, "bindings/c/ploy.h"))
	cs := readFile(t, "bindings/csharp/Ploy.cs")
	got := map[string]int{}
	for _, m := range csharpRE.FindAllStringSubmatch(cs, -1) {
		n := 0
		if p := strings.TrimSpace(m[2]); p != "" {
			n = len(strings.Split(p, ","))
		}
		got[m[1]] = n
	}
	for name, d := range header {
		n, ok := got[name]
		switch {
		case !ok:
			t.Errorf("Ploy.cs does not declare %s", name)
		case n != len(d.params):
			t.Errorf("Ploy.cs: %s has %d parameters, ploy.h %d", name, n, len(d.params))
		}
	}
	for name := range got {
		if _, ok := header[name]; !ok {
			t.Errorf("Ploy.cs declares %s, which ploy.h does not", name)
		}
	}
	if len(header) < 20 {
		t.Fatalf("only %d functions in ploy.h: the parser is wrong", len(header))
	}
}

// TestCSharpUnderMono compiles Ploy.cs and bindings/csharp/test with
// Mono's C# compiler and runs the program against libploy.so, where Mono
// is installed (Debian's mono-mcs; Unity's scripting runtime is Mono).
// There is no .NET SDK in Debian: bindings/csharp/README.md says so.
func TestCSharpUnderMono(t *testing.T) {
	mcs, errMCS := exec.LookPath("mcs")
	mono, errMono := exec.LookPath("mono")
	if errMCS != nil || errMono != nil {
		t.Skip("no Mono (mcs and mono): Ploy.cs is only checked against ploy.h (TestCSharpMatchesHeader); apt-get install mono-mcs runs it")
	}
	dir := build(t)
	exe := filepath.Join(dir, "PloyTest.exe")
	cmd := exec.Command(mcs, "-out:"+exe, "bindings/csharp/Ploy.cs", "bindings/csharp/test/PloyTest.cs")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("mcs: %v\n%s", err, out)
	}
	cmd = exec.Command(mono, exe, "domains/battlemage.yaml", "domains/survivor.yaml")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "LD_LIBRARY_PATH="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), `"cost":7`) || !strings.Contains(string(out), "\nsliced: ") || !strings.HasSuffix(string(out), "\nok\n") {
		t.Fatalf("mono PloyTest.exe: %v\n%s", err, out)
	}
	t.Logf("%s", out)
}
