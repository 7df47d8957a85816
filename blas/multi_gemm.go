package clblas

import (
	"math"
	"slices"
	"sync"
	"time"

	"gonum.org/v1/gonum/blas"

	eng "github.com/gocompute/opencl/internal/engine"
	"github.com/gocompute/opencl/internal/multi"
)

// splitMinSeconds is the predicted time on the primary below which a level
// 3 call is not split: starting the other devices' workers would cost more
// than they could save. (A variable so that tests can split small calls.)
var splitMinSeconds = 2e-3

// splitAlign is the multiple of rows (or columns) tiles are cut in, so
// that the kernels' work-groups stay whole.
const splitAlign = 32

// splitJob is one level 3 call cut into tiles of units (rows or columns of
// its output) that can be computed independently.
type splitJob[T eng.Real] struct {
	routine string
	prec    precision
	units   int
	// unitFlops and unitElems are the work and the elements moved per
	// unit; fixedElems the operand every tile sends again; inner the inner
	// dimension (the device's rate falls when it is short).
	unitFlops, unitElems, fixedElems float64
	inner                            int
	dev                              func(*member) l3Dev[T]
	// whole runs the call unsplit on d, with d's error.
	whole func(d l3Dev[T]) error
	// tile runs the units t on d. On d's failure it returns the error and
	// how many of t's first units are finished; when d had already written
	// part of the tile, tile finishes it with cpu and reports all of it.
	tile func(d, cpu l3Dev[T], t multi.Tile) (done int, err error)
}

// estimate is the scheduler's starting view of device mb: its rate in
// units per second and the fixed cost of a tile (launch, and the operand
// every tile sends again), from the cost model, scaled by what earlier
// calls measured.
func (j *splitJob[T]) estimate(mb *member) multi.Device {
	const probe = 1024.0
	unit := mb.cost.deviceTime(work(j.prec, probe*j.unitFlops, probe*j.unitElems).over(j.inner)) - mb.cost.Launch.Seconds()
	over := mb.cost.deviceTime(work(j.prec, 0, j.fixedElems))
	if mb.e != nil && mb.e.HostShared() {
		over = mb.cost.Launch.Seconds() // kernels read the caller's memory in place
	}
	rate := probe / math.Max(unit, 1e-12)
	d := multi.Device{Rate: rate, Overhead: time.Duration(over * 1e9)}
	if s := loadFloat(mb.speed(j.routine)); s > 0 {
		d.Rate, d.Measured = rate*s, true
	}
	// A tile's fixed cost stays under a tenth of its time.
	d.MinUnits = int(math.Min(9*over*d.Rate, math.MaxInt32))
	return d
}

// runSplit runs job over the set's devices that can run it: each device's
// worker takes tiles from a multi.Scheduler. A tile that fails goes back
// to the others; what nobody finishes runs on the CPU, so the result is
// always complete and runSplit returns nil. A call too small to pay for
// the split runs on the primary alone, with the primary's error.
func runSplit[T eng.Real](set *multiSet, j *splitJob[T]) error {
	var parts []*member
	var kinds []memberKind
	for _, mb := range set.devs {
		if j.dev(mb) != nil {
			parts = append(parts, mb)
			kinds = append(kinds, memberKind{cpu: mb.e != nil && mb.e.Prof.IsCPU(), discrete: mb.e != nil && !mb.e.HostShared()})
		}
	}
	parts = keepJoining(parts, kinds)
	total := work(j.prec, fl(j.units)*j.unitFlops, fl(j.units)*j.unitElems+j.fixedElems).over(j.inner)
	if len(parts) < 2 || set.devs[0].cost.deviceTime(total) < splitMinSeconds || j.units < 2*splitAlign {
		set.devs[0].whole.Add(1)
		return j.whole(j.dev(set.devs[0]))
	}
	est := make([]multi.Device, len(parts))
	for i, mb := range parts {
		est[i] = j.estimate(mb)
	}
	s := multi.New(j.units, splitAlign, est, nil)
	var wg sync.WaitGroup
	for i := 1; i < len(parts); i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			splitWorker(set, s, i, parts[i], j)
		}()
	}
	splitWorker(set, s, 0, parts[0], j)
	wg.Wait()
	cpu := j.dev(nil)
	for _, t := range s.Leftover() {
		j.tile(cpu, cpu, t)
	}
	// What each device measured becomes the next call's starting rate.
	for i, st := range s.Stats() {
		if st.Tiles > 0 && !st.Failed && est[i].Rate > 0 {
			base := est[i].Rate
			if old := loadFloat(parts[i].speed(j.routine)); old > 0 {
				base /= old
			}
			storeFloat(parts[i].speed(j.routine), st.Rate/base)
		}
	}
	return nil
}

// splitWorker runs the tiles scheduler s hands device i (member mb) until
// there are none for it, or until its device fails: then the unfinished
// part of its tile goes back to s, and the failure is logged once per
// device.
func splitWorker[T eng.Real](set *multiSet, s *multi.Scheduler, i int, mb *member, j *splitJob[T]) {
	d, cpu := j.dev(mb), j.dev(nil)
	for {
		t, ok := s.Next(i)
		if !ok {
			return
		}
		start := time.Now()
		var err error
		done := 0
		if set.hook != nil {
			err = set.hook(i, t)
		}
		if err == nil {
			done, err = j.tile(d, cpu, t)
		}
		if err == nil {
			s.Done(i, t, time.Since(start))
			mb.tiles.Add(1)
			mb.units.Add(int64(t.Len()))
			continue
		}
		s.Fail(i, t, done)
		set.logFail(mb, j.routine, err)
		return
	}
}

// gemmJob is GEMM cut into whole rows of C when m ≥ n, else whole columns,
// so that no two tiles share an element of C.
func gemmJob[T eng.Real](prec precision, routine string, dev func(*member) l3Dev[T],
	tA, tB blas.Transpose, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) *splitJob[T] {
	readC := ifNonZero(beta != 0)
	j := &splitJob[T]{routine: routine, prec: prec, dev: dev, inner: k}
	j.whole = func(d l3Dev[T]) error { return d.Gemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc) }
	if m >= n {
		j.units, j.unitFlops, j.unitElems, j.fixedElems = m, 2*fl(n)*fl(k), fl(k)+fl(n)*(1+readC), fl(k)*fl(n)
		j.tile = func(d, cpu l3Dev[T], t multi.Tile) (int, error) {
			err := d.Gemm(tA, tB, t.Len(), n, k, alpha, a[eng.OpRow(tA, t.Lo, lda):], lda, b, ldb, beta, c[t.Lo*ldc:], ldc)
			return eng.RowsDone(err), err // the device finished the tile's first rows
		}
		return j
	}
	j.units, j.unitFlops, j.unitElems, j.fixedElems = n, 2*fl(m)*fl(k), fl(k)+fl(m)*(1+readC), fl(k)*fl(m)
	j.tile = func(d, cpu l3Dev[T], t multi.Tile) (int, error) {
		bt, ct := b[opCol(tB, t.Lo, ldb):], c[t.Lo:]
		err := d.Gemm(tA, tB, m, t.Len(), k, alpha, a, lda, bt, ldb, beta, ct, ldc)
		if i := eng.RowsDone(err); i > 0 {
			// Rows [0, i) of this column tile are done; the units are
			// columns, so the CPU finishes the tile's other rows now.
			cpu.Gemm(tA, tB, m-i, t.Len(), k, alpha, a[eng.OpRow(tA, i, lda):], lda, bt, ldb, beta, ct[i*ldc:], ldc)
			return t.Len(), err
		}
		return 0, err
	}
	return j
}

// opCol is the offset of column j of op(B) in B stored with leading
// dimension ld: column j of B, or row j when t transposes.
func opCol(t blas.Transpose, j, ld int) int {
	if t == blas.NoTrans {
		return j
	}
	return j * ld
}

// realPrec is the precision of T.
func realPrec[T float32 | float64]() precision {
	if eng.ElemSize[T]() == 8 {
		return prec64
	}
	return prec32
}

// routineName is the BLAS name of routine ("gemm") in T's precision.
func routineName[T float32 | float64](routine string) string {
	if realPrec[T]() == prec64 {
		return "D" + routine
	}
	return "S" + routine
}

// Gemm splits C across the devices (gemmJob).
func (m *multiDev[T]) Gemm(tA, tB blas.Transpose, mm, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) error {
	return runSplit(m.set, gemmJob(realPrec[T](), routineName[T]("gemm"), l3For[T], tA, tB, mm, n, k, alpha, a, lda, b, ldb, beta, c, ldc))
}

// memberKind is what keepJoining needs to know of a device.
type memberKind struct {
	cpu      bool // a CPU device (PoCL and the like)
	discrete bool // its memory is not the host's: operands are staged
}

// keepJoining drops the CPU devices from a split that has a discrete
// device other than a CPU device. From Go slices a discrete GPU's rate is bounded by the host's
// copies into its staging memory, and a CPU device computing on the host's
// cores competes with those copies for the cores and the memory bus, which
// the scheduler cannot see: on the H200 host, the H200 with PoCL's CPU
// device ran slower together than alone (BENCHMARKS.md, "Several
// devices"). Devices of one kind (several GPUs, several CPU devices) all
// join.
func keepJoining[E any](parts []E, kinds []memberKind) []E {
	discrete := slices.ContainsFunc(kinds, func(k memberKind) bool { return k.discrete && !k.cpu })
	if !discrete {
		return parts
	}
	var kept []E
	for i, p := range parts {
		if !kinds[i].cpu {
			kept = append(kept, p)
		}
	}
	return kept
}
