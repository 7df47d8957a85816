package clblas

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/blas"

	eng "github.com/gocompute/opencl/internal/engine"
)

var (
	trsvN      = flag.Int("trsv.n", 512, "BenchmarkTrsvShape: the order of A")
	trsvShapes = flag.String("trsv.shapes", "0:0:0", "BenchmarkTrsvShape: comma-separated ts:launch:groups "+
		"(sub-block order, sub-blocks per launch, most work-groups; 0 takes the default), sNB[:ts:groups] "+
		"for the split schedule with launch blocks of NB positions, or f[:ts:groups] for the flow schedule")
	trsvPrecs    = flag.String("trsv.precs", "S,D,C,Z", "BenchmarkTrsvShape: the precisions")
	trsvPortable = flag.Bool("trsv.portable", false, "BenchmarkTrsvShape: real dense and packed solves on "+
		"the blocked kernels on a CPU device too (Engine.L2Portable)")
)

// BenchmarkTrsvShape times the resident triangular solves of
// kernels/trsv.cl (n = -trsv.n) in every precision (-trsv.precs) and each
// blocking shape of -trsv.shapes, in GB/s of the stored elements read:
// TRSV lower with op(A) = A, TRSV upper with op(A) = Aᵀ (Aᴴ for complex)
// on the dense n×n, TBSV lower with k = n/32, TPSV upper with A and with
// Aᵀ (Aᴴ) on the packed triangle. A has a unit diagonal and
// entries in [0, 1/n) (complex: both parts), so that the solution stays
// bounded call after call. A shape sNB (or sNB:ts:groups) runs the split
// schedule (Engine.L2SolveSplit = NB): each launch block of NB positions
// solved once, then a wide update; f (or f:ts:groups) the flow schedule
// (Engine.L2SolveFlow on): one launch of persistent work-groups. The
// other shapes run with the flow schedule off, so that one run compares
// them side by side.
//
//	go test -run XXX -bench TrsvShape ./blas -trsv.n 8192 -trsv.shapes 0:0:0,0:4:0,s512,s1024,f
func BenchmarkTrsvShape(b *testing.B) {
	impl := newTestImpl(b)
	e := impl.eng
	defer func() {
		e.L2SolveNB, e.L2SolveLaunch, e.L2SolveGroups, e.L2SolveSplit, e.L2SolveFlow = 0, 0, 0, 0, eng.SolveFlowAuto
	}()
	if *trsvPortable {
		e.L2Portable = true
		defer func() { e.L2Portable = false }()
	}
	var shapes []trsvShape
	for _, sh := range strings.Split(*trsvShapes, ",") {
		s, err := parseTrsvShape(sh)
		if err != nil {
			b.Fatalf("-trsv.shapes %q: %v", sh, err)
		}
		shapes = append(shapes, s)
	}
	for _, p := range strings.Split(*trsvPrecs, ",") {
		b.Run(p, func(b *testing.B) {
			switch p {
			case "S":
				trsvShapeRun(b, impl, *trsvN, shapes, func(v float64) float32 { return float32(v) })
			case "D":
				trsvShapeRun(b, impl, *trsvN, shapes, func(v float64) float64 { return v })
			case "C":
				trsvShapeRun(b, impl, *trsvN, shapes, func(v float64) complex64 { return complex(float32(v), float32(v/2)) })
			case "Z":
				trsvShapeRun(b, impl, *trsvN, shapes, func(v float64) complex128 { return complex(v, v/2) })
			default:
				b.Fatalf("-trsv.precs: unknown %q", p)
			}
		})
	}
}

// trsvShapeRun makes the operands once and times every shape and solve
// on them.
func trsvShapeRun[T Element](b *testing.B, impl *Implementation, n int, shapes []trsvShape, elem func(float64) T) {
	e := impl.eng
	if isWide[T]() && !e.Prof.FP64 {
		b.Skip("no double precision")
	}
	rnd := rand.New(rand.NewPCG(4, uint64(n)))
	kb := max(n/32, 1)
	dense := make([]T, n*n)
	for i := range dense {
		dense[i] = elem(rnd.Float64() / float64(n))
	}
	band := dense[:n*(kb+1)]
	a, err1 := NewMatrixFrom(impl, n, n, dense)
	ab, err2 := NewMatrixFrom(impl, n, kb+1, band)
	x, err3 := NewVectorFrom(impl, dense[:n])
	ap, err4 := NewVectorFrom(impl, dense[:n*(n+1)/2])
	if err1 != nil || err2 != nil || err3 != nil || err4 != nil {
		b.Fatal(err1, err2, err3, err4)
	}
	defer a.Release()
	defer ab.Release()
	defer ap.Release()
	defer x.Release()
	var z T
	es := float64(elemSize(z))
	nf, kf := float64(n), float64(kb)
	tT := blas.Trans
	if isComplexElem(z) {
		tT = blas.ConjTrans
	}
	ops := []struct {
		name  string
		bytes float64
		f     func() (*Event, error)
	}{
		{"TRSV-L-N", es * nf * (nf + 1) / 2, func() (*Event, error) { return Trsv(blas.Lower, blas.NoTrans, blas.Unit, a, x) }},
		{"TRSV-U-T", es * nf * (nf + 1) / 2, func() (*Event, error) { return Trsv(blas.Upper, tT, blas.Unit, a, x) }},
		{"TBSV-L-N", es * (nf*(kf+1) - kf*(kf+1)/2), func() (*Event, error) { return Tbsv(blas.Lower, blas.NoTrans, blas.Unit, kb, ab, x) }},
		{"TPSV-U-N", es * nf * (nf + 1) / 2, func() (*Event, error) { return Tpsv(blas.Upper, blas.NoTrans, blas.Unit, ap, x) }},
		{"TPSV-U-T", es * nf * (nf + 1) / 2, func() (*Event, error) { return Tpsv(blas.Upper, tT, blas.Unit, ap, x) }},
	}
	for _, sh := range shapes {
		for _, op := range ops {
			b.Run(fmt.Sprintf("shape=%s/%s", sh, op.name), func(b *testing.B) {
				e.L2SolveNB, e.L2SolveLaunch, e.L2SolveGroups, e.L2SolveSplit = sh.ts, sh.launch, sh.groups, sh.split
				e.L2SolveFlow = eng.SolveFlowOff
				if sh.flow {
					e.L2SolveFlow = eng.SolveFlowOn
				}
				run := func(reps int) {
					var last *Event
					for range reps {
						ev, err := op.f()
						if err != nil {
							b.Fatal(err)
						}
						last = ev
					}
					if err := last.Wait(); err != nil {
						b.Fatal(err)
					}
				}
				run(1) // builds the kernels
				b.ResetTimer()
				run(b.N)
				b.ReportMetric(op.bytes*float64(b.N)/b.Elapsed().Seconds()/1e9, "GB/s")
			})
		}
	}
}

// trsvShape is one blocking of BenchmarkTrsvShape: the Engine's
// L2SolveNB, L2SolveLaunch, L2SolveGroups and L2SolveSplit, and whether
// it takes the flow schedule.
type trsvShape struct {
	ts, launch, groups, split int
	flow                      bool
}

// parseTrsvShape reads ts:launch:groups, sNB[:ts:groups] for the split
// schedule, or f[:ts:groups] for the flow schedule.
func parseTrsvShape(s string) (trsvShape, error) {
	var sh trsvShape
	if rest, ok := strings.CutPrefix(s, "f"); ok {
		sh.flow = true
		if rest == "" {
			return sh, nil
		}
		_, err := fmt.Sscanf(rest, ":%d:%d", &sh.ts, &sh.groups)
		return sh, err
	}
	if rest, ok := strings.CutPrefix(s, "s"); ok {
		return sh, parseTrsvLead(rest, "the split schedule's block", &sh.split, &sh)
	}
	_, err := fmt.Sscanf(s, "%d:%d:%d", &sh.ts, &sh.launch, &sh.groups)
	return sh, err
}

// parseTrsvLead reads N[:ts:groups] after a shape's letter into *lead
// (what names it in the error), sh.ts and sh.groups; N must be positive.
func parseTrsvLead(rest, what string, lead *int, sh *trsvShape) error {
	if !strings.Contains(rest, ":") {
		rest += ":0:0"
	}
	_, err := fmt.Sscanf(rest, "%d:%d:%d", lead, &sh.ts, &sh.groups)
	if err == nil && *lead <= 0 {
		err = fmt.Errorf("%s must be positive", what)
	}
	return err
}

func (sh trsvShape) String() string {
	if sh.flow {
		return fmt.Sprintf("f:%d:%d", sh.ts, sh.groups)
	}
	if sh.split > 0 {
		return fmt.Sprintf("s%d:%d:%d", sh.split, sh.ts, sh.groups)
	}
	return fmt.Sprintf("%d:%d:%d", sh.ts, sh.launch, sh.groups)
}

func isWide[T Element]() bool {
	var z T
	return elemSize(z) == 8 && !isComplexElem(z) || elemSize(z) == 16
}

func elemSize(v any) int {
	switch v.(type) {
	case float32:
		return 4
	case float64, complex64:
		return 8
	}
	return 16
}

func isComplexElem(v any) bool {
	switch v.(type) {
	case complex64, complex128:
		return true
	}
	return false
}
