package clblas

import (
	"context"
	"errors"
	"log/slog"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"gonum.org/v1/gonum/blas"
)

// recorder is a slog.Handler that keeps every record.
type recorder struct {
	mu      sync.Mutex
	records []slog.Record
}

func (h *recorder) Enabled(context.Context, slog.Level) bool { return true }

func (h *recorder) Handle(_ context.Context, r slog.Record) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.records = append(h.records, r.Clone())
	return nil
}

func (h *recorder) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h *recorder) WithGroup(string) slog.Handler      { return h }

// warnings returns the records at level Warn or above, each as its
// message followed by its attributes as key=value.
func (h *recorder) warnings() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var warns []string
	for _, r := range h.records {
		if r.Level < slog.LevelWarn {
			continue
		}
		var b strings.Builder
		b.WriteString(r.Message)
		r.Attrs(func(a slog.Attr) bool {
			b.WriteString(" " + a.Key + "=" + a.Value.String())
			return true
		})
		warns = append(warns, b.String())
	}
	return warns
}

// byRoutine returns how many records name each routine, and checks that
// every record is a warning carrying the device's error.
func (h *recorder) byRoutine(t *testing.T) map[string]int {
	t.Helper()
	h.mu.Lock()
	defer h.mu.Unlock()
	n := map[string]int{}
	for _, r := range h.records {
		if r.Level != slog.LevelWarn {
			t.Errorf("record at level %v: %s", r.Level, r.Message)
		}
		var routine string
		var err error
		r.Attrs(func(a slog.Attr) bool {
			switch a.Key {
			case "routine":
				routine = a.Value.String()
			case "err":
				err, _ = a.Value.Any().(error)
			}
			return true
		})
		if !errors.Is(err, errFake) {
			t.Errorf("record for %q carries err %v, want the device's", routine, err)
		}
		n[routine]++
	}
	return n
}

// newFailingImpl returns an Implementation whose device fails every call,
// with every call sent to it, its log recorder and the device-call counter.
func newFailingImpl(t *testing.T) (*Implementation, *recorder, *atomic.Int64) {
	t.Helper()
	rec := &recorder{}
	calls := new(atomic.Int64)
	impl, err := New(WithOffload(Always), WithLogger(slog.New(rec)),
		withDevices(failDevice64{calls}, failDevice32{calls}, gpuLikeModel()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { impl.Close() })
	return impl, rec, calls
}

// methodNames lists the methods of the interface *ptr points to.
func methodNames(ptr any) []string {
	typ := reflect.TypeOf(ptr).Elem()
	var names []string
	for i := 0; i < typ.NumMethod(); i++ {
		names = append(names, typ.Method(i).Name)
	}
	return names
}

// checkOncePerRoutine checks that the log holds exactly one record for each
// of the interface's routines but cpuOnly.
func checkOncePerRoutine(t *testing.T, rec *recorder, iface any, cpuOnly ...string) {
	t.Helper()
	got := rec.byRoutine(t)
	for _, name := range methodNames(iface) {
		want := 1
		if slices.Contains(cpuOnly, name) {
			want = 0
		}
		if got[name] != want {
			t.Errorf("%s: %d log records, want %d", name, got[name], want)
		}
		delete(got, name)
	}
	for name, n := range got {
		t.Errorf("%d log records for unknown routine %q", n, name)
	}
}

// TestFallback64 runs gonum's conformance tests, which call every routine
// many times, on a device that fails every call: the answers must still be
// right, and each routine's failure logged once.
func TestFallback64(t *testing.T) {
	impl, rec, calls := newFailingImpl(t)
	for _, tc := range testblasSuite {
		tc.test(t, impl)
	}
	if t.Failed() {
		return
	}
	checkOncePerRoutine(t, rec, (*blas.Float64)(nil), "Drotg", "Drotmg")
	if n := int(calls.Load()); n < 100 {
		t.Errorf("only %d calls reached the failing device", n)
	}
}

// TestFallback32 runs the float32 cases of float32_test.go on a device that
// fails every call.
func TestFallback32(t *testing.T) {
	impl, rec, calls := newFailingImpl(t)
	r := rand.New(rand.NewPCG(3, 3))
	for _, group := range [][]routine32{level1Routines32, level2Routines32, level3Routines32} {
		for i := range group {
			rt := &group[i]
			for ci, c := range rt.gen(r) {
				want, got := c.clone(), c.clone()
				wantRet, wantMsg := call32(rt, gonumRef{}, want)
				gotRet, gotMsg := call32(rt, impl, got)
				if gotMsg != wantMsg {
					t.Fatalf("%s case %d: panic %q, want %q", rt.name, ci, gotMsg, wantMsg)
				}
				same := same32(gotRet, wantRet, 0)
				for _, s := range [][2][]float32{{got.x, want.x}, {got.y, want.y}, {got.a, want.a}, {got.b, want.b}, {got.c, want.c}} {
					for j := range s[1] {
						same = same && same32(float64(s[0][j]), float64(s[1][j]), 0)
					}
				}
				if !same {
					t.Errorf("%s case %d (%v): result differs from gonum's", rt.name, ci, c)
				}
			}
		}
	}
	// The Srotg/Srotmg test runs on the CPU only.
	impl.Srotg(1, 2)
	impl.Srotmg(1, 2, 3, 4)
	checkOncePerRoutine(t, rec, (*blas.Float32)(nil), "Srotg", "Srotmg")
	if n := int(calls.Load()); n < 100 {
		t.Errorf("only %d calls reached the failing device", n)
	}
}

// TestClose checks that calls after Close run on the CPU without touching
// the device or logging, and that Close can be repeated.
func TestClose(t *testing.T) {
	impl, rec, calls := newFailingImpl(t)
	if err := impl.Close(); err != nil {
		t.Fatal(err)
	}
	if err := impl.Close(); err != nil {
		t.Fatal(err)
	}
	x := []float64{1, 2, 3}
	if got := impl.Ddot(3, x, 1, x, 1); got != 14 {
		t.Errorf("Ddot after Close = %v, want 14", got)
	}
	c := make([]float32, 4)
	a := []float32{1, 2, 3, 4}
	impl.Sgemm(blas.NoTrans, blas.NoTrans, 2, 2, 2, 1, a, 2, a, 2, 0, c, 2)
	if want := []float32{7, 10, 15, 22}; !slices.Equal(c, want) {
		t.Errorf("Sgemm after Close = %v, want %v", c, want)
	}
	if calls.Load() != 0 || len(rec.byRoutine(t)) != 0 {
		t.Errorf("after Close: %d device calls, %d log records", calls.Load(), len(rec.records))
	}
}
