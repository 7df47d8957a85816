package cllapack

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"gonum.org/v1/gonum/blas"

	"github.com/gocompute/opencl/cl"

	clblas "github.com/gocompute/opencl/blas"
)

// BenchmarkPotrfParts runs the steps of the resident blocked Cholesky
// (Upper, potrf's own operations) one at a time, waiting for each, and
// reports the share of the time each kind takes: panel (the CPU's Dpotf2
// and Dtrtri of a diagonal block), write (the block and its inverse),
// trsm (U12 = U11⁻ᵀ·A12 as a GEMM and its copy), next (the next block
// row's GEMM), read (the next diagonal block) and slabs (the rest of the
// trailing update). It is a profile, not the pipelined factorization: it
// shows which operation to make faster. The nb's are those of -lapack.nb
// and 256; the slab is -lapack.slab. Without -lapack.hostdiag the
// diagonal blocks are factorised on the device (potrfPartsDevice).
//
//	go test -run XXX -bench PotrfParts -lapack.sizes 4096 ./lapack
func BenchmarkPotrfParts(b *testing.B) {
	impl := benchImpl(b)
	for _, n := range sizes(b) {
		orig := spdBench(n, rand.New(rand.NewPCG(1, uint64(n))))
		nb0 := *benchNB
		if nb0 <= 0 {
			nb0 = impl.potrfBlock()
		}
		for _, nb := range []int{nb0, 256} {
			b.Run(fmt.Sprintf("n=%d/nb=%d", n, nb), func(b *testing.B) {
				d, err := clblas.NewMatrix[float64](shared.blas, n, n)
				if err != nil {
					b.Fatal(err)
				}
				defer d.Release()
				var parts [6]time.Duration
				b.ResetTimer()
				for range b.N {
					b.StopTimer()
					if ev, err := d.Write(orig); err != nil || ev.Wait() != nil {
						b.Fatal(err)
					}
					b.StartTimer()
					potrfParts(b, impl, d, n, nb, &parts)
				}
				names := [6]string{"panel", "write", "trsm", "next", "read", "slabs"}
				var tot time.Duration
				for _, p := range parts {
					tot += p
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

func potrfParts(b *testing.B, impl *Implementation, d *clblas.Matrix[float64], n, nb int, parts *[6]time.Duration) {
	must := func(err error) {
		if err == nil {
			err = impl.blas.Runtime().Queue().Finish()
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	timed := func(k int, f func() error) {
		t := time.Now()
		must(f())
		parts[k] += time.Since(t)
	}
	p := &potrfRun[float64]{impl: impl, ul: blas.Upper, d: d, n: n, nb: min(nb, n)}
	p.bw = min(max(p.nb, impl.slab), n) - 1
	must(p.alloc())
	defer p.release()
	if !impl.hostDiag {
		potrfPartsDevice(b, p, timed)
		return
	}
	for j := 0; j < n; j += nb {
		jb := min(nb, n-j)
		diag, err := d.View(j, j, jb, jb)
		must(err)
		blk, inv := p.blocks[0][:jb*jb], p.invs[0][:jb*jb]
		timed(4, func() error { return diag.Read(blk) })
		timed(0, func() error {
			if !p.factorDiag(jb, blk, inv, true) {
				b.Fatal("not SPD")
			}
			return nil
		})
		timed(1, func() error {
			if _, err := diag.Write(blk); err != nil {
				return err
			}
			iv, err := p.dinv.View(0, 0, jb, jb)
			if err == nil {
				_, err = iv.Write(inv)
			}
			return err
		})
		k, r := j+jb, n-j-jb
		if r == 0 {
			break
		}
		timed(2, func() error {
			iv, _ := p.dinv.View(0, 0, jb, jb)
			a12, _ := d.View(j, k, jb, r)
			w, _ := p.dw.View(0, 0, jb, r)
			if err := gemm(impl, blas.Trans, blas.NoTrans, 1, iv, a12, 0, w); err != nil {
				return err
			}
			return copyMatrix(impl, w, a12)
		})
		jbn := min(nb, r)
		timed(3, func() error { return p.update(k, jb, 0, jbn, r) })
		timed(5, func() error {
			for s := jbn; s < r; s += impl.slab {
				if err := p.update(k, jb, s, min(impl.slab, r-s), r-s); err != nil {
					return err
				}
			}
			return nil
		})
	}
}

// potrfPartsDevice is potrfParts for the diagonal blocks on the device:
// panel is potf2_inv, trsm its GEMM and copy_ok, slabs the trailing
// update; nothing is read or written.
func potrfPartsDevice(b *testing.B, p *potrfRun[float64], timed func(int, func() error)) {
	info, err := cl.NewArray[int32](p.impl.blas.Runtime().Context(), cl.MemReadWrite, 1)
	if err != nil {
		b.Fatal(err)
	}
	defer info.Release()
	q := p.impl.blas.Runtime().Queue()
	if ev, err := info.Fill(q, 0, 0, 1); err != nil || ev.Wait() != nil {
		b.Fatal(err)
	}
	for j := 0; j < p.n; j += p.nb {
		jb := min(p.nb, p.n-j)
		timed(0, func() error { return p.potf2(j, jb, info) })
		k, r := j+jb, p.n-j-jb
		if r == 0 {
			break
		}
		timed(2, func() error { return p.trsmDevice(j, jb, info) })
		timed(5, func() error {
			for s := 0; s < r; s += p.impl.slab {
				if err := p.update(k, jb, s, min(p.impl.slab, r-s), r-s); err != nil {
					return err
				}
			}
			return nil
		})
	}
	inf := []int32{0}
	if err := info.Read(q, 0, inf); err != nil || inf[0] != 0 {
		b.Fatalf("info %d, %v", inf[0], err)
	}
}
