package agent

import (
	"reflect"
	"testing"
	"unsafe"
)

// TestBlankLeavesNothingOfTheLastDecision: a recorder's slot is reused,
// so blank must clear every field a decision had, unexported ones (a
// profile's pointer) and one added to Decision later too, and keep its
// lists' storage. Every field of a slot is filled with a non-zero value
// first (every list with one element), then blanked: only the fields
// blank sets may be non-zero, and each list must be empty on its old
// storage. A field of a kind fill does not know stops the test, loudly.
func TestBlankLeavesNothingOfTheLastDecision(t *testing.T) {
	a := &Agent{cfg: Config{Name: "ann", AgentKind: "guard"}, tick: 7}
	var d Decision
	fill(t, reflect.ValueOf(&d).Elem(), "Decision")
	before := d
	a.blank(&d, "goal")

	set := map[string]bool{"Tick": true, "Asked": true, "Agent": true, "Kind": true, "AgentKind": true, "Decided": true}
	if d.Tick != 7 || d.Asked != 7 || d.Agent != "ann" || d.Kind != "goap" || d.AgentKind != "guard" || d.Decided != "goal" {
		t.Errorf("the fields blank sets: %d %d %q %q %q %q", d.Tick, d.Asked, d.Agent, d.Kind, d.AgentKind, d.Decided)
	}
	// The lists whose storage a slot keeps; the rest (the snapshot's
	// Keys, the domain's names) are shared, and blank lets them go.
	kept := map[string]bool{}
	for _, f := range []string{"Options", "Plan", "MTR", "Running", "Rejected", "Snapshot.Facts", "Snapshot.Values", "Snapshot.Targets", "weighed", "found", "chain"} {
		kept["Decision."+f] = true
	}
	var check func(v, old reflect.Value, at string)
	check = func(v, old reflect.Value, at string) {
		switch {
		case v.Kind() == reflect.Slice && kept[at]:
			if v.Len() != 0 || v.Cap() != old.Cap() || v.Pointer() != old.Pointer() {
				t.Errorf("%s: length %d on other storage; want an empty list on the slot's", at, v.Len())
			}
		case v.Kind() == reflect.Struct && at == "Decision.Snapshot":
			for i := range v.NumField() {
				if v.Type().Field(i).IsExported() {
					check(v.Field(i), old.Field(i), at+"."+v.Type().Field(i).Name)
				}
			}
		case !v.IsZero():
			t.Errorf("%s is %v after blank; want zero", at, v)
		}
	}
	nv, ov := reflect.ValueOf(&d).Elem(), reflect.ValueOf(&before).Elem()
	for i := range nv.NumField() {
		if name := nv.Type().Field(i).Name; !set[name] {
			check(nv.Field(i), ov.Field(i), "Decision."+name)
		}
	}
}

// fill sets every field of v non-zero, unexported ones too: lists get
// one element (filled too), maps one entry, pointers a new value, strings
// "x", numbers 1, bools true.
func fill(t *testing.T, v reflect.Value, at string) {
	t.Helper()
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			f := v.Field(i)
			if !v.Type().Field(i).IsExported() {
				// An unexported field (a profile's pointer) leaks as
				// surely: set it through its address.
				f = reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
			}
			fill(t, f, at+"."+v.Type().Field(i).Name)
		}
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem())) // non-nil is enough: blank must drop it
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 1, 4))
		fill(t, v.Index(0), at+"[0]")
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		fill(t, k, at+" key")
		fill(t, e, at+" value")
		m.SetMapIndex(k, e)
		v.Set(m)
	case reflect.String:
		v.SetString("x")
	case reflect.Int, reflect.Int32, reflect.Int64, reflect.Uint8, reflect.Uint32:
		if v.CanInt() {
			v.SetInt(1)
		} else {
			v.SetUint(1)
		}
	case reflect.Float64:
		v.SetFloat(1)
	case reflect.Bool:
		v.SetBool(true)
	default:
		t.Fatalf("%s: fill does not know %s", at, v.Type())
	}
	if v.IsZero() {
		t.Fatalf("%s is still zero after fill", at)
	}
}

// sinkFunc is a decision sink of the game's: a function.
type sinkFunc func(*Decision)

func (f sinkFunc) RecordDecision(d *Decision) { f(d) }

// TestOnlyAGameSinksAgentKeepsARecord: an agent recording into a
// FlightRecorder fills the recorder's slot and keeps no Decision of its
// own (11 cache lines beside every agent of a crowd); one recording into
// a sink of the game's fills its own, made at its first decision.
func TestOnlyAGameSinksAgentKeepsARecord(t *testing.T) {
	var got []int
	for _, sink := range []DecisionSink{NewFlightRecorder(100, 1<<20), sinkFunc(func(d *Decision) { got = append(got, len(d.Plan)) })} {
		cfg := mageConfig(t)
		cfg.Decisions = sink
		a, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if a.log.d != nil {
			t.Fatalf("%T: a record buffer before any decision", sink)
		}
		for range 3 {
			a.Tick()
		}
		_, game := sink.(sinkFunc)
		if f, ok := sink.(*FlightRecorder); ok {
			if held, _ := f.Len(); held == 0 {
				t.Fatal("the recorder holds no decision after three ticks")
			}
		}
		if has := a.log.d != nil; has != game {
			t.Errorf("%T: the agent keeps a record buffer: %v; want %v", sink, has, game)
		}
	}
	if len(got) == 0 || got[0] == 0 {
		t.Errorf("the game's sink got %v (plan lengths); want a plan", got)
	}
}
