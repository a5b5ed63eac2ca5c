// Command mutate is a small mutation tester for one package of this
// module: it plants one bug at a time (a comparison flipped or its
// boundary moved, + and - swapped, && and || swapped, ++ and -- swapped,
// an integer constant off by one, an `if err != nil` check removed) in a
// copy of the module, runs the package's tests, and reports whether they
// failed (killed), passed (lived), ran past the timeout (timed out) or did
// not build (not viable). It is not part of the ploy command.
//
// It exists beside gremlins (docs/testing.md) because it keeps one copy of
// the module at a fixed path, so that the build cache serves every package
// but the mutated one, and because it samples: a package whose tests take
// a minute can be measured on a random subset of its mutants.
//
//	go run ./tools/mutate -pkg ./resolver -sample 100 -seed 1 -- -short
//
// -at re-runs chosen mutants, such as the survivors of a run, by their
// FILE:LINE:COL.
//
// Arguments after -- go to `go test`. Mutants are listed in source order,
// shuffled by -seed, and the first -sample of them run (all when 0).
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// mutant is one edit of one file: the bytes [off, off+len(old)) become new.
type mutant struct {
	file     string // relative to the module root
	off      int
	old, new string
	line     int
	col      int
	kind     string
}

func main() {
	pkg := flag.String("pkg", "", "the package to mutate, as a directory relative to the module root (./resolver)")
	sample := flag.Int("sample", 0, "run a random sample of this many mutants (0: all)")
	seed := flag.Uint64("seed", 1, "the sample's seed")
	timeout := flag.Duration("timeout", 3*time.Minute, "per mutant: longer is a timed-out mutant")
	files := flag.String("files", "", "mutate only files whose name matches this regexp")
	at := flag.String("at", "", "run only the mutants whose FILE:LINE:COL matches this regexp (to re-check survivors)")
	work := flag.String("work", filepath.Join(os.TempDir(), "ploy-mutate"), "where the module's copy is kept between runs")
	flag.Parse()
	if *pkg == "" {
		fmt.Fprintln(os.Stderr, "usage: mutate -pkg ./DIR [-sample N] [-seed S] [-files RE] [-- go test flags]")
		os.Exit(2)
	}
	root, err := moduleRoot()
	if err != nil {
		fail(err)
	}
	var only *regexp.Regexp
	if *files != "" {
		if only, err = regexp.Compile(*files); err != nil {
			fail(err)
		}
	}
	ms, err := mutants(root, *pkg, only)
	if err != nil {
		fail(err)
	}
	if *at != "" {
		re, err := regexp.Compile(*at)
		if err != nil {
			fail(err)
		}
		var keep []mutant
		for _, m := range ms {
			if re.MatchString(fmt.Sprintf("%s:%d:%d", m.file, m.line, m.col)) {
				keep = append(keep, m)
			}
		}
		ms = keep
	}
	total := len(ms)
	if *sample > 0 && *sample < len(ms) {
		r := rand.New(rand.NewPCG(*seed, 0x6d757461))
		r.Shuffle(len(ms), func(i, j int) { ms[i], ms[j] = ms[j], ms[i] })
		ms = ms[:*sample]
		sort.SliceStable(ms, func(i, j int) bool {
			if ms[i].file != ms[j].file {
				return ms[i].file < ms[j].file
			}
			return ms[i].off < ms[j].off
		})
	}
	if err := syncCopy(root, *work); err != nil {
		fail(err)
	}
	fmt.Printf("%s: %d mutants, running %d\n", *pkg, total, len(ms))
	counts := map[string]int{}
	for _, m := range ms {
		st := run(*work, *pkg, m, *timeout, flag.Args())
		counts[st]++
		fmt.Printf("%-11s %s:%d:%d %s: %q → %q\n", st, m.file, m.line, m.col, m.kind, m.old, m.new)
	}
	killed := counts["killed"] + counts["timed out"]
	fmt.Printf("killed %d (%d by timeout), lived %d, not viable %d", killed, counts["timed out"], counts["lived"], counts["not viable"])
	if killed+counts["lived"] > 0 {
		fmt.Printf(", efficacy %.1f%%", 100*float64(killed)/float64(killed+counts["lived"]))
	}
	fmt.Println()
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "mutate:", err)
	os.Exit(1)
}

func moduleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", err
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		return "", errors.New("not inside a module")
	}
	return filepath.Dir(gomod), nil
}

// syncCopy makes work a copy of the module's Go sources and data, leaving
// files whose contents have not changed untouched, so that their build
// cache entries stay valid.
func syncCopy(root, work string) error {
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			if d.Name() == ".git" || d.Name() == "node_modules" {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(work, rel), 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		dst := filepath.Join(work, rel)
		if old, err := os.ReadFile(dst); err == nil && bytes.Equal(old, src) {
			return nil
		}
		return os.WriteFile(dst, src, 0o644)
	})
}

// mutants lists every mutant of the package's non-test files.
func mutants(root, pkg string, only *regexp.Regexp) ([]mutant, error) {
	dir := filepath.Join(root, pkg)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []mutant
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") || (only != nil && !only.MatchString(name)) {
			continue
		}
		rel := filepath.Join(pkg, name)
		src, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			return nil, err
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, rel, src, 0)
		if err != nil {
			return nil, err
		}
		add := func(pos token.Pos, old, new, kind string) {
			p := fset.Position(pos)
			if string(src[p.Offset:p.Offset+len(old)]) != old {
				return // not where the AST says: leave it
			}
			out = append(out, mutant{file: rel, off: p.Offset, old: old, new: new, line: p.Line, col: p.Column, kind: kind})
		}
		flips := map[token.Token][]string{
			token.LSS: {"<=", ">="}, token.LEQ: {"<", ">"}, token.GTR: {">=", "<="}, token.GEQ: {">", "<"},
			token.EQL: {"!="}, token.NEQ: {"=="},
			token.ADD: {"-"}, token.SUB: {"+"}, token.MUL: {"/"}, token.QUO: {"*"}, token.REM: {"*"},
			token.LAND: {"||"}, token.LOR: {"&&"},
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				// String methods and the like only render: leave them out.
				if n.Name.Name == "String" || n.Name.Name == "Error" {
					return false
				}
			case *ast.GenDecl:
				if n.Tok == token.CONST || n.Tok == token.IMPORT {
					return false // constants are limits the docs state; imports are not code
				}
			case *ast.BinaryExpr:
				for _, to := range flips[n.Op] {
					kind := "boundary"
					switch n.Op {
					case token.EQL, token.NEQ, token.LAND, token.LOR:
						kind = "negation"
					case token.ADD, token.SUB, token.MUL, token.QUO, token.REM:
						kind = "arithmetic"
					}
					add(n.OpPos, n.Op.String(), to, kind)
				}
			case *ast.IncDecStmt:
				to := "--"
				if n.Tok == token.DEC {
					to = "++"
				}
				add(n.TokPos, n.Tok.String(), to, "increment")
			case *ast.BasicLit:
				if n.Kind == token.INT {
					if v, err := strconv.ParseInt(n.Value, 0, 64); err == nil && v < 1<<40 {
						add(n.Pos(), n.Value, strconv.FormatInt(v+1, 10), "constant")
					}
				}
			case *ast.IfStmt:
				// if err != nil { return ... }: drop the check.
				if be, ok := n.Cond.(*ast.BinaryExpr); ok && be.Op == token.NEQ {
					if id, ok := be.X.(*ast.Ident); ok && id.Name == "err" {
						if nl, ok := be.Y.(*ast.Ident); ok && nl.Name == "nil" {
							p, q := fset.Position(be.Pos()), fset.Position(be.End())
							out = append(out, mutant{file: rel, off: p.Offset, old: string(src[p.Offset:q.Offset]), new: "false", line: p.Line, col: p.Column, kind: "error check"})
						}
					}
				}
			}
			return true
		})
	}
	return out, nil
}

// run applies m in the copy, runs the package's tests and restores the
// file.
func run(work, pkg string, m mutant, timeout time.Duration, testArgs []string) string {
	path := filepath.Join(work, m.file)
	src, err := os.ReadFile(path)
	if err != nil {
		fail(err)
	}
	mutated := append(append(append([]byte{}, src[:m.off]...), m.new...), src[m.off+len(m.old):]...)
	if err := os.WriteFile(path, mutated, 0o644); err != nil {
		fail(err)
	}
	defer func() {
		if err := os.WriteFile(path, src, 0o644); err != nil {
			fail(err)
		}
	}()
	// Build first, the package and its tests, so that a mutant that does
	// not compile is told from one the tests kill. (go vet with a no-op
	// tool did not type-check, and counted such mutants as killed.) The
	// build cache serves the test run below.
	build := exec.Command("go", "test", "-c", "-o", os.DevNull, "./"+strings.TrimPrefix(pkg, "./"))
	build.Dir = work
	if out, err := build.CombinedOutput(); err != nil && bytes.Contains(out, []byte(".go:")) {
		return "not viable"
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	args := append([]string{"test", "-count=1", "-failfast"}, testArgs...)
	args = append(args, "./"+strings.TrimPrefix(pkg, "./"))
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = work
	// The test binary is the go command's child: killing only the go
	// command on a timeout would leave a mutant looping on a core. Run
	// them in a process group of their own and kill the whole group.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	err = cmd.Run()
	switch {
	case ctx.Err() != nil:
		return "timed out"
	case err != nil:
		return "killed"
	}
	return "lived"
}
