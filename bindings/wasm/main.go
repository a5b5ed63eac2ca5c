//go:build js && wasm

// Command wasm is ploy built for WebAssembly: the API of package host
// (bindings/host), as the C library offers it, for JavaScript in a page
// or in Node. Build it with
//
//	GOOS=js GOARCH=wasm go build -o ploy.wasm ./bindings/wasm
//
// and load it with the ES module beside this file, ploy.mjs, which wraps
// the functions it registers in a shape like the C API's (docs/wasm.md).
//
// The functions are registered on globalThis.ployWasm: each file of this
// package adds its own with export, in an init function, and main makes
// the object once every init has run.
package main

import (
	"fmt"
	"syscall/js"
)

// exports are the functions registered on globalThis.ployWasm, by name.
var exports = map[string]func(this js.Value, args []js.Value) any{}

// export registers f as globalThis.ployWasm[name].
func export(name string, f func(this js.Value, args []js.Value) any) {
	if _, twice := exports[name]; twice {
		panic("bindings/wasm: " + name + " is exported twice")
	}
	exports[name] = f
}

func main() {
	api := js.Global().Get("Object").New()
	for name, f := range exports {
		api.Set(name, js.FuncOf(guard(name, f)))
	}
	js.Global().Set("ployWasm", api)
	// ploy.mjs waits for this call: the functions are there once it runs.
	if ready := js.Global().Get("ployWasmReady"); ready.Type() == js.TypeFunction {
		ready.Invoke()
	}
	select {} // the functions live as long as the program
}

// guard returns f, with a panic turned into a JavaScript Error returned
// in place of its value: a Go panic that reached JavaScript would stop the
// program, and every later call would fail.
func guard(name string, f func(this js.Value, args []js.Value) any) func(this js.Value, args []js.Value) any {
	return func(this js.Value, args []js.Value) (result any) {
		defer func() {
			if p := recover(); p != nil {
				result = js.Global().Get("Error").New(fmt.Sprintf("%s: internal error: %v", name, p))
			}
		}()
		return f(this, args)
	}
}
