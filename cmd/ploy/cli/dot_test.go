package cli

import "testing"

func TestDotLabelEscapes(t *testing.T) {
	got := dotLabel([]string{`say "hi"`, `back\slash`})
	want := `"say \"hi\"\nback\\slash"`
	if got != want {
		t.Errorf("dotLabel = %s, want %s", got, want)
	}
}
