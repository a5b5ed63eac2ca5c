//go:build linux

package memlimit

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

func readPlatform() Limits {
	l := Limits{Cgroup: cgroupLimit("/"), Physical: physical("/")}
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &rl); err == nil && rl.Cur < noLimit {
		l.AddressSpace = int64(rl.Cur)
	}
	return l
}

// physical is the machine's memory, from root's /proc/meminfo.
func physical(root string) int64 {
	b, err := os.ReadFile(filepath.Join(root, "proc/meminfo"))
	if err != nil {
		return 0
	}
	return memTotal(string(b))
}

// cgroupLimit is the smallest memory limit of the process's cgroup and its
// ancestors, under root (the file system's root; tests give another): v2's
// memory.max below sys/fs/cgroup, else v1's memory.limit_in_bytes below
// sys/fs/cgroup/memory. A cgroup path the mount does not show (a container
// sees its own cgroup as the mount's root) is read from the mount's root.
func cgroupLimit(root string) int64 {
	b, err := os.ReadFile(filepath.Join(root, "proc/self/cgroup"))
	if err != nil {
		return 0
	}
	v2, v1 := cgroupPaths(string(b))
	if lim, found := smallestUp(filepath.Join(root, "sys/fs/cgroup"), v2, "memory.max"); found {
		return lim
	}
	lim, _ := smallestUp(filepath.Join(root, "sys/fs/cgroup/memory"), v1, "memory.limit_in_bytes")
	return lim
}

// smallestUp reads file in mount/path and in each of its ancestors up to
// mount, and returns the smallest limit found (0: none), and whether any
// file was there.
func smallestUp(mount, path, file string) (int64, bool) {
	if path == "" {
		return 0, false
	}
	dir := filepath.Join(mount, filepath.Clean("/"+path))
	if _, err := os.Stat(dir); err != nil {
		dir = mount
	}
	best, found := int64(0), false
	for {
		if b, err := os.ReadFile(filepath.Join(dir, file)); err == nil {
			found = true
			if v := parseLimit(string(b)); v > 0 && (best == 0 || v < best) {
				best = v
			}
		}
		if dir == mount || !strings.HasPrefix(dir, mount) {
			return best, found
		}
		dir = filepath.Dir(dir)
	}
}
