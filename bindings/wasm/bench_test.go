//go:build !js

package main

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/ploy-ai/ploy/bindings/host"
)

// BenchmarkNativePlanKill plans the battle mage's Kill through host.Call
// natively: the JSON request parsed, the plan searched and the answer
// encoded, the work a call through ploy.wasm does.
func BenchmarkNativePlanKill(b *testing.B) {
	d := loadNative(b, "battlemage.yaml")
	request := []byte(`{"goal":"Kill"}`)
	b.ReportAllocs()
	cpu := cpuTime(b)
	for b.Loop() {
		host.Call(d, "plan", request)
	}
	b.ReportMetric(float64(cpuTime(b)-cpu)/float64(b.N), "cpu-ns/op")
}

// cpuTime is the process's CPU time so far, user and system, every
// thread's: on a shared machine a steadier figure than the wall time.
func cpuTime(b *testing.B) time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		b.Fatal(err)
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

// BenchmarkNodePlanKill is the same plan through ploy.mjs in Node:
// testdata/bench.mjs times 2 000 calls in a row, five runs, and this
// reports the medians of the runs: ns/plan for call (the answer parsed in
// JavaScript), ns/plan-text for callText (the JSON text only) and
// ns/empty-call for a call into WebAssembly that does nothing (held),
// each also as the process's CPU time (cpu-ns/...). One op is one run of
// Node; run it with -benchtime 1x.
func BenchmarkNodePlanKill(b *testing.B) {
	path := findNode(b)
	dir := buildWasm(b)
	type times struct{ Wall, CPU []float64 }
	var got struct {
		Cost                 float64
		Plan, PlanText, Held times
	}
	for b.Loop() {
		out := nodeOutput(b, path, filepath.Join("testdata", "bench.mjs"), dir, shipped(b, "battlemage.yaml"), strconv.Itoa(2000), "5")
		if err := json.Unmarshal(out, &got); err != nil || got.Cost != 7 {
			b.Fatalf("%v: %s", err, out)
		}
	}
	b.ReportMetric(median(got.Plan.Wall), "ns/plan")
	b.ReportMetric(median(got.Plan.CPU), "cpu-ns/plan")
	b.ReportMetric(median(got.PlanText.Wall), "ns/plan-text")
	b.ReportMetric(median(got.PlanText.CPU), "cpu-ns/plan-text")
	b.ReportMetric(median(got.Held.Wall), "ns/empty-call")
	b.ReportMetric(median(got.Held.CPU), "cpu-ns/empty-call")
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	return s[len(s)/2]
}
