package clblas

import (
	"testing"
)

// BenchmarkResidentAxpy measures the host cost of one small resident
// operation in a chain: AxpyBy (y = alpha·s[0]·x + y) and Axpy on vectors
// of 1 000 elements, enqueued back to back and waited for every 1 000
// calls, so that ns/op is what the host spends per operation (the device
// is never the bottleneck at this size) and allocs/op what it allocates.
//
//	go test -run XXX -bench ResidentAxpy -benchmem ./blas/
func BenchmarkResidentAxpy(b *testing.B) {
	impl := newTestImpl(b)
	const n, chain = 1000, 1000
	x, err1 := NewVector[float64](impl, n)
	y, err2 := NewVector[float64](impl, n)
	s, err3 := NewVector[float64](impl, 1)
	if err1 != nil || err2 != nil || err3 != nil {
		b.Fatal(err1, err2, err3)
	}
	defer x.Release()
	defer y.Release()
	defer s.Release()
	for _, op := range []struct {
		name string
		f    func() (*Event, error)
	}{
		{"AxpyBy", func() (*Event, error) { return AxpyBy(1e-9, s, x, y) }},
		{"Axpy", func() (*Event, error) { return Axpy(1e-9, x, y) }},
	} {
		b.Run(op.name, func(b *testing.B) {
			run := func(i int) {
				ev, err := op.f()
				if err == nil && i%chain == chain-1 {
					err = ev.Wait()
				}
				if err != nil {
					b.Fatal(err)
				}
			}
			run(chain - 1) // builds the kernel
			b.ReportAllocs()
			defer startThreadCPU(b)()
			b.ResetTimer()
			for i := range b.N {
				run(i)
			}
			run(chain - 1)
		})
	}
}
