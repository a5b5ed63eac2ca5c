package suggest

import "testing"

func TestClosest(t *testing.T) {
	facts := []string{"in_range", "in_cover", "staff_charged", "spare_crystals", "healthy"}
	for _, tc := range []struct{ name, want string }{
		{"spare_crystal", "spare_crystals"},
		{"in_rnage", "in_range"},
		{"Healthy", "healthy"},
		{"in_covr", "in_cover"},
		{"enemy_dead", ""},
		{"x", ""},
		{"healthy", "healthy"},
	} {
		if got := Closest(tc.name, facts); got != tc.want {
			t.Errorf("Closest(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"abc", "", 3}, {"", "ab", 2}, {"kitten", "sitting", 3}, {"ab", "ba", 1}, {"precondition", "preconditions", 1},
	} {
		if got := distance(tc.a, tc.b); got != tc.want {
			t.Errorf("distance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}
