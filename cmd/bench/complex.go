package main

import (
	"fmt"
	"log"
	"math"
	"math/cmplx"
	"math/rand/v2"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"

	clblas "github.com/gocompute/opencl/blas"
	"github.com/gocompute/opencl/internal/clblast"
)

// complexMain is the -complex mode: ZGEMM and CGEMM (NN, m = n = k) in
// GFLOP/s counting 8·m·n·k real flops, resident (beside CLBlast's Zgemm and
// Cgemm on the same buffers when linked in), from Go slices, and gonum's
// Zgemm/Cgemm up to gonumMax.
func complexMain(b *bencher, sizes []int, precs []string, withSlices bool) {
	fmt.Printf("complex GEMM, NN, GFLOP/s at 8·m·n·k real flops\n")
	fmt.Printf("%-10s %-6s %12s %12s %8s %12s %10s %10s\n", "routine", "n", "resident", "CLBlast", "ratio", "Go slices", "gonum", "rel.err")
	for _, p := range precs {
		for _, n := range sizes {
			var r complexRow
			switch p {
			case "32":
				r = measureComplex[complex64](b, n, withSlices)
			case "64":
				r = measureComplex[complex128](b, n, withSlices)
			default:
				log.Fatalf("bench: bad precision %q", p)
			}
			ratio := "-"
			if r.clblast > 0 {
				ratio = fmt.Sprintf("%.2fx", r.resident/r.clblast)
			}
			fmt.Printf("%-10s %-6d %12s %12s %8s %12s %10s %10.2g\n", r.name, n,
				cgf(r.resident), cgf(r.clblast), ratio, cgf(r.slices), cgf(r.gn), r.relErr)
		}
	}
}

type complexRow struct {
	name                          string
	resident, clblast, slices, gn float64
	relErr                        float64 // of our resident result, sampled rows
}

func measureComplex[T complex64 | complex128](b *bencher, n int, withSlices bool) complexRow {
	r := complexRow{name: "Zgemm"}
	if _, ok := any(T(0)).(complex64); ok {
		r.name = "Cgemm"
	}
	rnd := rand.New(rand.NewPCG(2, uint64(n)))
	a, bb, c := crandom[T](rnd, n*n), crandom[T](rnd, n*n), make([]T, n*n)
	flops := 8 * float64(n) * float64(n) * float64(n)

	da, err1 := clblas.NewMatrixFrom(b.impl, n, n, a)
	db, err2 := clblas.NewMatrixFrom(b.impl, n, n, bb)
	dc, err3 := clblas.NewMatrix[T](b.impl, n, n)
	if err1 != nil || err2 != nil || err3 != nil {
		log.Printf("bench: %v %v %v", err1, err2, err3)
		return r
	}
	defer da.Release()
	defer db.Release()
	defer dc.Release()
	ours := func(batch int) error {
		var last *clblas.Event
		for range batch {
			ev, err := clblas.Gemm(blas.NoTrans, blas.NoTrans, 1, da, db, 0, dc)
			if err != nil {
				return err
			}
			last = ev
		}
		return last.Wait()
	}
	if err := ours(1); err != nil {
		log.Printf("bench: %v", err)
		return r
	}
	got := make([]T, n*n)
	if err := dc.Read(got); err != nil {
		log.Printf("bench: %v", err)
		return r
	}
	r.relErr = complexErr(n, a, bb, got)
	if clblast.Available {
		q := b.impl.Runtime().Queue()
		bufA, offA, _ := da.Buffer()
		bufB, offB, _ := db.Buffer()
		bufC, offC, _ := dc.Buffer()
		theirs := func(batch int) error {
			for range batch {
				if err := clblast.ComplexGemm[T](q, 0, 0, n, n, n, 1, bufA, offA, n, bufB, offB, n, 0, bufC, offC, n); err != nil {
					return err
				}
			}
			return q.Finish()
		}
		rates := b.medians(flops, ours, theirs)
		r.resident, r.clblast = rates[0], rates[1]
	} else {
		r.resident = b.medians(flops, ours)[0]
	}
	call := func(impl blas.Complex128, impl64 blas.Complex64) {
		switch a := any(a).(type) {
		case []complex128:
			impl.Zgemm(blas.NoTrans, blas.NoTrans, n, n, n, 1, a, n, any(bb).([]complex128), n, 0, any(c).([]complex128), n)
		case []complex64:
			impl64.Cgemm(blas.NoTrans, blas.NoTrans, n, n, n, 1, a, n, any(bb).([]complex64), n, 0, any(c).([]complex64), n)
		}
	}
	if withSlices {
		r.slices = b.median(flops, func(batch int) error {
			for range batch {
				call(b.impl, b.impl)
			}
			return nil
		})
	}
	if n <= b.gonumMax {
		r.gn = b.median(flops, func(batch int) error {
			for range batch {
				call(gonum.Implementation{}, gonum.Implementation{})
			}
			return nil
		})
	}
	return r
}

// complexErr is the largest error of up to 16 rows of c = a·b (n×n)
// against the product computed in complex128, relative to the largest
// element of those rows.
func complexErr[T complex64 | complex128](n int, a, b, c []T) float64 {
	var diff, scale float64
	for s := range min(n, 16) {
		i := s * n / min(n, 16)
		for j := range n {
			var want complex128
			for p := range n {
				want += complex128(a[i*n+p]) * complex128(b[p*n+j])
			}
			diff = math.Max(diff, cmplx.Abs(complex128(c[i*n+j])-want))
			scale = math.Max(scale, cmplx.Abs(want))
		}
	}
	return diff / scale
}

func crandom[T complex64 | complex128](rnd *rand.Rand, n int) []T {
	s := make([]T, n)
	for i := range s {
		s[i] = T(complex(rnd.Float64()-0.5, rnd.Float64()-0.5))
	}
	return s
}

// cgf is gf with a decimal below 10 GFLOP/s (gonum's complex GEMM runs at
// a few GFLOP/s).
func cgf(v float64) string {
	if v > 0 && v < 10 {
		return fmt.Sprintf("%.1f", v)
	}
	return gf(v)
}
