package memlimit

import (
	"testing"
)

func TestParseLimit(t *testing.T) {
	for in, want := range map[string]int64{
		"max\n":                 0,
		"9223372036854771712\n": 0, // v1's "no limit"
		"1073741824\n":          1 << 30,
		"0":                     0,
		"-1":                    0,
		"junk":                  0,
		"":                      0,
	} {
		if got := parseLimit(in); got != want {
			t.Errorf("parseLimit(%q) = %d, want %d", in, got, want)
		}
	}
}

func TestCgroupPaths(t *testing.T) {
	v2, v1 := cgroupPaths("12:pids:/a\n4:cpu,memory:/docker/abc\n0::/user.slice/x.scope\n")
	if v2 != "/user.slice/x.scope" || v1 != "/docker/abc" {
		t.Errorf("got v2 %q, v1 %q", v2, v1)
	}
	if v2, v1 := cgroupPaths("4:memoryless:/a\n1:name=systemd:/b\n"); v2 != "" || v1 != "" {
		t.Errorf("no memory controller: got v2 %q, v1 %q", v2, v1)
	}
}

func TestMemTotal(t *testing.T) {
	if got := memTotal("MemFree: 5 kB\nMemTotal:       24684524 kB\n"); got != 24684524<<10 {
		t.Errorf("got %d", got)
	}
	if got := memTotal("MemFree: 5 kB\n"); got != 0 {
		t.Errorf("no MemTotal: got %d", got)
	}
}

func TestSearchBytes(t *testing.T) {
	const gib = 1 << 30
	for _, c := range []struct {
		name string
		l    Limits
		want int64
		by   string
	}{
		{"none", Limits{}, 0, ""},
		{"physical", Limits{Physical: 16 * gib}, (16*gib - residentReserve) / 3 * 2, "physical memory"},
		{"cgroup below physical", Limits{Physical: 16 * gib, Cgroup: 2 * gib}, (2*gib - residentReserve) / 3 * 2, "the cgroup memory limit"},
		{"GOMEMLIMIT", Limits{Physical: 16 * gib, Cgroup: 2 * gib, GoMemLimit: gib}, (gib - residentReserve) / 3 * 2, "GOMEMLIMIT"},
		// 3 GB of address space leave 662 MiB.
		{"address space", Limits{Physical: 16 * gib, AddressSpace: 3e9}, (3e9 - addressReserve) / 2, "the address-space limit (RLIMIT_AS)"},
		// Below the reserve, a share of the limit still.
		{"tiny cgroup", Limits{Cgroup: 128 << 20}, (128 << 20) / 12 * 2, "the cgroup memory limit"},
	} {
		got, by := c.l.SearchBytes()
		if got != c.want || by != c.by {
			t.Errorf("%s: got %d by %q, want %d by %q", c.name, got, by, c.want, c.by)
		}
	}
}

func TestResident(t *testing.T) {
	if got := (Limits{Physical: 8, Cgroup: 5, GoMemLimit: 6, AddressSpace: 1}).Resident(); got != 5 {
		t.Errorf("got %d, want 5: the address space is not resident memory", got)
	}
	if got := (Limits{}).Resident(); got != 0 {
		t.Errorf("got %d, want 0", got)
	}
}

func TestGoMemLimit(t *testing.T) {
	t.Setenv("GOMEMLIMIT", "")
	if got := goMemLimit(); got != 0 {
		t.Errorf("GOMEMLIMIT unset: got %d", got)
	}
}
