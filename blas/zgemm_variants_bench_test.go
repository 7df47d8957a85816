package clblas

import (
	"flag"
	"fmt"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/blas"

	eng "github.com/gocompute/opencl/internal/engine"
	"github.com/gocompute/opencl/internal/gemm"
)

// BenchmarkZgemmVariants times resident Zgemm and Cgemm (NN, m = n = k)
// with each way the device could form them, forced through the engine's
// choice cache and method. By the 4M method (one real GEMM of m×2n×2k on
// A and B packed as a real 2k×2n matrix): "choice" (what the library
// picks), "choice-expand" and "mma-small-expand" (the same without the
// packed B: the tensor-core kernel expands the complex B itself, ZEXP_B,
// Engine.ZExpandB), "fma" (the FMA kernel the tuning
// database picks without tensor cores), "mma" (the database's tensor-core
// tile, however few its work-groups), "mma-small" (the small tensor-core
// tile, internal/gemm/mma_small.go), "mma-64x32" (half of it, 32×16 warp
// tiles), "small-k16s4" (the small tile with K steps of 16 and 4 stages),
// "small-w8" (eight 32×16 warps), and "small-zS" / "mma-zS": those tiles with K split in S slices
// across work-group dimension 2 (Config.SplitZ, one launch and a sum);
// "small-wkG", "w64x32-wkG" (64×32 warps) and "mma-wkG": tiles with G K
// groups of warps (Config.WarpsK), "-expand" with B expanded in the
// kernel, "-3m" (float) with B expanded and the 3M method's three
// products formed in that kernel (gemm_mma's Z3M), and "small-s3…" and
// "w64x32-s3…" those tiles with three stages. By
// the 3M method (three real GEMMs of m×n×k): "3m-seq" (one after another,
// each the choice for m×n×k), "3m-batch" (one batched launch, the choice
// for 3m×n×k: what the library does), "3m-batch-small" (batched on the small
// tile). The tensor-core variants run only on devices that have tensor
// cores. GFLOP/s count 8·m·n·k real flops, calls back to back.
//
//	go test -run '^$' -bench ZgemmVariants -benchtime 2s ./blas -zvar.sizes 512,768
func BenchmarkZgemmVariants(b *testing.B) {
	newTestImpl(b) // skips without a device
	impl, err := New()
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { impl.Close() })
	var sizes []int
	for _, f := range strings.Split(*zvarSizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			b.Fatalf("bad -zvar.sizes %q", *zvarSizes)
		}
		sizes = append(sizes, n)
	}
	if impl.eng.Prof.IsCPU() {
		sizes = []int{64}
	}
	for _, n := range sizes {
		b.Run(fmt.Sprintf("Zgemm/%d", n), func(b *testing.B) { benchZgemmVariants[complex128](b, impl, n) })
		b.Run(fmt.Sprintf("Cgemm/%d", n), func(b *testing.B) { benchZgemmVariants[complex64](b, impl, n) })
	}
}

var (
	zvarSizes = flag.String("zvar.sizes", "512,1024", "BenchmarkZgemmVariants: comma-separated n (m = n = k)")
	zvarOnly  = flag.String("zvar.only", "", "BenchmarkZgemmVariants: a regular expression the variants' names must match (choice, choice-expand and fma always run)")
)

// zVariant is one way of BenchmarkZgemmVariants: the method, and the
// configuration forced for the real GEMM's shape (none: the choice's).
type zVariant struct {
	method eng.ZMethod
	seq    bool // 3M's GEMMs one after another
	expand bool // 4M lets a kernel that can expand B do so instead of packing it
	z3m    bool // that kernel forms the 3M method's products instead (Engine.ZFused4M off)
	cfg    gemm.Config
	forced bool
}

// zgemmVariants are the variants of BenchmarkZgemmVariants for a complex
// n×n×n product in precision prec on e's device, by name.
func zgemmVariants(e *eng.Engine, prec, n int) ([]string, map[string]zVariant) {
	dev := e.GemmDev()
	names := []string{"choice", "choice-expand", "fma"}
	if prec == 32 {
		names = append(names, "choice-4m")
	}
	v := map[string]zVariant{
		"choice":        {method: eng.ZAuto, z3m: true}, // the library's default
		"choice-expand": {method: eng.ZAuto, expand: true},
		"choice-4m":     {method: eng.ZAuto},
		"fma":           {method: eng.Z4M, cfg: gemm.Choose(e.Tuning, dev, prec, n, 2*n, 2*n, gemm.TensorOff), forced: true},
	}
	base := v["fma"].cfg
	base.SplitK, base.KSlice = 0, 0
	add := func(name string, z zVariant) {
		if *zvarOnly == "" || regexp.MustCompile(*zvarOnly).MatchString(name) {
			names, v[name] = append(names, name), z
		}
	}
	split := func(name string, cfg gemm.Config) {
		for _, s := range []int{2, 4} {
			c := cfg
			c.SplitZ = s
			add(fmt.Sprintf("%s-z%d", name, s), zVariant{method: eng.Z4M, cfg: c, forced: true})
		}
	}
	// The database's tile: its choice for a large square.
	if mma, ok := gemm.MMA(e.Tuning, dev, prec, 4096, 4096, gemm.TensorTF32x3, base); ok {
		add("mma", zVariant{method: eng.Z4M, cfg: mma, forced: true})
		if small, ok := gemm.MMASmall(dev, prec, mma); ok {
			add("mma-small", zVariant{method: eng.Z4M, cfg: small, forced: true})
			add("mma-small-expand", zVariant{method: eng.Z4M, cfg: small, forced: true, expand: true})
			// Half the small tile again (twice its work-groups).
			half := small
			half.MMANWG, half.WN = small.MMANWG/2, small.WN/2
			if gemm.Valid(dev, prec, false, false, half) == nil {
				add("mma-64x32", zVariant{method: eng.Z4M, cfg: half, forced: true})
			}
			split("small", small)
			// The small tile with a shorter K step and more stages, and
			// with eight 32×16 warps.
			deep := small
			deep.MMAKWG, deep.Stages = 16, 4
			if gemm.Valid(dev, prec, false, false, deep) == nil && (dev.LocalMemBytes == 0 || deep.MMALocalBytes(prec) <= dev.LocalMemBytes) {
				add("small-k16s4", zVariant{method: eng.Z4M, cfg: deep, forced: true})
			}
			w8 := small
			w8.WN = small.WN / 2
			if gemm.Valid(dev, prec, false, false, w8) == nil {
				add("small-w8", zVariant{method: eng.Z4M, cfg: w8, forced: true})
			}
			add("3m-batch-small", zVariant{method: eng.Z3M, cfg: small, forced: true})
			// K groups of warps (WARPS_K): the small tile with its 32×32
			// warps, and with 64×32 warps (two a K group), 2 or 4 groups;
			// and the small tile with a third stage.
			fits := func(c gemm.Config) bool {
				return gemm.Valid(dev, prec, false, false, c) == nil &&
					(dev.LocalMemBytes == 0 || c.MMALocalBytes(prec) <= dev.LocalMemBytes)
			}
			wide := small
			wide.WM, wide.WN = 64, 32
			for _, w := range []int{1, 2, 4} {
				for _, base := range []struct {
					name string
					cfg  gemm.Config
				}{{"small", small}, {"w64x32", wide}} {
					c := base.cfg
					c.WarpsK = w
					if (w > 1 || base.name != "small") && fits(c) {
						add(fmt.Sprintf("%s-wk%d", base.name, w), zVariant{method: eng.Z4M, cfg: c, forced: true})
						add(fmt.Sprintf("%s-wk%d-expand", base.name, w), zVariant{method: eng.Z4M, cfg: c, forced: true, expand: true})
						if prec == 32 && w > 1 {
							add(fmt.Sprintf("%s-wk%d-3m", base.name, w), zVariant{method: eng.Z4M, cfg: c, forced: true, expand: true, z3m: true})
						}
					}
				}
			}
			s3 := small
			s3.Stages = 3
			if fits(s3) {
				add("small-s3", zVariant{method: eng.Z4M, cfg: s3, forced: true})
				s3.WarpsK = 2
				if fits(s3) {
					add("small-s3-wk2", zVariant{method: eng.Z4M, cfg: s3, forced: true})
					add("small-s3-wk2-expand", zVariant{method: eng.Z4M, cfg: s3, forced: true, expand: true})
					if prec == 32 {
						add("small-s3-wk2-3m", zVariant{method: eng.Z4M, cfg: s3, forced: true, expand: true, z3m: true})
					}
				}
				w3 := wide
				w3.Stages, w3.WarpsK = 3, 2
				if prec == 32 && fits(w3) {
					add("w64x32-s3-wk2-3m", zVariant{method: eng.Z4M, cfg: w3, forced: true, expand: true, z3m: true})
				}
			}
		}
		split("mma", mma)
		// The database's tile with K groups of warps.
		for _, w := range []int{2, 4} {
			c := mma
			c.WarpsK, c.PipeFrag, c.MMATrans = w, false, [2][2]gemm.MMASwitch{}
			if gemm.Valid(dev, prec, false, false, c) == nil {
				add(fmt.Sprintf("mma-wk%d", w), zVariant{method: eng.Z4M, cfg: c, forced: true})
			}
		}
	}
	add("3m-seq", zVariant{method: eng.Z3M, seq: true})
	add("3m-batch", zVariant{method: eng.Z3M})
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
	shape4 := eng.GemmShape{Prec: prec, M: n, N: 2 * n, K: 2 * n, Mode: e.Tensor}
	shape3 := eng.GemmShape{Prec: prec, M: 3 * n, N: n, K: n, Mode: e.Tensor}
	choice4 := gemm.Choose(e.Tuning, e.GemmDev(), prec, n, 2*n, 2*n, e.Tensor)
	choice3 := gemm.Choose(e.Tuning, e.GemmDev(), prec, 3*n, n, n, e.Tensor)
	defer func() {
		e.GemmChoices.Set(shape4, choice4)
		e.GemmChoices.Set(shape3, choice3)
		e.ZMethod, e.Z3MSeq, e.ZExpandB, e.ZFused4M = eng.ZAuto, false, eng.ZExpandAuto, false
	}()
	names, variants := zgemmVariants(e, prec, n)
	for _, name := range names {
		z := variants[name]
		b.Run(name, func(b *testing.B) {
			e.GemmChoices.Set(shape4, choice4)
			e.GemmChoices.Set(shape3, choice3)
			if z.forced {
				e.GemmChoices.Set(shape4, z.cfg)
				e.GemmChoices.Set(shape3, z.cfg)
			}
			e.ZMethod, e.Z3MSeq, e.ZExpandB, e.ZFused4M = z.method, z.seq, eng.ZExpandOff, !z.z3m
			switch {
			case z.expand:
				e.ZExpandB = eng.ZExpandOn
			case name == "choice" || name == "choice-4m":
				e.ZExpandB = eng.ZExpandAuto // what the library does
			}
			call := func() (*Event, error) { return Gemm(blas.NoTrans, blas.NoTrans, 1, da, db, 0, dc) }
			run := func(calls int) { enqueueWait(b, calls, call) }
			run(1) // warm: the program built
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			cpu0, ok0 := threadCPU()
			b.ResetTimer()
			start := time.Now()
			run(b.N)
			d := time.Since(start)
			b.StopTimer()
			cpu1, ok1 := threadCPU()
			b.ReportMetric(8*float64(n)*float64(n)*float64(n)*float64(b.N)/d.Seconds()/1e9, "GFLOP/s")
			if ok0 && ok1 {
				b.ReportMetric(float64(cpu1-cpu0)/float64(b.N)/1e3, "host-µs/op")
			}
			b.ReportMetric(zgemmSampledErr(b, dc, x, n), "rel-err")
			kern, longest, span, launches := zgemmProfile(b, e, da, db, dc, n)
			b.ReportMetric(kern.Seconds()*1e6, "kern-µs")
			b.ReportMetric(longest.Seconds()*1e6, "longest-µs")
			b.ReportMetric(span.Seconds()*1e6, "span-µs")
			b.ReportMetric(float64(launches), "launches")
		})
	}
}

// zgemmProfile runs the n×n×n product C = A·B as the engine's own call
// on a profiling queue (every command then has a profiled event) a few
// times and
// returns, from the fastest, its kernels' summed device time, the longest
// kernel's (the GEMM's, unless split), the span
// from the first kernel's start to the last one's end (gaps between
// kernels included), and the number of commands.
func zgemmProfile[T eng.Complex](b *testing.B, e *eng.Engine, da, db, dc *Matrix[T], n int) (kern, longest, span time.Duration, launches int) {
	kern, longest, span = time.Duration(math.MaxInt64), time.Duration(math.MaxInt64), time.Duration(math.MaxInt64)
	_, q, _, err := e.Pipe.Get(e.RT) // a profiling queue
	if err != nil {
		b.Fatal(err)
	}
	if err := e.Queue.Finish(); err != nil { // the data's writes
		b.Fatal(err)
	}
	for range 5 {
		c := eng.Begin[T](e, "zvar-profile")
		c.OnQueue(q)
		if _, ok := any(T(0)).(complex64); ok {
			eng.ZgemmOnDevice[float32](c, blas.NoTrans, blas.NoTrans, n, n, n, 1, 0, da.st.buf, da.off, da.stride, db.st.buf, db.off, db.stride, dc.st.buf, dc.off, dc.stride)
		} else {
			eng.ZgemmOnDevice[float64](c, blas.NoTrans, blas.NoTrans, n, n, n, 1, 0, da.st.buf, da.off, da.stride, db.st.buf, db.off, db.stride, dc.st.buf, dc.off, dc.stride)
		}
		if c.Err == nil {
			q.Finish()
		}
		var first, last uint64
		var long time.Duration
		for i, ev := range c.Events {
			p, err := ev.Profile()
			if err != nil {
				break
			}
			long = max(long, p.Duration())
			if i == 0 || p.Start < first {
				first = p.Start
			}
			last = max(last, p.End)
		}
		k := time.Duration(eng.EventTime(c.Events))
		launches = len(c.Events)
		if err := c.Finish(); err != nil {
			b.Fatal(err)
		}
		kern, longest, span = min(kern, k), min(longest, long), min(span, time.Duration(last-first))
	}
	return kern, longest, span, launches
}

// zgemmSampledErr reads dc, which holds x·x (n×n, row-major), and returns
// the largest error of 64 sampled elements against their sums in
// complex128, relative to the largest of those sums.
func zgemmSampledErr[T eng.Complex](b *testing.B, dc *Matrix[T], x []T, n int) float64 {
	got := make([]T, n*n)
	if err := dc.Read(got); err != nil {
		b.Fatal(err)
	}
	rnd := rand.New(rand.NewPCG(5, uint64(n)))
	var worst, scale float64
	for range 64 {
		i, j := rnd.IntN(n), rnd.IntN(n)
		var want complex128
		for p := range n {
			want += complex128(x[i*n+p]) * complex128(x[p*n+j])
		}
		worst = max(worst, cmplx.Abs(complex128(got[i*n+j])-want))
		scale = max(scale, cmplx.Abs(want))
	}
	return worst / scale
}
