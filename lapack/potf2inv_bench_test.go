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

// BenchmarkPotf2Inv times potf2_inv alone: 64 launches back to back, each
// on its own positive definite 64×64 block of a 64×4096 matrix, then a
// wait, and reports µs a launch (launch costs included, as in Potrf's
// chain of steps). The variant is the device's default (the register
// version on GPUs, its grid -lapack.potfgrid wide) or -lapack.potfregs's;
// "floor" is the same launches with no block (n = 0). A faster diagonal
// block is
// what Cholesky on GPUs needs most (docs/notes.md); this is its measure.
//
//	go test -run XXX -bench Potf2Inv ./lapack
func BenchmarkPotf2Inv(b *testing.B) {
	impl := benchImpl(b)
	const nb, blocks = 64, 64
	blk := spdBench(nb, rand.New(rand.NewPCG(3, 4)))
	host := make([]float64, nb*nb*blocks)
	for r := range nb {
		for k := range blocks {
			copy(host[r*nb*blocks+k*nb:], blk[r*nb:(r+1)*nb])
		}
	}
	d, err := clblas.NewMatrix[float64](impl.blas, nb, nb*blocks)
	if err != nil {
		b.Fatal(err)
	}
	defer d.Release()
	inv, err := clblas.NewMatrix[float64](impl.blas, nb, nb)
	if err != nil {
		b.Fatal(err)
	}
	defer inv.Release()
	ctx, q := impl.blas.Runtime().Context(), impl.blas.Runtime().Queue()
	info, err := cl.NewArray[int32](ctx, cl.MemReadWrite, 1)
	if err != nil {
		b.Fatal(err)
	}
	defer info.Release()
	buf, off, err := d.Buffer()
	if err != nil {
		b.Fatal(err)
	}
	ibuf, ioff, err := inv.Buffer()
	if err != nil {
		b.Fatal(err)
	}
	wg := impl.potfGroup()
	// "floor" launches the kernel on empty blocks (n = 0): the cost of a
	// launch in the chain, with no step.
	cases := []struct {
		name string
		ul   blas.Uplo
		n    int
	}{{"U", blas.Upper, nb}, {"L", blas.Lower, nb}, {"floor", blas.Upper, 0}}
	for _, c := range cases {
		upper := int32(0)
		if c.ul == blas.Upper {
			upper = 1
		}
		b.Run(c.name, func(b *testing.B) {
			var total time.Duration
			for range b.N {
				ev, err := d.Write(host)
				if err == nil {
					err = ev.Wait()
				}
				if err == nil {
					var iev *cl.Event
					if iev, err = info.Write(q, 0, []int32{0}); err == nil {
						err = iev.Wait()
						iev.Release()
					}
				}
				if err != nil {
					b.Fatal(err)
				}
				start := time.Now()
				for k := range blocks {
					ev, err := launchOn[float64](impl, nil, nil, "potf2_inv", []int{wg}, []int{wg}, int32(c.n), upper,
						buf, int64(off+k*nb), int32(d.Stride()), ibuf, int64(ioff), int32(inv.Stride()), info, int32(0))
					if err == nil {
						err = ev.Release()
					}
					if err != nil {
						b.Fatal(err)
					}
				}
				if err := q.Finish(); err != nil {
					b.Fatal(err)
				}
				total += time.Since(start)
			}
			inf := make([]int32, 1)
			if err := info.Read(q, 0, inf); err != nil || inf[0] != 0 {
				b.Fatalf("info %d, %v", inf[0], err)
			}
			b.ReportMetric(total.Seconds()*1e6/float64(b.N*blocks), "µs/launch")
		})
	}
}

// BenchmarkTriBand times tri_band alone on a resident n×n matrix (the
// -lapack.sizes orders), as Potrf runs it on GPUs: the band of 1 023
// elements beside the diagonal saved, then restored, ten pairs back to
// back and a wait; it reports µs a launch and the GB/s of the bytes a
// launch must move (each band element read once and written once).
//
//	go test -run XXX -bench TriBand -lapack.sizes 4096 ./lapack
func BenchmarkTriBand(b *testing.B) {
	impl := benchImpl(b)
	for _, n := range sizes(b) {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			d, err := clblas.NewMatrix[float64](impl.blas, n, n)
			if err != nil {
				b.Fatal(err)
			}
			defer d.Release()
			p := &potrfRun[float64]{impl: impl, ul: blas.Upper, d: d, n: n, nb: 64, outer: 1024, bw: min(1024, n) - 1}
			if err := p.alloc(); err != nil {
				b.Fatal(err)
			}
			defer p.release()
			const pairs = 10
			per := timeLaunches(b, impl.blas.Runtime().Queue(), pairs, func() error {
				if err := p.band(true); err != nil {
					return err
				}
				return p.band(false)
			}) / 2
			elems := float64(n)*float64(p.bw) - float64(p.bw)*float64(p.bw+1)/2
			b.ReportMetric(per*1e6, "µs/launch")
			b.ReportMetric(2*8*elems/per/1e9, "GB/s")
		})
	}
}

// timeLaunches enqueues launches batches of what enqueue enqueues, back
// to back between two waits for q, b.N times, and returns the mean
// seconds of one batch.
func timeLaunches(b *testing.B, q *cl.Queue, launches int, enqueue func() error) float64 {
	var total time.Duration
	for range b.N {
		if err := q.Finish(); err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		for range launches {
			if err := enqueue(); err != nil {
				b.Fatal(err)
			}
		}
		if err := q.Finish(); err != nil {
			b.Fatal(err)
		}
		total += time.Since(start)
	}
	return total.Seconds() / float64(b.N*launches)
}
