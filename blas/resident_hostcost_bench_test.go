package clblas

import (
	"context"
	"runtime"
	"testing"

	"github.com/gocompute/opencl/cl"
	eng "github.com/gocompute/opencl/internal/engine"
)

// The host cost of small resident operations (issue 16): chains of calls
// on vectors of 1 000 elements, waited for every 1 000 calls, so that
// ns/op is what the host spends per operation (the device is never the
// bottleneck at this size on a GPU) and thread-ns/op the CPU time of the
// calling thread alone (driver calls included).
//
//	go test -run XXX -bench 'ResidentAxpy|ResidentDot' -benchtime 20000x -benchmem ./blas/

const hostChain = 1000

// startThreadCPU locks the benchmark to its OS thread and returns the
// function to call after the loop, which reports the thread's CPU time per
// iteration as "thread-ns/op" where it can be read.
func startThreadCPU(b *testing.B) (stop func()) {
	runtime.LockOSThread()
	t0, ok0 := threadCPU()
	return func() {
		t1, ok1 := threadCPU()
		runtime.UnlockOSThread()
		if ok0 && ok1 && b.N > 0 {
			b.ReportMetric(float64((t1-t0).Nanoseconds())/float64(b.N), "thread-ns/op")
		}
	}
}

// chainBench runs op b.N times in chains of hostChain calls, waiting for
// the last call of each chain with wait.
func chainBench[R any](b *testing.B, op func() (R, error), wait func(R) error) {
	run := func(i int) {
		r, err := op()
		if err == nil && i%hostChain == hostChain-1 {
			err = wait(r)
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	run(hostChain - 1) // builds the kernels
	b.ReportAllocs()
	defer startThreadCPU(b)()
	b.ResetTimer()
	for i := range b.N {
		run(i)
	}
	run(hostChain - 1)
}

// BenchmarkResidentAxpyDriver is the floor under BenchmarkResidentAxpy:
// the same axpy kernel object, its arguments set once, enqueued straight
// through package cl with an event (released at once) or without one.
// The difference to ResidentAxpy/Axpy is what the resident API adds.
func BenchmarkResidentAxpyDriver(b *testing.B) {
	e := testEngine(b)
	const n = 1000
	x, err1 := NewVector[float64](newTestImpl(b), n)
	y, err2 := NewVector[float64](newTestImpl(b), n)
	if err1 != nil || err2 != nil {
		b.Fatal(err1, err2)
	}
	defer x.Release()
	defer y.Release()
	// Borrow the kernel object the resident Axpy uses, with its launch shape.
	c := eng.Begin[float64](e, "bench")
	k := eng.L1Kernel(c, "axpy")
	sh := eng.L1ShapeFor(e.Prof, 64)
	if c.Err != nil {
		c.Finish()
		b.Fatal(c.Err)
	}
	defer c.Finish()
	global, local := []int{sh.GroupsFor(n) * sh.Local}, []int{sh.Local}
	if err := k.SetArgs(int32(n), 1e-9, x.st.buf, int64(0), int32(1), y.st.buf, int64(0), int32(1)); err != nil {
		b.Fatal(err)
	}
	b.Run("event", func(b *testing.B) {
		chainBench(b, func() (*cl.Event, error) { return e.Queue.EnqueueKernel(k, global, local) },
			func(ev *cl.Event) error { return ev.Wait() })
	})
	b.Run("noevent", func(b *testing.B) {
		chainBench(b, func() (struct{}, error) { return struct{}{}, e.Queue.EnqueueKernelNoEvent(k, global, local) },
			func(struct{}) error { return e.Queue.Finish() })
	})
}

// BenchmarkResidentDot measures the host cost of a resident reduction in a
// chain: Dot and Nrm2 returning a Scalar (two kernels and a read of the
// result to the host; the last of each chain is waited for with Value) and
// DotTo, which leaves the result in a device vector.
func BenchmarkResidentDot(b *testing.B) {
	impl := newTestImpl(b)
	const n = 1000
	x, err1 := NewVector[float64](impl, n)
	y, err2 := NewVector[float64](impl, n)
	r, err3 := NewVector[float64](impl, 1)
	if err1 != nil || err2 != nil || err3 != nil {
		b.Fatal(err1, err2, err3)
	}
	defer x.Release()
	defer y.Release()
	defer r.Release()
	value := func(s *Scalar[float64]) error {
		_, err := s.Value(context.Background())
		return err
	}
	b.Run("Dot", func(b *testing.B) {
		chainBench(b, func() (*Scalar[float64], error) { return Dot(x, y) }, value)
	})
	b.Run("Nrm2", func(b *testing.B) {
		chainBench(b, func() (*Scalar[float64], error) { return Nrm2(x) }, value)
	})
	b.Run("DotTo", func(b *testing.B) {
		chainBench(b, func() (*Event, error) { return DotTo(x, y, r) }, (*Event).Wait)
	})
}
