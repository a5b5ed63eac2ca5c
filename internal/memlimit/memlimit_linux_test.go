//go:build linux

package memlimit

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// fakeRoot writes files (path: content) below a new directory, a file
// system root for cgroupLimit and physical.
func fakeRoot(t *testing.T, files map[string]string) string {
	root := t.TempDir()
	for path, content := range files {
		p := filepath.Join(root, path)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func TestCgroupLimit(t *testing.T) {
	for _, c := range []struct {
		name  string
		files map[string]string
		want  int64
	}{
		{"v2, own limit", map[string]string{
			"proc/self/cgroup":                        "0::/app.slice/ploy\n",
			"sys/fs/cgroup/app.slice/ploy/memory.max": "2147483648\n",
			"sys/fs/cgroup/app.slice/memory.max":      "max\n",
		}, 2 << 30},
		{"v2, an ancestor's smaller limit", map[string]string{
			"proc/self/cgroup":                        "0::/app.slice/ploy\n",
			"sys/fs/cgroup/app.slice/ploy/memory.max": "max\n",
			"sys/fs/cgroup/app.slice/memory.max":      "1073741824\n",
		}, 1 << 30},
		{"v2, no limit", map[string]string{
			"proc/self/cgroup":         "0::/\n",
			"sys/fs/cgroup/memory.max": "max\n",
		}, 0},
		{"v2 in a container: the path is not under the mount", map[string]string{
			"proc/self/cgroup":         "0::/kubepods/pod1/c1\n",
			"sys/fs/cgroup/memory.max": "536870912\n",
		}, 512 << 20},
		{"v1", map[string]string{
			"proc/self/cgroup": "5:cpu:/x\n4:memory:/docker/abc\n0::/\n",
			"sys/fs/cgroup/memory/docker/abc/memory.limit_in_bytes": "3221225472\n",
			"sys/fs/cgroup/memory/docker/memory.limit_in_bytes":     "9223372036854771712\n",
			"sys/fs/cgroup/memory/memory.limit_in_bytes":            "9223372036854771712\n",
		}, 3 << 30},
		{"v1, unlimited", map[string]string{
			"proc/self/cgroup": "4:memory:/process_api/e575\n",
			"sys/fs/cgroup/memory/process_api/e575/memory.limit_in_bytes": "9223372036854771712\n",
			"sys/fs/cgroup/memory/memory.limit_in_bytes":                  "9223372036854771712\n",
		}, 0},
		{"no cgroup file", map[string]string{}, 0},
	} {
		if got := cgroupLimit(fakeRoot(t, c.files)); got != c.want {
			t.Errorf("%s: got %d, want %d", c.name, got, c.want)
		}
	}
}

func TestPhysical(t *testing.T) {
	root := fakeRoot(t, map[string]string{"proc/meminfo": "MemTotal:        4194304 kB\nMemFree: 1 kB\n"})
	if got := physical(root); got != 4<<30 {
		t.Errorf("got %d, want 4 GiB", got)
	}
	if got := physical(t.TempDir()); got != 0 {
		t.Errorf("no meminfo: got %d", got)
	}
}

// TestReadHere checks the real files: physical memory is known on Linux.
func TestReadHere(t *testing.T) {
	if l := Read(); l.Physical <= 0 {
		t.Errorf("Read() = %+v: no physical memory", l)
	}
}

// TestAddressSpace sets a soft RLIMIT_AS far above what the test uses and
// reads it back, then restores it.
func TestAddressSpace(t *testing.T) {
	var old syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &old); err != nil {
		t.Skip(err)
	}
	const soft = 1 << 40
	if old.Max < soft {
		t.Skipf("the hard limit %d is below 1 TiB", old.Max)
	}
	if err := syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: soft, Max: old.Max}); err != nil {
		t.Skip(err)
	}
	defer syscall.Setrlimit(syscall.RLIMIT_AS, &old)
	if got := Read().AddressSpace; got != soft {
		t.Errorf("AddressSpace %d, want %d", got, int64(soft))
	}
}
