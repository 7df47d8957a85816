package cl

import (
	"fmt"
	"testing"
)

// BenchmarkLaunch measures the host cost of a kernel launch: setting 14
// arguments (as a GEMM does) or none, and enqueueing with or without an
// event. The kernel does nothing; the queue is drained every 256 launches,
// so the figure is the enqueue path's cost, not the device's.
func BenchmarkLaunch(b *testing.B) {
	e := newEnv(b, 0)
	const src = `kernel void k(global float* a, global float* b, global float* c,
		int m, int n, int k2, float alpha, float beta, int lda, int ldb, int ldc,
		int oa, int ob, int oc) {
		if (get_global_id(0) == 1u << 30) c[oc] = alpha * a[oa] + beta * b[ob] + m + n + k2 + lda + ldb + ldc;
	}`
	k := e.kernel(b, src, "k")
	buf := e.buffer(b, MemReadWrite, 1<<12)
	args := []any{buf, buf, buf, int32(512), int32(512), int32(512), float32(1), float32(0),
		int32(512), int32(512), int32(512), int32(0), int32(0), int32(0)}
	if err := k.SetArgs(args...); err != nil {
		b.Fatal(err)
	}
	global, local := []int{64, 64}, []int{8, 8}
	for _, setArgs := range []bool{false, true} {
		for _, event := range []bool{true, false} {
			b.Run(fmt.Sprintf("args=%v/event=%v", setArgs, event), func(b *testing.B) {
				defer startThreadCPU(b)()
				for i := 0; i < b.N; i++ {
					if setArgs {
						if err := k.SetArgs(args...); err != nil {
							b.Fatal(err)
						}
					}
					if event {
						ev, err := e.q.EnqueueKernel(k, global, local)
						if err != nil {
							b.Fatal(err)
						}
						ev.Release()
					} else if err := e.q.EnqueueKernelNoEvent(k, global, local); err != nil {
						b.Fatal(err)
					}
					if i%256 == 255 {
						if err := e.q.Finish(); err != nil {
							b.Fatal(err)
						}
					}
				}
				if err := e.q.Finish(); err != nil {
					b.Fatal(err)
				}
			})
		}
	}
}
