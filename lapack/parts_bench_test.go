package cllapack

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"gonum.org/v1/gonum/blas"

	clblas "github.com/gocompute/opencl/blas"
)

// BenchmarkPotrfParts runs the steps of the resident blocked Cholesky
// (Upper) one operation at a time, waiting for each, and reports the share
// of the time each kind of operation takes. It is a profile, not the
// pipelined factorization: it shows which operation to make faster.
//
//	go test -run XXX -bench PotrfParts -lapack.sizes 4096 ./lapack
func BenchmarkPotrfParts(b *testing.B) {
	impl := benchImpl(b)
	for _, n := range sizes(b) {
		orig := spd(n, n, rand.New(rand.NewPCG(1, uint64(n))))
		for _, nb := range []int{128, 256, 512} {
			b.Run(fmt.Sprintf("n=%d/nb=%d", n, nb), func(b *testing.B) {
				d, err := clblas.NewMatrix[float64](shared.blas, n, n)
				if err != nil {
					b.Fatal(err)
				}
				defer d.Release()
				scratch, err := clblas.NewMatrix[float64](shared.blas, n, n)
				if err != nil {
					b.Fatal(err)
				}
				defer scratch.Release()
				var parts [7]time.Duration
				b.ResetTimer()
				for range b.N {
					b.StopTimer()
					if ev, err := d.Write(orig); err != nil || ev.Wait() != nil {
						b.Fatal(err)
					}
					b.StartTimer()
					potrfParts(b, impl, d, scratch, n, nb, &parts)
				}
				names := [7]string{"panel", "trsm", "syrk", "gemm", "read", "write", "trmm"}
				var tot time.Duration
				for i, p := range parts {
					if i != 3 && i != 6 { // gemm and trmm are comparisons, not steps
						tot += p
					}
				}
				for i, p := range parts {
					b.ReportMetric(100*p.Seconds()/tot.Seconds(), names[i]+"%")
				}
				nf := float64(n)
				b.ReportMetric(nf*nf*nf/3*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
		}
	}
}

func potrfParts(b *testing.B, impl *Implementation, d, scratch *clblas.Matrix[float64], n, nb int, parts *[7]time.Duration) {
	must := func(ev *clblas.Event, err error) {
		if err == nil && ev != nil {
			err = ev.Wait()
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	view := func(i, j, r, c int) *clblas.Matrix[float64] {
		v, err := d.View(i, j, r, c)
		if err != nil {
			b.Fatal(err)
		}
		return v
	}
	timed := func(k int, f func()) {
		t := time.Now()
		f()
		parts[k] += time.Since(t)
	}
	buf := make([]float64, nb*nb)
	for j := 0; j < n; j += nb {
		jb := min(nb, n-j)
		diag := view(j, j, jb, jb)
		p := buf[:jb*jb]
		timed(4, func() { must(nil, diag.Read(p)) })
		timed(0, func() {
			if !impl.Dpotf2(blas.Upper, jb, p, jb) {
				b.Fatal("not SPD")
			}
		})
		timed(5, func() { must(diag.Write(p)) })
		r := n - j - jb
		if r == 0 {
			break
		}
		k := j + jb
		bv := view(j, k, jb, r)
		timed(1, func() { must(clblas.Trsm(blas.Left, blas.Upper, blas.Trans, blas.NonUnit, 1, diag, bv)) })
		timed(2, func() { must(clblas.Syrk(blas.Upper, blas.Trans, -1, bv, 1, view(k, k, r, r))) })
		// The same update as a full Gemm into scratch, for comparison
		// (twice Syrk's flops).
		sc, err := scratch.View(0, 0, r, r)
		if err != nil {
			b.Fatal(err)
		}
		timed(3, func() { must(clblas.Gemm(blas.Trans, blas.NoTrans, -1, bv, bv, 0, sc)) })
		// Trmm by the diagonal block on a view of the same shape, as
		// Trsm by an inverse the CPU computed would be.
		tv, err := scratch.View(0, 0, jb, r)
		if err != nil {
			b.Fatal(err)
		}
		timed(6, func() { must(clblas.Trmm(blas.Left, blas.Upper, blas.Trans, blas.NonUnit, 1, diag, tv)) })
	}
}
