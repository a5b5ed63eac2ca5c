// Package memlimit finds how much memory the process may really use (the
// smallest of its cgroup's memory limit, its address-space limit
// RLIMIT_AS, the Go runtime's GOMEMLIMIT and the machine's physical
// memory) and from it the most a search may count of its own, so that a
// search stops at its memory ceiling with a status instead of ending the
// process with the runtime's "fatal error: out of memory".
package memlimit

import (
	"bufio"
	"math"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
)

// Limits are the bounds on the process's memory, in bytes; 0 where there
// is none or it could not be read.
type Limits struct {
	// Cgroup is the memory limit of the process's cgroup or of one of
	// its ancestors, the smallest (cgroup v2 memory.max, v1
	// memory.limit_in_bytes).
	Cgroup int64
	// AddressSpace is the soft RLIMIT_AS: virtual memory, which the Go
	// runtime reserves well beyond what it touches.
	AddressSpace int64
	// GoMemLimit is the runtime's soft limit when the GOMEMLIMIT
	// environment variable sets it.
	GoMemLimit int64
	// Physical is the machine's memory (MemTotal).
	Physical int64
}

// Read returns the process's limits.
func Read() Limits {
	l := readPlatform()
	l.GoMemLimit = goMemLimit()
	return l
}

// goMemLimit is the runtime's soft memory limit when GOMEMLIMIT set it, 0
// otherwise: a limit a program set for itself (ploy sets one to steer the
// collector) is not a bound on what it may use.
func goMemLimit() int64 {
	if os.Getenv("GOMEMLIMIT") == "" {
		return 0
	}
	if v := debug.SetMemoryLimit(-1); v != math.MaxInt64 {
		return v
	}
	return 0
}

// The share of each kind of limit a search may count as its own, derived
// from ploy's PDDL searches run to a ceiling of 512 MiB or 1 GiB (ploy plan
// --max-bytes N --json, peaks read from /proc/PID/status):
//
//	search (bytes counted)               VmHWM      VmPeak
//	openstacks p20_1 blind (506 MiB)      622 MiB   2114 MiB
//	openstacks p20_1 blind (994 MiB)     1218 MiB   2755 MiB
//	openstacks p20_1 portfolio (994)     1123 MiB   2755 MiB
//	visitall problem05 blind (1002)      1346 MiB   2947 MiB
//	gripper prob01 (1 MiB)                  4 MiB   1256 MiB
//
// Resident memory peaked at 1.13 to 1.34 times the bytes counted (the
// collector's headroom under ploy's soft limit, the table's old copy while
// it doubles, the grounded task). So the search may count 2/3 of a
// resident limit (the cgroup's, GOMEMLIMIT, physical memory) less
// residentReserve: 1.5 per byte counted, 12 % over the worst seen.
//
// Virtual memory was 1.25 GiB before any search (address space the runtime
// reserves and never touches) and grew 1.3 to 1.5 bytes per byte counted.
// So under RLIMIT_AS the search may count 1/2 of what is left after
// addressReserve: 2 per byte counted. Under 3 GB that is 662 MiB, whose
// worst case peaks near 2.3 GiB of the 2.8.
const (
	residentNum, residentDen = 2, 3
	residentReserve          = 256 << 20
	addressNum, addressDen   = 1, 2
	addressReserve           = 1536 << 20
)

// SearchBytes returns the most a search may count of its own memory under
// l, and which limit decided it; (0, "") when l bounds nothing.
func (l Limits) SearchBytes() (int64, string) {
	best, by := int64(0), ""
	consider := func(v int64, what string, num, den, reserve int64) {
		if v <= 0 {
			return
		}
		// Past the reserve, a share; a limit smaller than the reserve
		// still leaves the search a small share of it.
		b := max((v-reserve)/den*num, v/(4*den)*num)
		if by == "" || b < best {
			best, by = b, what
		}
	}
	consider(l.Cgroup, "the cgroup memory limit", residentNum, residentDen, residentReserve)
	consider(l.GoMemLimit, "GOMEMLIMIT", residentNum, residentDen, residentReserve)
	consider(l.Physical, "physical memory", residentNum, residentDen, residentReserve)
	consider(l.AddressSpace, "the address-space limit (RLIMIT_AS)", addressNum, addressDen, addressReserve)
	return best, by
}

// Resident returns the smallest of the limits on resident memory (the
// cgroup's, GOMEMLIMIT, physical memory), 0 if none is known: the most a
// soft limit for the collector should be.
func (l Limits) Resident() int64 {
	r := int64(0)
	for _, v := range []int64{l.Cgroup, l.GoMemLimit, l.Physical} {
		if v > 0 && (r == 0 || v < r) {
			r = v
		}
	}
	return r
}

// noLimit is the least value cgroups write for "no limit" (v1 writes the
// largest int64 rounded down to a page).
const noLimit = 1 << 62

// parseLimit reads a cgroup limit file's content: a number of bytes, or
// "max" (v2) or a huge number (v1) for none, which is 0.
func parseLimit(s string) int64 {
	s = strings.TrimSpace(s)
	if s == "max" {
		return 0
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v <= 0 || v >= noLimit {
		return 0
	}
	return v
}

// cgroupPaths reads /proc/self/cgroup's content: the v2 path (line
// "0::PATH") and the v1 memory controller's (a line "N:...memory...:PATH").
func cgroupPaths(content string) (v2, v1 string) {
	sc := bufio.NewScanner(strings.NewReader(content))
	for sc.Scan() {
		id, rest, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		ctrls, path, ok := strings.Cut(rest, ":")
		if !ok {
			continue
		}
		if id == "0" && ctrls == "" {
			v2 = path
			continue
		}
		for _, c := range strings.Split(ctrls, ",") {
			if c == "memory" {
				v1 = path
			}
		}
	}
	return v2, v1
}

// memTotal reads /proc/meminfo's content: MemTotal in bytes, 0 if absent.
func memTotal(content string) int64 {
	sc := bufio.NewScanner(strings.NewReader(content))
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), "MemTotal:")
		if !ok {
			continue
		}
		kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
		if err != nil || kb <= 0 {
			return 0
		}
		return kb << 10
	}
	return 0
}
