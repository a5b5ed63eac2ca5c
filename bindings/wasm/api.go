//go:build js && wasm

package main

// The API of package host, registered on globalThis.ployWasm under the
// names ploy.mjs gives its own functions. This layer only converts: it
// checks and copies the JavaScript arguments into Go values, calls host,
// and turns the results into JavaScript values. The meaning of every call
// is host's (bindings/host), and docs/wasm.md documents it.
//
// Errors: a function that fails returns a JavaScript Error with the
// message, never throws (a Go function cannot throw into JavaScript);
// ploy.mjs throws it. call is the exception: like host.Call it always
// answers JSON, an error being the API's error object.
//
// Handles are JavaScript Numbers: host's handles count up from 1 and are
// never reused, so they stay far below 2^53, where every integer is a
// Number exactly.

import (
	"fmt"
	"math"
	"syscall/js"

	"github.com/ploy-ai/ploy/bindings/host"
	"github.com/ploy-ai/ploy/domain"
	"github.com/ploy-ai/ploy/pddl"
	"github.com/ploy-ai/ploy/viewer"
)

func init() {
	hostFunc("version", 0, func(hostArgs) (any, error) { return host.Version(), nil })
	hostFunc("held", 0, func(hostArgs) (any, error) { return host.Held(), nil })
	hostFunc("release", 1, func(a hostArgs) (any, error) {
		h, err := a.handle(0, "handle")
		if err == nil {
			host.Release(h)
		}
		return nil, err
	})

	hostFunc("load", 2, func(a hostArgs) (any, error) {
		name, err := a.optionalString(1, "name")
		if err != nil {
			return nil, err
		}
		src, err := a.source(0, "source", name, domain.MaxFileSize, "a domain file")
		if err != nil {
			return nil, err
		}
		return handleResult(host.Load(src, name))
	})
	hostFunc("loadPDDL", 4, func(a hostArgs) (any, error) {
		domainName, err := a.optionalString(1, "domainName")
		if err != nil {
			return nil, err
		}
		problemName, err := a.optionalString(3, "problemName")
		if err != nil {
			return nil, err
		}
		d, err := a.source(0, "domain", domainName, pddl.MaxSize, "a PDDL file")
		if err != nil {
			return nil, err
		}
		p, err := a.source(2, "problem", problemName, pddl.MaxSize, "a PDDL file")
		if err != nil {
			return nil, err
		}
		return handleResult(host.LoadPDDL(d, domainName, p, problemName))
	})
	hostFunc("call", 3, func(a hostArgs) (any, error) {
		d, err := a.handle(0, "domain")
		if err != nil {
			return nil, err
		}
		method, err := a.string(1, "method", maxName)
		if err != nil {
			return nil, err
		}
		request, err := a.request(2)
		if err != nil {
			return nil, err
		}
		return string(host.Call(d, method, request)), nil
	})
	hostFunc("methods", 1, func(a hostArgs) (any, error) {
		d, err := a.handle(0, "domain")
		if err != nil {
			return nil, err
		}
		return stringsResult(host.Methods(d))
	})
	hostFunc("kinds", 1, func(a hostArgs) (any, error) {
		d, err := a.handle(0, "domain")
		if err != nil {
			return nil, err
		}
		return stringsResult(host.Kinds(d))
	})

	hostFunc("worldNew", 2, func(a hostArgs) (any, error) {
		d, err := a.handle(0, "domain")
		if err != nil {
			return nil, err
		}
		workers, err := a.int(1, "workers")
		if err != nil {
			return nil, err
		}
		return handleResult(host.NewWorld(d, workers))
	})
	hostFunc("worldRecord", 3, func(a hostArgs) (any, error) {
		w, err := a.handle(0, "world")
		if err != nil {
			return nil, err
		}
		decisions, err := a.int(1, "maxDecisions")
		if err != nil {
			return nil, err
		}
		bytes, err := a.int(2, "maxBytes")
		if err != nil {
			return nil, err
		}
		return nil, host.Record(w, decisions, int64(bytes))
	})
	hostFunc("worldFrame", 1, func(a hostArgs) (any, error) {
		w, err := a.handle(0, "world")
		if err != nil {
			return nil, err
		}
		return host.Frame(w)
	})
	hostFunc("worldSetSlice", 2, func(a hostArgs) (any, error) {
		w, err := a.handle(0, "world")
		if err != nil {
			return nil, err
		}
		slice, err := a.wholeNumber(1, "expansions")
		if err != nil {
			return nil, err
		}
		return nil, host.SetSlice(w, slice)
	})
	hostFunc("worldSetMinShare", 2, func(a hostArgs) (any, error) {
		w, err := a.handle(0, "world")
		if err != nil {
			return nil, err
		}
		share, err := a.wholeNumber(1, "share")
		if err != nil {
			return nil, err
		}
		return nil, host.SetMinShare(w, share)
	})
	hostFunc("worldFrameStats", 1, func(a hostArgs) (any, error) {
		w, err := a.handle(0, "world")
		if err != nil {
			return nil, err
		}
		return textResult(host.FrameStats(w))
	})
	hostFunc("worldDecisions", 1, func(a hostArgs) (any, error) {
		w, err := a.handle(0, "world")
		if err != nil {
			return nil, err
		}
		return textResult(host.Decisions(w))
	})

	hostFunc("agentNew", 3, func(a hostArgs) (any, error) {
		w, err := a.handle(0, "world")
		if err != nil {
			return nil, err
		}
		kind, err := a.string(1, "kind", maxName)
		if err != nil {
			return nil, err
		}
		name, err := a.optionalString(2, "name")
		if err != nil {
			return nil, err
		}
		return handleResult(host.NewAgent(w, kind, name))
	})
	hostFunc("agentSet", 3, func(a hostArgs) (any, error) {
		h, err := a.handle(0, "agent")
		if err != nil {
			return nil, err
		}
		name, err := a.string(1, "name", maxName)
		if err != nil {
			return nil, err
		}
		value, err := a.value(2)
		if err != nil {
			return nil, err
		}
		return nil, host.Set(h, name, value)
	})
	hostFunc("agentSetPosition", 3, func(a hostArgs) (any, error) {
		h, err := a.handle(0, "agent")
		if err != nil {
			return nil, err
		}
		x, err := a.number(1, "x")
		if err != nil {
			return nil, err
		}
		y, err := a.number(2, "y")
		if err != nil {
			return nil, err
		}
		return nil, host.SetPosition(h, x, y)
	})
	hostFunc("agentSetTarget", 5, func(a hostArgs) (any, error) {
		h, err := a.handle(0, "agent")
		if err != nil {
			return nil, err
		}
		key, err := a.string(1, "key", maxName)
		if err != nil {
			return nil, err
		}
		x, err := a.number(2, "x")
		if err != nil {
			return nil, err
		}
		y, err := a.number(3, "y")
		if err != nil {
			return nil, err
		}
		found, err := a.bool(4, "found")
		if err != nil {
			return nil, err
		}
		return nil, host.SetTarget(h, key, x, y, found)
	})
	hostFunc("agentAction", 1, func(a hostArgs) (any, error) {
		h, err := a.handle(0, "agent")
		if err != nil {
			return nil, err
		}
		name, doing, err := host.Action(h)
		if err != nil {
			return nil, err
		}
		return map[string]any{"name": name, "doing": doings[doing]}, nil
	})
	hostFunc("agentDestination", 1, func(a hostArgs) (any, error) {
		h, err := a.handle(0, "agent")
		if err != nil {
			return nil, err
		}
		x, y, walking, err := host.Destination(h)
		if err != nil {
			return nil, err
		}
		return map[string]any{"x": x, "y": y, "walking": walking}, nil
	})
	hostFunc("agentReport", 2, func(a hostArgs) (any, error) {
		h, err := a.handle(0, "agent")
		if err != nil {
			return nil, err
		}
		status, err := a.status(1)
		if err != nil {
			return nil, err
		}
		return nil, host.Report(h, status)
	})
	hostFunc("agentEvents", 1, func(a hostArgs) (any, error) {
		h, err := a.handle(0, "agent")
		if err != nil {
			return nil, err
		}
		return textResult(host.Events(h))
	})
	hostFunc("agentState", 1, func(a hostArgs) (any, error) {
		h, err := a.handle(0, "agent")
		if err != nil {
			return nil, err
		}
		return textResult(host.State(h))
	})
	hostFunc("agentTraceDecisions", 2, func(a hostArgs) (any, error) {
		h, err := a.handle(0, "agent")
		if err != nil {
			return nil, err
		}
		on, err := a.bool(1, "on")
		if err != nil {
			return nil, err
		}
		return nil, host.TraceDecisions(h, on)
	})
}

// maxName bounds a method, kind, fact, key or agent name, in UTF-16 code
// units, as host bounds it in bytes: a caller that passes a megabyte by
// mistake is told so before it is copied.
const maxName = host.MaxName

// doings are host.Doing's values as agentAction and agentState name them.
var doings = map[host.Doing]string{host.Idle: "idle", host.Acting: "acting", host.Walking: "walking"}

// statuses are the names agentReport takes beside host's numbers.
var statuses = map[string]int{"running": host.Running, "success": host.Success, "failure": host.Failure}

// hostFunc registers f as ployWasm[name], called with at most most arguments
// (fewer are undefined). f's error becomes a JavaScript Error returned in
// place of the value.
func hostFunc(name string, most int, f func(hostArgs) (any, error)) {
	export(name, func(_ js.Value, in []js.Value) any {
		if len(in) > most {
			return hostError(fmt.Errorf("%s takes %d arguments, not %d", name, most, len(in)))
		}
		for i, v := range in {
			if !typed(v) {
				return hostError(fmt.Errorf("%s: argument %d is %s, which ploy takes nowhere (a handle or a number is a Number)", name, i+1, untyped(v)))
			}
		}
		v, err := f(hostArgs{fn: name, v: in})
		if err != nil {
			return hostError(err)
		}
		return v
	})
}

func hostError(err error) js.Value { return js.Global().Get("Error").New(err.Error()) }

func handleResult(h host.Handle, err error) (any, error) {
	if err != nil {
		return nil, err
	}
	return float64(h), nil
}

func stringsResult(list []string, err error) (any, error) {
	if err != nil {
		return nil, err
	}
	out := make([]any, len(list))
	for i, s := range list {
		out[i] = s
	}
	return out, nil
}

// textResult returns JSON or JSON Lines as a string, for ploy.mjs to parse.
func textResult(b []byte, err error) (any, error) {
	if err != nil {
		return nil, err
	}
	return string(b), nil
}

// hostArgs are a call's arguments, read with the call's name in their
// errors.
type hostArgs struct {
	fn string
	v  []js.Value
}

func (a hostArgs) at(i int) js.Value {
	if i < len(a.v) {
		return a.v[i]
	}
	return js.Undefined()
}

func (a hostArgs) wrong(name, want string, v js.Value) error {
	return fmt.Errorf("%s: %s must be %s, not %s", a.fn, name, want, describe(v))
}

// typed says whether v is of a type syscall/js knows: a BigInt is not
// (its Type panics), and a caller that keeps 64-bit handles as BigInts
// would otherwise be told of an internal error.
func typed(v js.Value) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	v.Type()
	return true
}

// untyped names a value typed refuses.
func untyped(v js.Value) string {
	if big := js.Global().Get("BigInt"); big.Type() == js.TypeFunction && js.Global().Get("Object").Invoke(v).InstanceOf(big) {
		return "a BigInt"
	}
	return "a value of a type JavaScript added after Go's WebAssembly runtime"
}

// describe names a JavaScript value's type for an error: a string or
// number itself when it is short, so that the caller sees what it sent.
func describe(v js.Value) string {
	switch v.Type() {
	case js.TypeNumber:
		return fmt.Sprintf("%v", v.Float())
	case js.TypeString:
		if stringLength(v) <= 40 {
			return fmt.Sprintf("the string %q", v.String())
		}
		return "a string"
	case js.TypeObject:
		if js.Global().Get("Array").Call("isArray", v).Bool() {
			return "an array"
		}
		return "an object"
	}
	return v.Type().String()
}

// handle reads a handle: a whole Number from 0 to 2^53.
func (a hostArgs) handle(i int, name string) (host.Handle, error) {
	v := a.at(i)
	if v.Type() != js.TypeNumber {
		return 0, a.wrong(name, "a handle (a Number)", v)
	}
	f := v.Float()
	if f != math.Trunc(f) || f < 0 || f > 1<<53 {
		return 0, a.wrong(name, "a handle (a whole Number from 0)", v)
	}
	return host.Handle(f), nil
}

// string reads a string of at most most UTF-16 code units, counted
// before it is copied.
func (a hostArgs) string(i int, name string, most int) (string, error) {
	v := a.at(i)
	if v.Type() != js.TypeString {
		return "", a.wrong(name, "a string", v)
	}
	if n := stringLength(v); n > most {
		return "", fmt.Errorf("%s: %s is %d characters long, more than the %d it may have", a.fn, name, n, most)
	}
	return v.String(), nil
}

// stringLength is a JavaScript string's length in UTF-16 code units,
// read without copying it (js.Value's Length is for objects only: the
// string is wrapped in a String object for it).
func stringLength(v js.Value) int {
	return js.Global().Get("Object").Invoke(v).Get("length").Int()
}

// optionalString is a string, or "" for undefined or null.
func (a hostArgs) optionalString(i int, name string) (string, error) {
	if v := a.at(i); v.IsUndefined() || v.IsNull() {
		return "", nil
	}
	return a.string(i, name, maxName)
}

// source reads a file's text, a string or a Uint8Array, of at most most
// bytes. A string's length in UTF-16 code units is at most its length in
// UTF-8 bytes, so one longer than most is refused before it is copied.
func (a hostArgs) source(i int, name, file string, most int, what string) ([]byte, error) {
	if file == "" {
		file = "<" + name + ">"
	}
	tooLong := func(n int) error {
		return fmt.Errorf("%s: %s is %d bytes or more, more than the %d %s may have", a.fn, file, n, most, what)
	}
	v := a.at(i)
	switch {
	case v.Type() == js.TypeString:
		if n := stringLength(v); n > most {
			return nil, tooLong(n)
		}
		b := []byte(v.String())
		if len(b) > most {
			return nil, tooLong(len(b))
		}
		return b, nil
	case v.Type() == js.TypeObject && v.InstanceOf(js.Global().Get("Uint8Array")):
		n := v.Length()
		if n > most {
			return nil, tooLong(n)
		}
		b := make([]byte, n)
		js.CopyBytesToGo(b, v)
		return b, nil
	}
	return nil, a.wrong(name, "a string or a Uint8Array", v)
}

// request reads call's request, a JSON string ("" or undefined: none).
// One longer than the API takes is cut just past the limit, so that
// host.Call refuses it with the API's own error, without copying it all.
func (a hostArgs) request(i int) ([]byte, error) {
	v := a.at(i)
	if v.IsUndefined() || v.IsNull() {
		return nil, nil
	}
	if v.Type() != js.TypeString {
		return nil, a.wrong("request", "a JSON string", v)
	}
	if stringLength(v) > viewer.DefaultMaxBody {
		v = js.Global().Get("Object").Invoke(v).Call("slice", 0, viewer.DefaultMaxBody+1)
	}
	return []byte(v.String()), nil
}

// number reads a Number, finite or not (host says which it refuses).
func (a hostArgs) number(i int, name string) (float64, error) {
	v := a.at(i)
	if v.Type() != js.TypeNumber {
		return 0, a.wrong(name, "a number", v)
	}
	return v.Float(), nil
}

// value reads agentSet's value: a Number, or a boolean as 1 or 0 (a
// fact's truth).
func (a hostArgs) value(i int) (float64, error) {
	v := a.at(i)
	if v.Type() == js.TypeBoolean {
		if v.Bool() {
			return 1, nil
		}
		return 0, nil
	}
	if v.Type() != js.TypeNumber {
		return 0, a.wrong("value", "a number or a boolean", v)
	}
	return v.Float(), nil
}

// int reads a whole Number that fits an int32 (workers, limits).
func (a hostArgs) int(i int, name string) (int, error) {
	v := a.at(i)
	if v.Type() != js.TypeNumber {
		return 0, a.wrong(name, "a whole number", v)
	}
	f := v.Float()
	if f != math.Trunc(f) || f < math.MinInt32 || f > math.MaxInt32 {
		return 0, a.wrong(name, "a whole number", v)
	}
	return int(f), nil
}

// wholeNumber reads a whole Number of at most 2^53 either way, where
// every integer is a Number exactly: host judges its range (a slice of
// -1 is its error, not a type error).
func (a hostArgs) wholeNumber(i int, name string) (int64, error) {
	v := a.at(i)
	if v.Type() != js.TypeNumber {
		return 0, a.wrong(name, "a whole number", v)
	}
	f := v.Float()
	if f != math.Trunc(f) || f < -(1<<53) || f > 1<<53 {
		return 0, a.wrong(name, "a whole number", v)
	}
	return int64(f), nil
}

func (a hostArgs) bool(i int, name string) (bool, error) {
	v := a.at(i)
	if v.Type() != js.TypeBoolean {
		return false, a.wrong(name, "true or false", v)
	}
	return v.Bool(), nil
}

// status reads agentReport's status: host's number, or its name.
func (a hostArgs) status(i int) (int, error) {
	v := a.at(i)
	if v.Type() == js.TypeString && stringLength(v) <= len("failure") {
		if s, ok := statuses[v.String()]; ok {
			return s, nil
		}
	}
	if v.Type() != js.TypeNumber {
		return 0, a.wrong("status", `"running", "success", "failure" or their numbers 0, 1, 2`, v)
	}
	f := v.Float()
	if f != math.Trunc(f) || math.Abs(f) > math.MaxInt32 {
		return 0, a.wrong("status", `"running", "success", "failure" or their numbers 0, 1, 2`, v)
	}
	return int(f), nil
}
