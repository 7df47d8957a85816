package clblas

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"gonum.org/v1/gonum/blas"

	eng "github.com/gocompute/opencl/internal/engine"
	"github.com/gocompute/opencl/internal/gemm"
)

// BenchmarkZgemmVariants times resident Zgemm and Cgemm (NN, m = n = k)
// with each kernel the real GEMM of their m×2n×2k product could run, forced
// through the engine's choice cache: "choice" (what the library picks),
// "fma" (the FMA kernel the tuning database picks without tensor cores),
// "mma" (the database's tensor-core tile, however few its work-groups),
// "mma-small" (the small tensor-core tile, internal/gemm/mma_small.go) and
// "mma-64x32" (half of it, 32×16 warp tiles).
// The tensor-core variants run only on devices that have tensor cores.
// GFLOP/s count 8·m·n·k real flops, calls back to back.
//
//	go test -run '^$' -bench ZgemmVariants -benchtime 2s ./blas
func BenchmarkZgemmVariants(b *testing.B) {
	newTestImpl(b) // skips without a device
	impl, err := New()
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { impl.Close() })
	sizes := []int{512, 1024}
	if impl.eng.Prof.IsCPU() {
		sizes = []int{64}
	}
	for _, n := range sizes {
		b.Run(fmt.Sprintf("Zgemm/%d", n), func(b *testing.B) { benchZgemmVariants[complex128](b, impl, n) })
		b.Run(fmt.Sprintf("Cgemm/%d", n), func(b *testing.B) { benchZgemmVariants[complex64](b, impl, n) })
	}
}

// zgemmVariants are the configurations of BenchmarkZgemmVariants for the
// real m×n×k GEMM of a complex product on e's device, by name.
func zgemmVariants(e *eng.Engine, prec, m, n, k int) ([]string, map[string]gemm.Config) {
	dev := e.GemmDev()
	names := []string{"choice", "fma"}
	v := map[string]gemm.Config{
		"choice": gemm.Choose(e.Tuning, dev, prec, m, n, k, e.Tensor),
		"fma":    gemm.Choose(e.Tuning, dev, prec, m, n, k, gemm.TensorOff),
	}
	base := v["fma"]
	base.SplitK, base.KSlice = 0, 0
	// The database's tile: its choice for a large square.
	if mma, ok := gemm.MMA(e.Tuning, dev, prec, 4096, 4096, gemm.TensorTF32x3, base); ok {
		names, v["mma"] = append(names, "mma"), mma
		if small, ok := gemm.MMASmall(dev, prec, mma); ok {
			names, v["mma-small"] = append(names, "mma-small"), small
			// Half the small tile again (twice its work-groups).
			half := small
			half.MMANWG, half.WN = small.MMANWG/2, small.WN/2
			if gemm.Valid(dev, prec, false, false, half) == nil {
				names, v["mma-64x32"] = append(names, "mma-64x32"), half
			}
		}
	}
	return names, v
}

func benchZgemmVariants[T eng.Complex](b *testing.B, impl *Implementation, n int) {
	e := impl.eng
	prec := eng.PrecisionOf[T]()
	if prec == 64 && !e.Prof.FP64 {
		b.Skip("no fp64")
	}
	rnd := rand.New(rand.NewPCG(1, uint64(n)))
	x := make([]T, n*n)
	for i := range x {
		x[i] = T(complex(rnd.Float64()-0.5, rnd.Float64()-0.5))
	}
	da, err1 := NewMatrixFrom(impl, n, n, x)
	db, err2 := NewMatrixFrom(impl, n, n, x)
	dc, err3 := NewMatrix[T](impl, n, n)
	if err1 != nil || err2 != nil || err3 != nil {
		b.Fatal(err1, err2, err3)
	}
	defer da.Release()
	defer db.Release()
	defer dc.Release()
	shape := eng.GemmShape{Prec: prec, M: n, N: 2 * n, K: 2 * n, Mode: e.Tensor}
	names, variants := zgemmVariants(e, prec, n, 2*n, 2*n)
	defer e.GemmChoices.Set(shape, variants["choice"])
	for _, name := range names {
		cfg := variants[name]
		b.Run(name, func(b *testing.B) {
			e.GemmChoices.Set(shape, cfg)
			run := func(calls int) {
				var last *Event
				for range calls {
					ev, err := Gemm(blas.NoTrans, blas.NoTrans, 1, da, db, 0, dc)
					if err != nil {
						b.Fatal(err)
					}
					last = ev
				}
				if err := last.Wait(); err != nil {
					b.Fatal(err)
				}
			}
			run(1) // warm: the program built
			b.ResetTimer()
			start := time.Now()
			run(b.N)
			d := time.Since(start)
			b.ReportMetric(8*float64(n)*float64(n)*float64(n)*float64(b.N)/d.Seconds()/1e9, "GFLOP/s")
		})
	}
}
