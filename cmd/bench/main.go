// Command bench measures GEMM in GFLOP/s (2·m·n·k / time) on the default
// OpenCL device: our kernels on device-resident data and from Go slices
// (the drop-in path), gonum's own Go code, and — built with -tags clblast —
// CLBlast on the same device in the same process.
//
//	go run ./cmd/bench -sizes 512,1024,4096 -prec 32,64 -trans NN,TN
//	go run -tags clblast ./cmd/bench -png gemm.png
//	go run ./cmd/bench -sizes 4096,8192 -prec 64,32 -split -gonum-max 2048
//	go run ./cmd/bench -sizes 8192 -prec 64 -split -pinned   # data in clblas.HostSlices
//	go run ./cmd/bench -accuracy -sizes 1024,2048,4096
//	go run -tags clblast ./cmd/bench -level 1,2 -png level12.png
//	go run -tags clblast ./cmd/bench -level 1,2 -prec c64,c128   # complex level 1 and 2
//	go run ./cmd/bench -devices all -sizes 4096,8192 -prec 64,32
//
// With -split, each shape is followed by lines that break the GEMM from
// Go slices (float64 through gonum's mat.Dense.Mul, float32 through Sgemm)
// into its parts — host copies into pinned staging (pack), uploads, kernels,
// downloads, the copy out to the user's slice (unpack) — per call, with the
// overlap achieved (sum of the parts over the wall time), the rate against
// the device-resident rate, and against gonum's Go code (measured at the
// largest size -gonum-max allows when the shape itself is larger); then the
// device's timeline: its span, the fill before the first kernel, the drain
// after the last upload, and the time the bus and the kernels sat idle.
//
// Each figure is the median of -reps timed repetitions after a warm-up
// call; a repetition enqueues enough back-to-back calls to last at least
// -min-time and waits for the last one. Our resident repetitions and
// CLBlast's alternate, so both see the same device state.
//
// With -devices, bench times GEMM from Go slices on each device the spec
// names alone and on all of them together, with each device's share of C
// (devices.go).
//
// With -accuracy, bench measures instead SGEMM's error ‖C − C₆₄‖_F/‖C₆₄‖_F
// against float64 for the FMA and 3xTF32 (tensor-core) kernels and gonum's
// float32 Go code, on uniform, badly scaled and cancelling inputs.
package main

import (
	"flag"
	"fmt"
	"log"
	"math"
	"math/rand/v2"
	"os"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/blas/gonum"
	"gonum.org/v1/gonum/mat"

	clblas "github.com/gocompute/opencl/blas"
	"github.com/gocompute/opencl/internal/clblast"
)

type shape struct{ m, n, k int }

func (s shape) String() string {
	if s.m == s.n && s.n == s.k {
		return strconv.Itoa(s.m)
	}
	return fmt.Sprintf("%dx%dx%d", s.m, s.n, s.k)
}

// row is one line of the result table; zero means "not measured".
type row struct {
	prec                          int
	trans                         string
	shape                         shape
	resident, clblast, slices, gn float64
	enqueue                       time.Duration // host time to enqueue one resident call
	split                         string        // the -split report, "" without
}

func main() {
	sizes := flag.String("sizes", "512,1024,2048,4096", "square sizes n (m = n = k)")
	shapes := flag.String("shapes", "", "rectangular shapes MxNxK, comma-separated (e.g. 8192x8192x256)")
	precs := flag.String("prec", "32,64", "precisions: 32, 64; with -level also c64, c128 (complex64, complex128)")
	transList := flag.String("trans", "NN", "transpose combinations: NN, NT, TN, TT")
	reps := flag.Int("reps", 5, "timed repetitions (the median is reported)")
	minTime := flag.Duration("min-time", 50*time.Millisecond, "least duration of one repetition")
	best := flag.Bool("best", false, "report the fastest repetition instead of the median (a shared, loaded machine: other work only ever adds time)")
	withSlices := flag.Bool("slices", true, "also time the drop-in path from Go slices")
	gonumMax := flag.Int("gonum-max", 1024, "largest m·n·k^(1/3) timed with gonum's Go code (it is slow)")
	pngPath := flag.String("png", "", "write a chart of the square NN results to this PNG file")
	accuracy := flag.Bool("accuracy", false, "report SGEMM's error against float64 (FMA, 3xTF32, gonum) for the square -sizes instead of timing")
	withSplit := flag.Bool("split", false, "break GEMM from Go slices into copy/upload/compute/download and report the overlap")
	splitReps := flag.Int("split-reps", 3, "calls timed for each -split line")
	pinned := flag.Bool("pinned", false, "time GEMM from Go slices (and -split) with the matrices in pinned clblas.HostSlices")
	duplexMiB := flag.Int("duplex", 0, "only report whether uploads and downloads of this many MiB run at once")
	duplexAfter := flag.Bool("duplex-after", false, "with -duplex: run the GEMM benchmarks first, then the report, in one process")
	xferMiB := flag.Int("xfer", 0, "only report host-copy and bus transfer rates for blocks of this many MiB")
	cpuProfile := flag.String("cpuprofile", "", "write a Go CPU profile of the run to this file")
	devicesSpec := flag.String("devices", "", "only report GEMM from Go slices on each of these devices alone and on all together (all, gpu:*, nvidia,pocl, …; env: GOCL_DEVICE)")
	level := flag.String("level", "", "instead of GEMM, time level 1 and/or 2 routines in GB/s (1, 2 or 1,2; level12.go)")
	l1n := flag.Int("l1n", 1<<26, "with -level: the vector length of level 1")
	l2n := flag.Int("l2n", 8192, "with -level: the matrix order of level 2")
	l12ops := flag.String("ops", "", "with -level: only these routines (e.g. DAXPY,DGEMV-T)")
	l12gonum := flag.Bool("l12gonum", false, "with -level: also time gonum's Go code on the same slices (one goroutine) and give ours resident as a multiple of it")
	complexMode := flag.Bool("complex", false, "time ZGEMM (-prec 64) and CGEMM (-prec 32) instead: resident, CLBlast, Go slices, gonum (see complex.go)")
	flag.Parse()

	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			log.Fatalf("bench: %v", err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			log.Fatalf("bench: %v", err)
		}
		defer pprof.StopCPUProfile()
	}

	if *accuracy {
		if err := accuracyMain(os.Stdout, *sizes); err != nil {
			log.Fatalf("bench: %v", err)
		}
		return
	}
	if *devicesSpec != "" {
		if err := devicesMain(os.Stdout, *devicesSpec, shapesOf(*sizes, *shapes), split(*precs), *reps, *minTime, *pinned); err != nil {
			log.Fatalf("bench: %v", err)
		}
		return
	}
	impl, err := clblas.New(clblas.WithOffload(clblas.Always))
	if err != nil {
		log.Fatalf("bench: %v", err)
	}
	defer impl.Close()
	fmt.Printf("device: %s\n", impl.DeviceName())
	fmt.Printf("date: %s, CLBlast linked: %v\n\n", time.Now().UTC().Format("2006-01-02"), clblast.Available)
	if *duplexMiB > 0 && !*duplexAfter {
		if err := duplexReport(impl.Runtime(), *duplexMiB); err != nil {
			log.Printf("bench: %v", err)
		}
		return
	}
	if *xferMiB > 0 {
		if err := xferReport(impl.Runtime(), *xferMiB); err != nil {
			log.Printf("bench: %v", err)
		}
		return
	}

	if *level != "" {
		levels, only := level12Flags(*level, *l12ops)
		b := &bencher{impl: impl, reps: *reps, minTime: *minTime, best: *best}
		if err := level12Main(b, levels, split(*precs), *l1n, *l2n, only, *withSlices, *l12gonum, *pngPath); err != nil {
			log.Fatalf("bench: %v", err)
		}
		return
	}
	if *complexMode {
		var ns []int
		for _, s := range split(*sizes) {
			ns = append(ns, atoi(s))
		}
		b := &bencher{impl: impl, reps: *reps, minTime: *minTime, gonumMax: *gonumMax, gonumRef: map[string]float64{}}
		complexMain(b, ns, split(*precs), *withSlices)
		return
	}

	list := shapesOf(*sizes, *shapes)

	b := &bencher{impl: impl, reps: *reps, minTime: *minTime, gonumMax: *gonumMax, gonumRef: map[string]float64{}, pinned: *pinned}
	if *withSplit {
		blas64.Use(impl) // mat.Dense.Mul goes through our Dgemm
		b.split = *splitReps
	}
	var rows []row
	fmt.Printf("%-5s %-5s %-16s %12s %12s %8s %12s %10s %9s\n", "prec", "trans", "m×n×k", "resident", "CLBlast", "ratio", "Go slices", "gonum", "enq µs")
	for _, p := range split(*precs) {
		for _, t := range split(*transList) {
			for _, s := range list {
				var r row
				switch p {
				case "32":
					r = measure[float32](b, t, s, *withSlices, cbrt(s) <= float64(*gonumMax))
				case "64":
					r = measure[float64](b, t, s, *withSlices, cbrt(s) <= float64(*gonumMax))
				default:
					log.Fatalf("bench: bad precision %q", p)
				}
				r.prec, r.trans, r.shape = atoi(p), t, s
				rows = append(rows, r)
				ratio := "-"
				if r.clblast > 0 {
					ratio = fmt.Sprintf("%.2fx", r.resident/r.clblast)
				}
				fmt.Printf("%-5d %-5s %-16v %12s %12s %8s %12s %10s %9.1f\n", r.prec, r.trans, r.shape,
					gf(r.resident), gf(r.clblast), ratio, gf(r.slices), gf(r.gn), r.enqueue.Seconds()*1e6)
				if r.split != "" {
					fmt.Print(r.split)
				}
			}
		}
	}
	if *pngPath != "" {
		if err := chart(rows, *pngPath, impl.DeviceName()); err != nil {
			log.Fatalf("bench: chart: %v", err)
		}
		fmt.Printf("\nchart written to %s\n", *pngPath)
	}
	if *duplexMiB > 0 && *duplexAfter {
		fmt.Println()
		if err := duplexReport(impl.Runtime(), *duplexMiB); err != nil {
			log.Printf("bench: %v", err)
		}
	}
}

// shapesOf is the shapes of -sizes (square) and -shapes (MxNxK).
func shapesOf(sizes, shapes string) []shape {
	var list []shape
	for _, s := range split(sizes) {
		n := atoi(s)
		list = append(list, shape{n, n, n})
	}
	for _, s := range split(shapes) {
		p := strings.Split(s, "x")
		if len(p) != 3 {
			log.Fatalf("bench: bad shape %q (want MxNxK)", s)
		}
		list = append(list, shape{atoi(p[0]), atoi(p[1]), atoi(p[2])})
	}
	return list
}

type bencher struct {
	impl     *clblas.Implementation
	reps     int
	minTime  time.Duration
	split    int  // calls per -split report; 0: no report
	pinned   bool // Go-slice figures with the data in clblas.HostSlices
	gonumMax int
	gonumRef map[string]float64 // gonum's GFLOP/s at gonumMax, by precision+trans
	best     bool               // the fastest repetition, not the median (-best; level 1/2)
}

// median times f (which runs `batch` calls and waits) and returns the
// median GFLOP/s; batch grows until one repetition lasts minTime.
func (b *bencher) median(flops float64, f func(batch int) error) float64 {
	return b.medians(flops, f)[0]
}

// medians is median for several functions at once: each is warmed up and
// given its own batch size, then their timed repetitions alternate (f₀,
// f₁, …, f₀, f₁, …), so that all of them see the same device state.
func (b *bencher) medians(flops float64, fs ...func(batch int) error) []float64 {
	batches := make([]int, len(fs))
	rates := make([][]float64, len(fs))
	out := make([]float64, len(fs))
	for i, f := range fs {
		if err := f(1); err != nil {
			log.Printf("bench: %v", err)
			return out
		}
		batch := 1
		for {
			t := time.Now()
			if err := f(batch); err != nil {
				log.Printf("bench: %v", err)
				return out
			}
			if d := time.Since(t); d >= b.minTime || batch >= 1<<12 {
				break
			}
			batch *= 2
		}
		batches[i] = batch
	}
	for range b.reps {
		for i, f := range fs {
			t := time.Now()
			if err := f(batches[i]); err != nil {
				log.Printf("bench: %v", err)
				return out
			}
			rates[i] = append(rates[i], flops*float64(batches[i])/time.Since(t).Seconds()/1e9)
		}
	}
	for i, r := range rates {
		slices.Sort(r)
		out[i] = r[len(r)/2]
		if b.best {
			out[i] = r[len(r)-1]
		}
	}
	return out
}

func measure[T float32 | float64](b *bencher, trans string, s shape, withSlices, withGonum bool) row {
	tA, tB := trans[0] == 'T', trans[1] == 'T'
	ar, ac := s.m, s.k
	if tA {
		ar, ac = s.k, s.m
	}
	br, bc := s.k, s.n
	if tB {
		br, bc = s.n, s.k
	}
	rnd := rand.New(rand.NewPCG(1, uint64(s.m)))
	a, bb, c := random[T](rnd, ar*ac), random[T](rnd, br*bc), make([]T, s.m*s.n)
	flops := 2 * float64(s.m) * float64(s.n) * float64(s.k)
	var r row

	ta, tb := blas.NoTrans, blas.NoTrans
	if tA {
		ta = blas.Trans
	}
	if tB {
		tb = blas.Trans
	}

	// Device-resident: ours, then CLBlast on the same buffers.
	da, err1 := clblas.NewMatrixFrom(b.impl, ar, ac, a)
	db, err2 := clblas.NewMatrixFrom(b.impl, br, bc, bb)
	dc, err3 := clblas.NewMatrix[T](b.impl, s.m, s.n)
	if err1 != nil || err2 != nil || err3 != nil {
		log.Printf("bench: %v %v %v", err1, err2, err3)
		return r
	}
	defer da.Release()
	defer db.Release()
	defer dc.Release()
	// enq is the host time spent enqueueing, over the timed calls (the
	// warm-up call, which builds the kernel, is left out).
	var enq time.Duration
	calls, warm := 0, false
	ours := func(batch int) error {
		var last *clblas.Event
		t := time.Now()
		for range batch {
			ev, err := clblas.Gemm(ta, tb, 1, da, db, 0, dc)
			if err != nil {
				return err
			}
			last = ev
		}
		if warm {
			enq += time.Since(t)
			calls += batch
		}
		warm = true
		return last.Wait()
	}
	// Our result is checked before anything else writes C.
	if err := ours(1); err != nil {
		log.Printf("bench: %v", err)
		return r
	}
	got := make([]T, s.m*s.n)
	if err := dc.Read(got); err != nil {
		log.Printf("bench: %v", err)
		return r
	}
	if err := verify(trans, s, a, ac, bb, bc, got); err != nil {
		log.Fatalf("bench: our %s GEMM %v gave a wrong result: %v", trans, s, err)
	}
	if clblast.Available {
		q := b.impl.Runtime().Queue()
		bufA, offA, _ := da.Buffer()
		bufB, offB, _ := db.Buffer()
		bufC, offC, _ := dc.Buffer()
		theirs := func(batch int) error {
			for range batch {
				if err := clblast.Gemm[T](q, tA, tB, s.m, s.n, s.k, 1, bufA, offA, ac, bufB, offB, bc, 0, bufC, offC, s.n); err != nil {
					return err
				}
			}
			return q.Finish()
		}
		// Interleaved, so that both see the same device state (clocks,
		// temperature) rather than one measured after the other.
		rates := b.medians(flops, ours, theirs)
		r.resident, r.clblast = rates[0], rates[1]
	} else {
		r.resident = b.medians(flops, ours)[0]
	}
	if calls > 0 {
		r.enqueue = enq / time.Duration(calls)
	}
	if b.pinned && (withSlices || b.split > 0) {
		// The Go-slice figures below run on copies in pinned memory.
		var free []func() error
		for _, x := range []*[]T{&a, &bb, &c} {
			hs, err := clblas.NewHostSlice[T](b.impl, len(*x))
			if err != nil {
				log.Printf("bench: %v", err)
				return r
			}
			copy(hs.Data(), *x)
			*x = hs.Data()
			free = append(free, hs.Release)
		}
		defer func() {
			for _, f := range free {
				f()
			}
		}()
	}
	if withSlices {
		r.slices = b.median(flops, func(batch int) error {
			for range batch {
				gemmSlices(b.impl, ta, tb, s, a, ac, bb, bc, c)
			}
			return nil
		})
	}
	if withGonum {
		r.gn = b.median(flops, func(batch int) error {
			for range batch {
				gemmSlices(gonum.Implementation{}, ta, tb, s, a, ac, bb, bc, c)
			}
			return nil
		})
	}
	if b.split > 0 {
		r.split = splitReport(b, ta, tb, s, a, ac, bb, bc, c, r)
	}
	return r
}

// splitReport times b.split GEMMs from Go slices (float64 through
// mat.Dense.Mul, float32 through Sgemm) and formats the implementation's
// transfer accounting for them: two compact lines.
func splitReport[T float32 | float64](b *bencher, ta, tb blas.Transpose, s shape, a []T, lda int, bb []T, ldb int, c []T, r row) string {
	call := func() { gemmSlices(b.impl, ta, tb, s, a, lda, bb, ldb, c) }
	how := "Sgemm"
	if a64, ok := any(a).([]float64); ok {
		how = "mat.Mul"
		ar, ac := s.m, s.k
		if ta == blas.Trans {
			ar, ac = ac, ar
		}
		br, bc := s.k, s.n
		if tb == blas.Trans {
			br, bc = bc, br
		}
		var am, bm mat.Matrix = mat.NewDense(ar, ac, a64[:ar*ac]), mat.NewDense(br, bc, any(bb).([]float64)[:br*bc])
		if ta == blas.Trans {
			am = am.T()
		}
		if tb == blas.Trans {
			bm = bm.T()
		}
		cm := mat.NewDense(s.m, s.n, any(c).([]float64)[:s.m*s.n])
		call = func() { cm.Mul(am, bm) }
	}
	call() // warm-up
	before := b.impl.TransferStats()
	t0 := time.Now()
	for range b.split {
		call()
	}
	wall := time.Since(t0)
	st := b.impl.TransferStats().Sub(before)
	trans := string([]byte{byte(ta), byte(tb)})
	if err := verify(trans, s, a, lda, bb, ldb, c); err != nil {
		log.Fatalf("bench: our %s GEMM %v from Go slices gave a wrong result: %v", trans, s, err)
	}
	flops := 2 * float64(s.m) * float64(s.n) * float64(s.k)
	rate := flops * float64(b.split) / wall.Seconds() / 1e9
	var sb strings.Builder
	fmt.Fprintf(&sb, "      split: %s %s GFLOP/s", how, gf(rate))
	if r.resident > 0 {
		fmt.Fprintf(&sb, " = %.0f%% of resident", 100*rate/r.resident)
	}
	prec := 32
	if _, ok := any(a).([]float64); ok {
		prec = 64
	}
	gn := r.gn
	ref := ""
	if gn == 0 && b.gonumMax > 0 { // -gonum-max 0: no gonum timing at all
		gn, ref = b.gonumAtMax(prec, ta, tb), fmt.Sprintf(" at %d", b.gonumMax)
	}
	if gn > 0 {
		fmt.Fprintf(&sb, ", %.0fx gonum (%s GFLOP/s%s)", rate/gn, gf(gn), ref)
	}
	sb.WriteString("\n")
	if st.Calls != int64(b.split) {
		fmt.Fprintf(&sb, "      split: %d of %d calls took the staged path (GOCL_GEMM_PIPELINE=on forces it)\n", st.Calls, b.split)
	}
	if st.Calls == 0 {
		return sb.String()
	}
	per := func(d time.Duration) string {
		return strconv.FormatFloat(d.Seconds()*1e3/float64(st.Calls), 'f', 1, 64)
	}
	gbps := func(bytes int64, d time.Duration) string {
		if d <= 0 {
			return "-"
		}
		return strconv.FormatFloat(float64(bytes)/d.Seconds()/1e9, 'f', 1, 64)
	}
	fmt.Fprintf(&sb, "      ms/call: pack %s  up %s (%s GB/s)  gemm %s  down %s (%s GB/s)  unpack %s | sum %s  wall %s  overlap %.2fx",
		per(st.Pack), per(st.Upload), gbps(st.BytesUp, st.Upload), per(st.Compute), per(st.Download),
		gbps(st.BytesDown, st.Download), per(st.Unpack), per(st.Sum()), per(st.Wall), st.Sum().Seconds()/st.Wall.Seconds())
	if st.BytesDirect > 0 {
		fmt.Fprintf(&sb, "  (%.0f%% of the bytes straight from/to HostSlices)", 100*float64(st.BytesDirect)/float64(st.BytesUp+st.BytesDown))
	}
	sb.WriteString("\n")
	if st.Span > 0 {
		// Where the device's time went: a bus that is never idle bounds
		// the wall time from below.
		fmt.Fprintf(&sb, "      device timeline ms/call: span %s (first upload to last command)  fill %s  drain %s  bus idle %s  kernels idle %s\n",
			per(st.Span), per(st.Fill), per(st.Drain), per(st.BusIdle), per(st.ComputeIdle))
	}
	return sb.String()
}

// gonumAtMax is gonum's GFLOP/s on a square problem of order gonumMax
// (measured once per precision and transposes).
func (b *bencher) gonumAtMax(prec int, ta, tb blas.Transpose) float64 {
	key := fmt.Sprint(prec, ta, tb)
	if v, ok := b.gonumRef[key]; ok {
		return v
	}
	n := b.gonumMax
	s := shape{n, n, n}
	rnd := rand.New(rand.NewPCG(2, uint64(n)))
	flops := 2 * float64(n) * float64(n) * float64(n)
	var v float64
	if prec == 64 {
		a, bb, c := random[float64](rnd, n*n), random[float64](rnd, n*n), make([]float64, n*n)
		v = b.median(flops, func(batch int) error {
			for range batch {
				gemmSlices(gonum.Implementation{}, ta, tb, s, a, n, bb, n, c)
			}
			return nil
		})
	} else {
		a, bb, c := random[float32](rnd, n*n), random[float32](rnd, n*n), make([]float32, n*n)
		v = b.median(flops, func(batch int) error {
			for range batch {
				gemmSlices(gonum.Implementation{}, ta, tb, s, a, n, bb, n, c)
			}
			return nil
		})
	}
	b.gonumRef[key] = v
	return v
}

type gemmer interface {
	blas.Float32
	blas.Float64
}

func gemmSlices[T float32 | float64](impl gemmer, ta, tb blas.Transpose, s shape, a []T, lda int, b []T, ldb int, c []T) {
	switch a := any(a).(type) {
	case []float32:
		impl.Sgemm(ta, tb, s.m, s.n, s.k, 1, a, lda, any(b).([]float32), ldb, 0, any(c).([]float32), s.n)
	case []float64:
		impl.Dgemm(ta, tb, s.m, s.n, s.k, 1, a, lda, any(b).([]float64), ldb, 0, any(c).([]float64), s.n)
	}
}

func random[T float32 | float64](rnd *rand.Rand, n int) []T {
	s := make([]T, n)
	for i := range s {
		s[i] = T(rnd.Float64() - 0.5)
	}
	return s
}

func gf(v float64) string {
	if v == 0 {
		return "-"
	}
	return strconv.FormatFloat(v, 'f', 0, 64)
}

func cbrt(s shape) float64 {
	v := float64(s.m) * float64(s.n) * float64(s.k)
	x := v
	for range 60 {
		x = (2*x + v/(x*x)) / 3
	}
	return x
}

func split(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func atoi(s string) int {
	v, err := strconv.Atoi(s)
	if err != nil || v <= 0 {
		fmt.Fprintf(os.Stderr, "bench: bad number %q\n", s)
		os.Exit(2)
	}
	return v
}

// verify checks 64 sampled elements of c = op(a)·op(b) against float64
// sums, relative to Σ|a||b| (the bound on the rounding error).
func verify[T float32 | float64](trans string, s shape, a []T, lda int, b []T, ldb int, c []T) error {
	tA, tB := trans[0] == 'T', trans[1] == 'T'
	at := func(i, p int) float64 {
		if tA {
			return float64(a[p*lda+i])
		}
		return float64(a[i*lda+p])
	}
	bt := func(p, j int) float64 {
		if tB {
			return float64(b[j*ldb+p])
		}
		return float64(b[p*ldb+j])
	}
	var v T
	tol := 1e-12
	if any(v) == any(float32(0)) {
		tol = 1e-5
	}
	rnd := rand.New(rand.NewPCG(9, 9))
	for range 64 {
		i, j := rnd.IntN(s.m), rnd.IntN(s.n)
		var sum, mag float64
		for p := 0; p < s.k; p++ {
			sum += at(i, p) * bt(p, j)
			mag += math.Abs(at(i, p) * bt(p, j))
		}
		if d := math.Abs(float64(c[i*s.n+j]) - sum); d > tol*(mag+1e-30)*math.Sqrt(float64(s.k)) || d != d {
			return fmt.Errorf("element (%d,%d) = %v, want %v", i, j, c[i*s.n+j], sum)
		}
	}
	return nil
}
