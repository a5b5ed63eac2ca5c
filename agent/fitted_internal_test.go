package agent

import (
	"reflect"
	"testing"
)

// TestFittedGivesEveryListStorageOfItsOwnLength: a decision kept alone
// at the byte bound is given lists of exactly its length (fitted), so
// that fitBytes, which counts lists by length, is what it holds: every
// list, unexported ones and one added to Decision later too, must come
// out with its capacity equal to its length, on storage of its own (the
// slot's old storage let go). fill makes every list one element long in
// storage for four.
func TestFittedGivesEveryListStorageOfItsOwnLength(t *testing.T) {
	var d Decision
	fill(t, reflect.ValueOf(&d).Elem(), "Decision")
	fit := d.fitted()
	if got, want := fit.bytes(), d.fitBytes(); got != want {
		t.Errorf("the fitted decision holds %d bytes, fitBytes says %d", got, want)
	}
	var check func(v, old reflect.Value, at string)
	check = func(v, old reflect.Value, at string) {
		switch v.Kind() {
		case reflect.Slice:
			if v.Len() != old.Len() || v.Cap() != v.Len() || v.Pointer() == old.Pointer() {
				t.Errorf("%s: length %d, capacity %d, own storage %v; want length %d, capacity %d, own storage", at, v.Len(), v.Cap(), v.Pointer() != old.Pointer(), old.Len(), old.Len())
			}
		case reflect.Struct:
			for i := range v.NumField() {
				check(v.Field(i), old.Field(i), at+"."+v.Type().Field(i).Name)
			}
		}
	}
	shared := map[string]bool{
		// The domain's names, shared by every decision, and a
		// commitment's exempt goals, the agent's own copy: not the
		// slot's lists.
		"Decision.Snapshot.Keys": true, "Decision.Commitment.Exempt": true,
	}
	nv, ov := reflect.ValueOf(&fit).Elem(), reflect.ValueOf(&d).Elem()
	for i := range nv.NumField() {
		name := "Decision." + nv.Type().Field(i).Name
		if name == "Decision.Snapshot" {
			for j := range nv.Field(i).NumField() {
				if n := name + "." + nv.Field(i).Type().Field(j).Name; !shared[n] {
					check(nv.Field(i).Field(j), ov.Field(i).Field(j), n)
				}
			}
			continue
		}
		if !shared[name] && nv.Field(i).Kind() == reflect.Slice {
			check(nv.Field(i), ov.Field(i), name)
		}
	}
}
