package cl

import "testing"

// BenchmarkCall measures the host cost of one cheap driver call, the
// binding's own overhead with the least driver work around it: a kernel
// query (clGetKernelInfo) and an event status (clGetEventInfo).
//
//	go test -run XXX -bench Call ./cl/
func BenchmarkCall(b *testing.B) {
	e := newEnv(b, 0)
	k := e.kernel(b, `kernel void k(global float* a) { a[0] = 1; }`, "k")
	b.Run("clGetKernelInfo", func(b *testing.B) {
		defer startThreadCPU(b)()
		for i := 0; i < b.N; i++ {
			if _, err := k.NumArgs(); err != nil {
				b.Fatal(err)
			}
		}
	})
	ev, err := e.q.EnqueueMarker()
	if err != nil {
		b.Fatal(err)
	}
	defer ev.Release()
	if err := ev.Wait(); err != nil {
		b.Fatal(err)
	}
	b.Run("clGetEventInfo", func(b *testing.B) {
		defer startThreadCPU(b)()
		for i := 0; i < b.N; i++ {
			if _, err := ev.Status(); err != nil {
				b.Fatal(err)
			}
		}
	})
}
