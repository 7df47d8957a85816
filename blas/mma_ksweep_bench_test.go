package clblas

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/blas"

	eng "github.com/gocompute/opencl/internal/engine"
)

var (
	ksweepK    = flag.String("ksweep.k", "128,256,512,1024,2048", "BenchmarkMMAKSweep: comma-separated k")
	ksweepMN   = flag.String("ksweep.mn", "512x1024", "BenchmarkMMAKSweep: m×n of C")
	ksweepOnly = flag.String("ksweep.only", "^(mma-small|small-wk2|small-s3-wk2)$", "BenchmarkMMAKSweep: a regular expression for BenchmarkZgemmVariants' variants to run")
	ksweepPrec = flag.Int("ksweep.prec", 32, "BenchmarkMMAKSweep: 32 or 64")
)

// BenchmarkMMAKSweep times the resident real product C = A·B (NN, m×n
// from -ksweep.mn, float32 or with -ksweep.prec 64 float64) across k with
// the tensor-core tiles of BenchmarkZgemmVariants (its variants of that
// precision at n = m, forced through the engine's choice cache), calls
// back to back. The time against k tells a
// tile's fixed cost (launch, first tiles, epilogue) from its cost per K
// tile: complex GEMM at 512 is the real product 512×1024×1024. GFLOP/s
// count 2·m·n·k.
//
//	go test -run '^$' -bench MMAKSweep ./blas -ksweep.k 256,1024
func BenchmarkMMAKSweep(b *testing.B) {
	impl := newTestImpl(b)
	e := impl.eng
	var m, n int
	if _, err := fmt.Sscanf(*ksweepMN, "%dx%d", &m, &n); err != nil || m < 1 || n < 1 {
		b.Fatalf("bad -ksweep.mn %q", *ksweepMN)
	}
	var ks []int
	for _, f := range strings.Split(*ksweepK, ",") {
		k, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || k < 1 {
			b.Fatalf("bad -ksweep.k %q", *ksweepK)
		}
		ks = append(ks, k)
	}
	only := regexp.MustCompile(*ksweepOnly)
	switch *ksweepPrec {
	case 32:
		ksweep[float32](b, impl, m, n, ks, only)
	case 64:
		if !e.Prof.FP64 {
			b.Skip("no fp64")
		}
		ksweep[float64](b, impl, m, n, ks, only)
	default:
		b.Fatalf("bad -ksweep.prec %d", *ksweepPrec)
	}
}

func ksweep[T float32 | float64](b *testing.B, impl *Implementation, m, n int, ks []int, only *regexp.Regexp) {
	e := impl.eng
	prec := eng.PrecisionOf[T]()
	names, variants := zgemmVariants(e, prec, m)
	rnd := rand.New(rand.NewPCG(3, 4))
	for _, k := range ks {
		a, bb := make([]T, m*k), make([]T, k*n)
		for i := range a {
			a[i] = T(rnd.Float64() - 0.5)
		}
		for i := range bb {
			bb[i] = T(rnd.Float64() - 0.5)
		}
		da, err1 := NewMatrixFrom(impl, m, k, a)
		db, err2 := NewMatrixFrom(impl, k, n, bb)
		dc, err3 := NewMatrix[T](impl, m, n)
		if err1 != nil || err2 != nil || err3 != nil {
			b.Fatal(err1, err2, err3)
		}
		shape := eng.GemmShape{Prec: prec, M: m, N: n, K: k, Mode: e.Tensor}
		for _, name := range names {
			z := variants[name]
			if !z.forced || z.method != eng.Z4M || z.expand || z.cfg.SplitZ > 1 || !only.MatchString(name) {
				continue
			}
			b.Run(fmt.Sprintf("k%d/%s", k, name), func(b *testing.B) {
				e.GemmChoices.Set(shape, z.cfg)
				call := func() (*Event, error) { return Gemm(blas.NoTrans, blas.NoTrans, 1, da, db, 0, dc) }
				enqueueWait(b, 1, call)
				b.ResetTimer()
				enqueueWait(b, b.N, call)
				b.StopTimer()
				b.ReportMetric(2*float64(m)*float64(n)*float64(k)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
		}
		da.Release()
		db.Release()
		dc.Release()
	}
}
