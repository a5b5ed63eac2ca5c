package main

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/ploy-ai/ploy/bindings/host"
)

// BenchmarkNativePlanKill plans the battle mage's Kill through host.Call
// natively: the JSON request parsed, the plan searched and the answer
// encoded, the work a call through ploy.wasm does.
func BenchmarkNativePlanKill(b *testing.B) {
	d := loadNative(b, "battlemage.yaml")
	request := []byte(`{"goal":"Kill"}`)
	b.ReportAllocs()
	for b.Loop() {
		host.Call(d, "plan", request)
	}
}

// BenchmarkNodePlanKill is the same plan through ploy.mjs in Node:
// testdata/bench.mjs times 2 000 calls in a row, five runs, and this
// reports the medians of the runs: ns/plan for call (the answer parsed in
// JavaScript), ns/plan-text for callText (the JSON text only) and
// ns/empty-call for a call into WebAssembly that does nothing (held). One
// op is one run of Node; run it with -benchtime 1x.
func BenchmarkNodePlanKill(b *testing.B) {
	dir := buildWasm(b)
	path := findNode(b)
	var got struct {
		Cost                 float64
		Plan, PlanText, Held []float64
	}
	for b.Loop() {
		out := nodeOutput(b, path, filepath.Join("testdata", "bench.mjs"), dir, shipped(b, "battlemage.yaml"), strconv.Itoa(2000), "5")
		if err := json.Unmarshal(out, &got); err != nil || got.Cost != 7 {
			b.Fatalf("%v: %s", err, out)
		}
	}
	b.ReportMetric(median(got.Plan), "ns/plan")
	b.ReportMetric(median(got.PlanText), "ns/plan-text")
	b.ReportMetric(median(got.Held), "ns/empty-call")
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	return s[len(s)/2]
}
