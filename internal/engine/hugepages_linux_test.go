package engine

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/gocompute/opencl/cl"
	"github.com/gocompute/opencl/platform/platformtest"
)

// TestHugeMem: hugeMem's memory starts on a huge page and the kernel
// counts its mapping eligible for huge pages (where transparent huge pages
// are not turned off); it is unmapped by free.
func TestHugeMem(t *testing.T) {
	mem, free, err := hugeMem(hugeMin + 12345)
	if err != nil {
		t.Fatal(err)
	}
	p := uintptr(unsafe.Pointer(&mem[0]))
	if p%hugePage != 0 || len(mem) != hugeMin+12345 {
		t.Errorf("memory at %#x, %d bytes; want a multiple of %d, %d bytes", p, len(mem), hugePage, hugeMin+12345)
	}
	clear(mem) // touch it all
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil {
		t.Logf("transparent huge pages unknown here (%v): eligibility not checked", err)
	} else if strings.Contains(string(mode), "[never]") {
		t.Log("transparent huge pages are off here: eligibility not checked")
	} else if got := smapsField(t, p, "THPeligible"); got != "1" {
		t.Errorf("THPeligible of the mapping = %q, want 1 (mode %q)", got, strings.TrimSpace(string(mode)))
	}
	free()
	if got := smapsField(t, p, "Size"); got != "" {
		t.Errorf("the memory is still mapped after free (Size %s)", got)
	}
}

// TestCreateBufferHuge: on a CPU device CreateBuffer makes a buffer of
// hugeMin bytes or more over hugeMem's memory and smaller ones as
// ordinary buffers (on other devices all are ordinary); each holds what
// is written to it, and the memory goes back once the buffer is released.
func TestCreateBufferHuge(t *testing.T) {
	rt := platformtest.Runtime(t)
	prof := rt.Device().Profile()
	q := rt.Queue()
	for _, size := range []int{hugeMin - 8, hugeMin, 3*hugePage + 8} {
		base := cl.LiveObjects()["hostmem"]
		b, err := CreateBuffer(rt.Context(), prof, size)
		if err != nil {
			t.Fatal(err)
		}
		want := int64(0)
		if prof.IsCPU() && size >= hugeMin {
			want = 1
		}
		if got := cl.LiveObjects()["hostmem"] - base; got != want {
			t.Errorf("%d bytes: %d buffers over host memory, want %d", size, got, want)
		}
		roundTrip(t, q, b, size)
		if err := b.Release(); err != nil {
			t.Fatal(err)
		}
		if err := q.Finish(); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(5 * time.Second)
		for cl.LiveObjects()["hostmem"] != base {
			if time.Now().After(deadline) {
				t.Fatalf("%d bytes: %d buffers over host memory after Release, want %d", size, cl.LiveObjects()["hostmem"], base)
			}
			time.Sleep(time.Millisecond)
		}
	}
}

// TestCreateBufferHugeFallback: where the memory cannot be taken or
// advised, or the driver refuses a buffer over it, CreateBuffer gives an
// ordinary buffer that holds what is written to it, and memory the driver
// refused is given back at once. The device is taken as a CPU device
// whatever it is, so that the path runs on GPUs too.
func TestCreateBufferHugeFallback(t *testing.T) {
	rt := platformtest.Runtime(t)
	prof := rt.Device().Profile()
	prof.Type = cl.DeviceTypeCPU
	defer func() { takeHugeMem, overForeign = hugeMem, cl.CreateBufferOverForeign }()
	refused := errors.New("refused")
	for _, tc := range []struct {
		name      string
		memFails  bool
		wantFreed int
	}{{"mmap or madvise fails", true, 0}, {"the driver refuses", false, 1}} {
		took, freed := 0, 0
		takeHugeMem = func(size int) ([]byte, func(), error) {
			took++
			if tc.memFails {
				return nil, nil, refused
			}
			mem, free, err := hugeMem(size)
			return mem, func() { freed++; free() }, err
		}
		overForeign = func(*cl.Context, cl.MemFlags, []byte, func()) (*cl.Buffer, error) { return nil, refused }
		base := cl.LiveObjects()["hostmem"]
		b, err := CreateBuffer(rt.Context(), prof, hugeMin)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if took != 1 || freed != tc.wantFreed {
			t.Errorf("%s: memory taken %d times and given back %d, want 1 and %d", tc.name, took, freed, tc.wantFreed)
		}
		if got := cl.LiveObjects()["hostmem"] - base; got != 0 {
			t.Errorf("%s: %d buffers over host memory, want an ordinary one", tc.name, got)
		}
		roundTrip(t, rt.Queue(), b, hugeMin)
		if err := b.Release(); err != nil {
			t.Fatal(err)
		}
	}
}

// roundTrip writes size bytes of float64s to b and checks that they read
// back unchanged.
func roundTrip(t *testing.T, q *cl.Queue, b *cl.Buffer, size int) {
	t.Helper()
	src := make([]float64, size/8)
	for i := range src {
		src[i] = float64(i) + 0.5
	}
	dst := make([]float64, len(src))
	if _, err := cl.WriteBuffer(q, b, true, 0, src); err != nil {
		t.Fatal(err)
	}
	if _, err := cl.ReadBuffer(q, b, true, 0, dst); err != nil {
		t.Fatal(err)
	}
	for i := range dst {
		if dst[i] != src[i] {
			t.Fatalf("%d bytes: element %d read back as %v, want %v", size, i, dst[i], src[i])
		}
	}
}

// smapsField is the value of field (e.g. "THPeligible") of the mapping
// that holds address p in /proc/self/smaps, "" when none holds it.
func smapsField(t *testing.T, p uintptr, field string) string {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		var lo, hi uintptr
		if n, _ := fmt.Sscanf(line, "%x-%x", &lo, &hi); n == 2 && !strings.HasSuffix(strings.Fields(line)[0], ":") {
			in = lo <= p && p < hi
			continue
		}
		if in && strings.HasPrefix(line, field+":") {
			return strings.Fields(strings.TrimPrefix(line, field+":"))[0]
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return ""
}
