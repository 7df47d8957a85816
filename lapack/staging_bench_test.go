package cllapack

import (
	"fmt"
	"testing"
	"time"

	clblas "github.com/gocompute/opencl/blas"
)

// BenchmarkStagingParts times the parts of moving an n×n matrix from a Go
// slice to the device and back as the calls from Go slices do on a
// discrete GPU (stageIO): packing it into the pinned buffer, making the
// device matrix, the write from the buffer, the read back into it and the
// unpacking, each waited for, so that the benchmark says which part
// bounds the transfers around a factorization. Meant to be read:
//
//	go test -run XXX -bench StagingParts -lapack.sizes 4096 ./lapack
func BenchmarkStagingParts(b *testing.B) {
	impl := benchImpl(b)
	for _, n := range sizes(b) {
		a := generalBench(n)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			impl.stageIO = true
			st := impl.stage(n * n)
			if st == nil {
				b.Fatal("no pinned buffer")
			}
			defer st.release()
			var parts [5]time.Duration
			for range b.N {
				t := time.Now()
				lap := func(i int) {
					now := time.Now()
					parts[i] += now.Sub(t)
					t = now
				}
				packRows(st.buf, n, a, n, n, n)
				lap(0)
				d, err := clblas.NewMatrix[float64](impl.blas, n, n)
				if err != nil {
					b.Fatal(err)
				}
				lap(1)
				ev, err := d.Write(st.buf[:n*n])
				if err == nil {
					err = ev.Wait()
				}
				lap(2)
				if err == nil {
					err = d.ReadStrided(st.buf[:n*n], n)
				}
				lap(3)
				packRows(a, n, st.buf, n, n, n)
				lap(4)
				if rerr := d.Release(); err == nil {
					err = rerr
				}
				if err != nil {
					b.Fatal(err)
				}
			}
			for i, name := range []string{"pack", "alloc", "write", "read", "unpack"} {
				b.ReportMetric(parts[i].Seconds()*1e3/float64(b.N), name+"-ms/op")
			}
		})
	}
}
