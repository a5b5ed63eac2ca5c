// Package host is ploy as a program outside Go drives it: a game engine
// in C, C++ or C# through the C library (bindings/c), or a page or Node
// script through the WebAssembly build (bindings/wasm). Both are thin
// layers over this package, so that they behave the same and are tested
// once.
//
// The shape is the one engines already use for native middleware:
//
//   - Handles. Every object the caller holds (a domain, a world, an
//     agent) is a Handle, a number, never a Go pointer: a number can cross
//     any boundary, and a stale or forged one is an error, not a crash.
//     Release frees a handle (a world's agents with it).
//   - JSON calls. Call answers the JSON API of `ploy serve` (docs/api.md)
//     for a loaded domain, with the same requests, answers and limits,
//     minus the request's domain and source: the handle says which
//     domain.
//   - A runtime the engine drives. A World runs agents of the domain
//     file's kinds (its agents: section) on a plan queue. The engine's
//     sensors push what they see (Set, SetTarget, SetPosition), the
//     engine calls Frame once per frame, asks each agent for the action to
//     run (Action) and reports how it went (Report). Sensors and
//     behaviours stay in the engine: no callback crosses the boundary.
//
// Every function is safe for concurrent use; the calls on one world and
// its agents are serialised by the world's lock. Every function recovers
// a panic into an error, so that nothing panics across the boundary.
// docs/bindings.md documents the C, C# and JavaScript APIs built on it.
package host

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"

	"github.com/ploy-ai/ploy/domain"
	"github.com/ploy-ai/ploy/internal/buildinfo"
	"github.com/ploy-ai/ploy/viewer"
)

// Handle names an object the caller holds: a domain, a world or an agent.
// 0 is never a handle, so that C code can use it for "none" and "failed".
type Handle = uint64

// MaxHandles bounds the objects held at once: a caller that loads in a
// loop without releasing is stopped with an error, not by running out of
// memory.
const MaxHandles = 1 << 20

// MaxName bounds a name the caller passes: a file's, an agent kind's or
// name, a fact's, a key's or a target's. No file's names come near it,
// and an error that echoes a megabyte passed by mistake is not sent back.
const MaxName = 4096

// checkName refuses a name longer than MaxName bytes.
func checkName(what, name string) error {
	if len(name) > MaxName {
		return fmt.Errorf("%s %.40q… is %d bytes long, more than the %d a name may have", what, name, len(name), MaxName)
	}
	return nil
}

// table is the handles in use. Handles are never reused: a caller that
// releases a handle and uses it again gets "no such handle", not another
// object.
var table = struct {
	sync.Mutex
	next    Handle
	objects map[Handle]any
}{objects: map[Handle]any{}}

// ErrNoHandle is the error of a call given a handle that is not held.
var ErrNoHandle = errors.New("no such handle")

func hold(v any) (Handle, error) {
	table.Lock()
	defer table.Unlock()
	if len(table.objects) >= MaxHandles {
		return 0, fmt.Errorf("%d handles are held, the most there can be: release the ones no longer needed", MaxHandles)
	}
	table.next++
	table.objects[table.next] = v
	return table.next, nil
}

// lookup returns the object h names, if it is a T.
func lookup[T any](h Handle, what string) (T, error) {
	table.Lock()
	v, ok := table.objects[h]
	table.Unlock()
	t, isT := v.(T)
	switch {
	case !ok:
		return t, fmt.Errorf("%w %d (%s): released, or never made", ErrNoHandle, h, what)
	case !isT:
		return t, fmt.Errorf("handle %d is %s, not %s", h, withArticle(kindOf(v)), withArticle(what))
	}
	return t, nil
}

// withArticle is "a world", "an agent".
func withArticle(noun string) string {
	if strings.ContainsRune("aeiou", rune(noun[0])) {
		return "an " + noun
	}
	return "a " + noun
}

func kindOf(v any) string {
	switch v.(type) {
	case *Domain:
		return "domain"
	case *World:
		return "world"
	case *Agent:
		return "agent"
	}
	return "handle"
}

// Release frees what h names: a domain (its worlds keep working), a world
// and its agents, or one agent (which leaves its world). Releasing a
// handle twice, or 0, does nothing.
func Release(h Handle) {
	table.Lock()
	v := table.objects[h]
	delete(table.objects, h)
	table.Unlock()
	switch x := v.(type) {
	case *World:
		x.release()
	case *Agent:
		x.world.remove(x)
	}
}

// Held reports how many handles are held: for tests, and for a caller
// that looks for a leak.
func Held() int {
	table.Lock()
	defer table.Unlock()
	return len(table.objects)
}

// Version says which build of ploy this is, as `ploy --version` does.
func Version() string { return buildinfo.Version() }

// Domain is a loaded domain file: YAML (a state-space or an engine-model
// file) or a PDDL domain and problem.
type Domain struct {
	file   *domain.File // YAML
	server *viewer.Server
	pddl   *pddlTask // PDDL
}

// protect turns a panic in f into an error: nothing panics across the
// boundary.
func protect(err *error) {
	if p := recover(); p != nil {
		*err = fmt.Errorf("internal error: %v", p)
	}
}

// Load parses a domain file's YAML text, named name in its errors (a
// domain.ErrorList, every error with its line and column), and holds it.
func Load(source []byte, name string) (h Handle, err error) {
	defer protect(&err)
	if name == "" {
		name = "<source>"
	}
	if err := checkName("the file's name", name); err != nil {
		return 0, err
	}
	if err := SourceTooLarge(name, uint64(len(source))); err != nil {
		return 0, err
	}
	f, err := domain.Parse(name, source)
	if err != nil {
		return 0, err
	}
	s, err := viewer.New(viewer.Config{Domain: f})
	if err != nil {
		return 0, err
	}
	return hold(&Domain{file: f, server: s})
}

// SourceTooLarge is Load's error for a domain file of size bytes named
// name, or nil if Load takes that size: a binding handed a length asks
// before it copies the caller's bytes.
func SourceTooLarge(name string, size uint64) error {
	if size > domain.MaxFileSize {
		return fmt.Errorf("%s: the file is %d bytes, more than the %d a domain file may have", name, size, domain.MaxFileSize)
	}
	return nil
}

// ErrorAnswer is an error object as Call answers one, {"error": MESSAGE,
// "status": STATUS}: for a binding that refuses a call's arguments
// before Call sees them.
func ErrorAnswer(status int, message string) []byte { return errorJSON(status, message) }

// Call answers the JSON API's request for method ("plan", "resolve",
// "htn", "explain", "trace", "graph", "lint", ... : docs/api.md's
// endpoints under /api/v1/) on domain d. It always returns JSON: the
// answer, or an error object {"error": MESSAGE, "field": FIELD} as the
// API sends it, with "status", the HTTP status the API would have sent,
// added to it. On a PDDL domain it answers "plan" (`ploy plan --json`).
func Call(d Handle, method string, request []byte) (answer []byte) {
	defer func() {
		if p := recover(); p != nil {
			answer = errorJSON(http.StatusInternalServerError, fmt.Sprintf("internal error: %v", p))
		}
	}()
	dom, err := lookup[*Domain](d, "domain")
	if err != nil {
		return errorJSON(http.StatusNotFound, err.Error())
	}
	var status int
	if dom.pddl != nil {
		status, answer = dom.pddl.call(method, request)
	} else {
		status, answer = dom.server.Call(context.Background(), method, request)
	}
	if status != http.StatusOK {
		return withStatus(answer, status)
	}
	return answer
}

// Methods returns the methods Call answers on domain d, sorted.
func Methods(d Handle) ([]string, error) {
	dom, err := lookup[*Domain](d, "domain")
	if err != nil {
		return nil, err
	}
	if dom.pddl != nil {
		return []string{"plan"}, nil
	}
	return dom.server.Methods(), nil
}

// Kinds returns the agent kinds of domain d's file (its agents: section),
// in the file's order: the kinds NewAgent takes. A PDDL domain has none.
func Kinds(d Handle) ([]string, error) {
	dom, err := lookup[*Domain](d, "domain")
	if err != nil {
		return nil, err
	}
	kinds := []string{}
	if f := dom.file; f != nil {
		for _, k := range f.Agents {
			kinds = append(kinds, k.Name)
		}
		for _, k := range f.EngineAgents {
			kinds = append(kinds, k.Name)
		}
	}
	return kinds, nil
}
