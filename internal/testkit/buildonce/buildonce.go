// Package buildonce builds what several tests of a package need (the C
// library and its programs, ploy.wasm) once per test run, into a
// temporary directory that the package's TestMain removes when the run
// ends: a build takes tens of seconds, a test that reuses it none.
package buildonce

import (
	"os"
	"sync"
	"testing"
)

// Dir is one build's directory, made by the first test that asks for it.
type Dir struct {
	Pattern string // the temporary directory's name pattern (os.MkdirTemp)
	once    sync.Once
	dir     string
	err     error
}

// Get builds into the directory, the first time it is called, and
// returns it; a build that failed fails every test that asks for it.
func (d *Dir) Get(t testing.TB, build func(dir string) error) string {
	t.Helper()
	d.once.Do(func() {
		if d.dir, d.err = os.MkdirTemp("", d.Pattern); d.err == nil {
			d.err = build(d.dir)
		}
	})
	if d.err != nil {
		t.Fatal(d.err)
	}
	return d.dir
}

// Remove deletes the directory, if one was made: call it from TestMain
// after m.Run.
func (d *Dir) Remove() {
	if d.dir != "" {
		os.RemoveAll(d.dir)
	}
}
