// Command c is ploy as a C library, for game engines and any language
// that calls C (C++, C# through P/Invoke, Rust, Python's ctypes). Build it
// with
//
//	go build -buildmode=c-shared -o libploy.so ./bindings/c   # shared
//	go build -buildmode=c-archive -o libploy.a ./bindings/c   # static
//
// and include the hand-written header beside this file, ploy.h, which is
// the API's contract and its documentation (docs/bindings.md has the
// guide). The header cgo writes with the library (libploy.h) is an
// implementation detail: its types are the same at the ABI, without the
// const qualifiers and the documentation.
//
// Each function here is a thin layer over package host
// (bindings/host), where every semantics lives: it turns C arguments
// into Go values, with NULL pointers and over-long strings refused as
// errors, and Go answers into memory from C's malloc that the caller
// frees with ploy_free. Every exported function recovers a panic into
// its failure value and the thread's last error: nothing panics across
// the boundary.
package main

/*
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lasterror.h"
*/
import "C"

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"unsafe"

	"github.com/ploy-ai/ploy/bindings/host"
	"github.com/ploy-ai/ploy/viewer"
)

// main is never run: a c-shared or c-archive build needs a main package.
func main() {}

// maxName is the longest name (a kind, an agent's name, a fact, key,
// method or file name) read from a C string: past it the string is
// refused, unread.
const maxName = host.MaxName

// failed records err as the calling thread's last error.
func failed(err error) {
	C.cploy_set_error(C.CString(err.Error()))
}

// giveError hands err to the caller: through *out when the caller passed
// a place for it (it then owns the copy), else as the thread's last
// error. A success clears *out.
func giveError(out **C.char, err error) {
	switch {
	case out == nil && err != nil:
		failed(err)
	case out == nil:
	case err != nil:
		*out = C.CString(err.Error())
	default:
		*out = nil
	}
}

// guard turns a panic in an exported function into its failure value and
// the thread's last error.
func guard[T any](ret *T, fail T) {
	if p := recover(); p != nil {
		failed(fmt.Errorf("internal error: %v", p))
		*ret = fail
	}
}

// guardMaker is guard for the functions that make a handle and give
// their error through a char **error: a panic's message goes there too.
func guardMaker(ret *C.uint64_t, errOut **C.char) {
	if p := recover(); p != nil {
		giveError(errOut, fmt.Errorf("internal error: %v", p))
		*ret = 0
	}
}

// goString copies the C string p, which what names in errors, reading at
// most max+1 bytes of it: NULL, or a string longer than max, is an
// error.
func goString(p *C.char, what string, max int) (string, error) {
	if p == nil {
		return "", fmt.Errorf("%s is NULL", what)
	}
	n := int(C.strnlen(p, C.size_t(max+1)))
	if n > max {
		return "", fmt.Errorf("%s is longer than %d bytes", what, max)
	}
	return C.GoStringN(p, C.int(n)), nil
}

// optionalName is goString for a name that may be NULL (then "").
func optionalName(p *C.char, what string) (string, error) {
	if p == nil {
		return "", nil
	}
	return goString(p, what, maxName)
}

// source copies a file's text of n bytes from p, once check (host's size
// limit for that kind of file) has taken n, so that an oversized source
// is refused before it is read.
func source(p *C.char, n C.size_t, name string, check func(string, uint64) error) ([]byte, error) {
	if err := check(name, uint64(n)); err != nil {
		return nil, err
	}
	if n == 0 {
		return []byte{}, nil
	}
	if p == nil {
		return nil, fmt.Errorf("%s: the source is NULL but its length is %d", name, n)
	}
	return C.GoBytes(unsafe.Pointer(p), C.int(n)), nil
}

// cText is s in memory from malloc, for the caller to free.
func cText(s []byte) *C.char {
	p := (*C.char)(C.malloc(C.size_t(len(s) + 1)))
	if p == nil {
		return nil
	}
	buf := unsafe.Slice((*byte)(unsafe.Pointer(p)), len(s)+1)
	copy(buf, s)
	buf[len(s)] = 0
	return p
}

//export ploy_load
func ploy_load(src *C.char, n C.size_t, name *C.char, errOut **C.char) (h C.uint64_t) {
	defer guardMaker(&h, errOut)
	file, err := optionalName(name, "name")
	if err != nil {
		giveError(errOut, err)
		return 0
	}
	if file == "" {
		file = "<source>" // as host.Load names it
	}
	text, err := source(src, n, file, host.SourceTooLarge)
	if err == nil {
		var d host.Handle
		d, err = host.Load(text, file)
		h = C.uint64_t(d)
	}
	giveError(errOut, err)
	return h
}

//export ploy_load_pddl
func ploy_load_pddl(domainSrc *C.char, domainLen C.size_t, domainName *C.char, problemSrc *C.char, problemLen C.size_t, problemName *C.char, errOut **C.char) (h C.uint64_t) {
	defer guardMaker(&h, errOut)
	load := func() (host.Handle, error) {
		dname, err := optionalName(domainName, "domain_name")
		if err != nil {
			return 0, err
		}
		pname, err := optionalName(problemName, "problem_name")
		if err != nil {
			return 0, err
		}
		if dname == "" {
			dname = "<domain>" // as host.LoadPDDL names them
		}
		if pname == "" {
			pname = "<problem>"
		}
		d, err := source(domainSrc, domainLen, dname, host.PDDLTooLarge)
		if err != nil {
			return 0, err
		}
		p, err := source(problemSrc, problemLen, pname, host.PDDLTooLarge)
		if err != nil {
			return 0, err
		}
		return host.LoadPDDL(d, dname, p, pname)
	}
	d, err := load()
	giveError(errOut, err)
	return C.uint64_t(d)
}

//export ploy_call
func ploy_call(d C.uint64_t, method *C.char, request *C.char) (answer *C.char) {
	defer func() {
		if p := recover(); p != nil {
			answer = cText(host.ErrorAnswer(http.StatusInternalServerError, fmt.Sprintf("internal error: %v", p)))
		}
	}()
	m, err := goString(method, "method", maxName)
	if err != nil {
		return cText(host.ErrorAnswer(http.StatusBadRequest, err.Error()))
	}
	var body []byte
	if request != nil {
		// One byte past the API's limit, so that the API refuses a
		// request that is too large with its own answer.
		n := C.strnlen(request, viewer.DefaultMaxBody+1)
		body = C.GoBytes(unsafe.Pointer(request), C.int(n))
	}
	return cText(host.Call(host.Handle(d), m, body))
}

//export ploy_methods
func ploy_methods(d C.uint64_t) (out *C.char) {
	defer guard(&out, nil)
	names, err := host.Methods(host.Handle(d))
	if err != nil {
		failed(err)
		return nil
	}
	return text(json.Marshal(names))
}

//export ploy_kinds
func ploy_kinds(d C.uint64_t) (out *C.char) {
	defer guard(&out, nil)
	names, err := host.Kinds(host.Handle(d))
	if err != nil {
		failed(err)
		return nil
	}
	return text(json.Marshal(names))
}

//export ploy_release
func ploy_release(h C.uint64_t) {
	defer func() {
		if p := recover(); p != nil {
			failed(fmt.Errorf("internal error: %v", p))
		}
	}()
	host.Release(host.Handle(h))
}

//export ploy_held
func ploy_held() (n C.int) {
	defer guard(&n, -1)
	return C.int(host.Held())
}

//export ploy_free
func ploy_free(p unsafe.Pointer) { C.free(p) }

//export ploy_last_error
func ploy_last_error() *C.char { return C.cploy_take_error() }

// version is ploy_version's answer, made once and never freed.
var version = sync.OnceValue(func() *C.char { return C.CString(host.Version()) })

//export ploy_version
func ploy_version() (v *C.char) {
	defer guard(&v, nil)
	return version()
}

//export ploy_world_new
func ploy_world_new(d C.uint64_t, workers C.int) (h C.uint64_t) {
	defer guard(&h, 0)
	w, err := host.NewWorld(host.Handle(d), int(workers))
	if err != nil {
		failed(err)
	}
	return C.uint64_t(w)
}

//export ploy_world_record
func ploy_world_record(w C.uint64_t, maxDecisions C.int, maxBytes C.longlong) (ret C.int) {
	defer guard(&ret, -1)
	return status(host.Record(host.Handle(w), int(maxDecisions), int64(maxBytes)))
}

//export ploy_world_decisions
func ploy_world_decisions(w C.uint64_t) (out *C.char) {
	defer guard(&out, nil)
	return text(host.Decisions(host.Handle(w)))
}

//export ploy_world_frame
func ploy_world_frame(w C.uint64_t) (ret C.int) {
	defer guard(&ret, -1)
	n, err := host.Frame(host.Handle(w))
	if err != nil {
		failed(err)
		return -1
	}
	return C.int(n)
}

//export ploy_world_set_slice
func ploy_world_set_slice(w C.uint64_t, expansions C.int64_t) (ret C.int) {
	defer guard(&ret, -1)
	return status(host.SetSlice(host.Handle(w), int64(expansions)))
}

//export ploy_world_set_min_share
func ploy_world_set_min_share(w C.uint64_t, share C.int64_t) (ret C.int) {
	defer guard(&ret, -1)
	return status(host.SetMinShare(host.Handle(w), int64(share)))
}

//export ploy_world_frame_stats
func ploy_world_frame_stats(w C.uint64_t) (out *C.char) {
	defer guard(&out, nil)
	return text(host.FrameStats(host.Handle(w)))
}

//export ploy_agent_new
func ploy_agent_new(w C.uint64_t, kind *C.char, name *C.char, errOut **C.char) (h C.uint64_t) {
	defer guardMaker(&h, errOut)
	k, err := goString(kind, "kind", maxName)
	var a host.Handle
	if err == nil {
		var n string
		if n, err = optionalName(name, "name"); err == nil {
			a, err = host.NewAgent(host.Handle(w), k, n)
		}
	}
	giveError(errOut, err)
	return C.uint64_t(a)
}

//export ploy_agent_set
func ploy_agent_set(a C.uint64_t, factOrKey *C.char, value C.double) (ret C.int) {
	defer guard(&ret, -1)
	name, err := goString(factOrKey, "fact_or_key", maxName)
	if err == nil {
		err = host.Set(host.Handle(a), name, float64(value))
	}
	return status(err)
}

//export ploy_agent_set_position
func ploy_agent_set_position(a C.uint64_t, x, y C.double) (ret C.int) {
	defer guard(&ret, -1)
	return status(host.SetPosition(host.Handle(a), float64(x), float64(y)))
}

//export ploy_agent_set_target
func ploy_agent_set_target(a C.uint64_t, key *C.char, x, y C.double, found C.int) (ret C.int) {
	defer guard(&ret, -1)
	k, err := goString(key, "key", maxName)
	if err == nil {
		err = host.SetTarget(host.Handle(a), k, float64(x), float64(y), found != 0)
	}
	return status(err)
}

//export ploy_agent_action
func ploy_agent_action(a C.uint64_t, buf *C.char, n C.size_t) (ret C.int) {
	defer guard(&ret, -1)
	name, doing, err := host.Action(host.Handle(a))
	if err != nil {
		failed(err)
		return -1
	}
	if buf == nil {
		failed(errors.New("buf is NULL"))
		return -1
	}
	if n == 0 {
		failed(fmt.Errorf("the action %q needs a buffer of %d bytes, not 0", name, len(name)+1))
		return -1
	}
	// Never past n: the name, cut to n-1 bytes if it must be, and a NUL.
	fits := min(uint64(len(name)), uint64(n)-1)
	out := unsafe.Slice((*byte)(unsafe.Pointer(buf)), fits+1)
	copy(out, name[:fits])
	out[fits] = 0
	if fits < uint64(len(name)) {
		failed(fmt.Errorf("the action %q needs a buffer of %d bytes, not %d", name, len(name)+1, n))
		return -1
	}
	return C.int(doing)
}

//export ploy_agent_destination
func ploy_agent_destination(a C.uint64_t, x, y *C.double) (ret C.int) {
	defer guard(&ret, -1)
	if x == nil || y == nil {
		failed(errors.New("x or y is NULL"))
		return -1
	}
	tx, ty, walking, err := host.Destination(host.Handle(a))
	if err != nil {
		failed(err)
		return -1
	}
	*x, *y = C.double(tx), C.double(ty)
	if walking {
		return 1
	}
	return 0
}

//export ploy_agent_report
func ploy_agent_report(a C.uint64_t, st C.int) (ret C.int) {
	defer guard(&ret, -1)
	return status(host.Report(host.Handle(a), int(st)))
}

//export ploy_agent_events
func ploy_agent_events(a C.uint64_t) (out *C.char) {
	defer guard(&out, nil)
	return text(host.Events(host.Handle(a)))
}

//export ploy_agent_state
func ploy_agent_state(a C.uint64_t) (out *C.char) {
	defer guard(&out, nil)
	return text(host.State(host.Handle(a)))
}

//export ploy_agent_trace_decisions
func ploy_agent_trace_decisions(a C.uint64_t, on C.int) (ret C.int) {
	defer guard(&ret, -1)
	return status(host.TraceDecisions(host.Handle(a), on != 0))
}

// status is an int function's answer: 0, or -1 with the thread's last
// error.
func status(err error) C.int {
	if err != nil {
		failed(err)
		return -1
	}
	return 0
}

// text is a JSON answer in malloc'd memory, or NULL with the thread's
// last error.
func text(b []byte, err error) *C.char {
	if err != nil {
		failed(err)
		return nil
	}
	return cText(b)
}
