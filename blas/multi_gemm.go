package clblas

import (
	"math"
	"sync"
	"time"

	"gonum.org/v1/gonum/blas"

	"github.com/gocompute/opencl/internal/multi"
)

// gemmFn is one GEMM on host slices: a device's (returning its error) or
// gonum's (nil error).
type gemmFn[T real] func(tA, tB blas.Transpose, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) error

// splitMinSeconds is the predicted time on the primary below which a GEMM
// is not split: starting the other devices' workers would cost more than
// they could save.
var splitMinSeconds = 2e-3 // a variable so that tests can split small calls

// splitAlign is the multiple of rows (or columns) tiles are cut in, so
// that the GEMM kernels' work-groups stay whole.
const splitAlign = 32

// Dgemm splits C across the devices (see gemmSplit).
func (m *multi64) Dgemm(tA, tB blas.Transpose, mm, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) error {
	return gemmSplit(m.set, prec64, "Dgemm",
		func(mb *member) gemmFn[float64] { return mb.d64.Dgemm },
		func(tA, tB blas.Transpose, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) error {
			native.Dgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
			return nil
		},
		tA, tB, mm, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// Sgemm splits C across the devices (see gemmSplit).
func (m *multi32) Sgemm(tA, tB blas.Transpose, mm, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) error {
	return gemmSplit(m.set, prec32, "Sgemm",
		func(mb *member) gemmFn[float32] { return mb.d32.Sgemm },
		func(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) error {
			native.Sgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
			return nil
		},
		tA, tB, mm, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// gemmProblem is one split GEMM: C is cut into tiles of whole rows when
// byRows (m ≥ n), else of whole columns.
type gemmProblem[T real] struct {
	tA, tB      blas.Transpose
	m, n, k     int
	alpha, beta T
	a, b, c     []T
	lda, ldb    int
	ldc         int
	byRows      bool
}

// tile returns the sub-problem of the units [lo, hi).
func (p *gemmProblem[T]) tile(t multi.Tile) (m, n int, a, b, c []T) {
	if p.byRows {
		return t.Len(), p.n, p.a[opRow(p.tA, t.Lo, p.lda):], p.b, p.c[t.Lo*p.ldc:]
	}
	return p.m, t.Len(), p.a, p.b[opCol(p.tB, t.Lo, p.ldb):], p.c[t.Lo:]
}

// run runs the tile t with f.
func (p *gemmProblem[T]) run(f gemmFn[T], t multi.Tile) error {
	m, n, a, b, c := p.tile(t)
	return f(p.tA, p.tB, m, n, p.k, p.alpha, a, p.lda, b, p.ldb, p.beta, c, p.ldc)
}

// opCol is the offset of column j of op(B) in B stored with leading
// dimension ld: column j of B, or row j when t transposes.
func opCol(t blas.Transpose, j, ld int) int {
	if t == blas.NoTrans {
		return j
	}
	return j * ld
}

// estimate is the scheduler's starting view of device mb for p: its rate
// in units per second and the fixed cost of a tile (launch, and the
// operand every tile sends again), from the cost model, scaled by what
// earlier calls measured.
func (p *gemmProblem[T]) estimate(mb *member, prec precision) multi.Device {
	const probe = 1024.0
	other := p.n // the length of a unit (a row of C) and of the re-sent operand
	if !p.byRows {
		other = p.m
	}
	readC := ifNonZero(p.beta != 0)
	per := work(prec, 2*probe*fl(other)*fl(p.k), probe*(fl(p.k)+fl(other)*(1+readC))).over(p.k)
	fixed := work(prec, 0, fl(p.k)*fl(other))
	unit := mb.cost.deviceTime(per) - mb.cost.Launch.Seconds()
	over := mb.cost.deviceTime(fixed)
	if mb.e != nil && mb.e.hostShared() {
		over = mb.cost.Launch.Seconds() // kernels read the caller's memory in place
	}
	rate := probe / math.Max(unit, 1e-12)
	d := multi.Device{Rate: rate, Overhead: time.Duration(over * 1e9)}
	if s := loadFloat(mb.speed(prec)); s > 0 {
		d.Rate, d.Measured = rate*s, true
	}
	// A tile's fixed cost stays under a tenth of its time.
	d.MinUnits = int(math.Min(9*over*d.Rate, math.MaxInt32))
	return d
}

// gemmSplit runs one GEMM over the set's devices that can run it: C is
// cut into tiles that each device's worker takes from a multi.Scheduler
// and runs with that device's ordinary GEMM on sub-slices. A tile that
// fails goes back to the others; what nobody finishes runs on the CPU, so
// the result is always complete and gemmSplit returns nil. A call too
// small to pay for the split runs on the primary alone.
func gemmSplit[T real](set *multiSet, prec precision, routine string, devFn func(*member) gemmFn[T], cpu gemmFn[T],
	tA, tB blas.Transpose, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) error {
	var parts []*member
	for _, mb := range set.devs {
		if prec == prec32 || mb.cost.FP64 {
			parts = append(parts, mb)
		}
	}
	primary := devFn(set.devs[0])
	total := work(prec, 2*fl(m)*fl(n)*fl(k), fl(k)*(fl(m)+fl(n))+fl(m)*fl(n)*(1+ifNonZero(beta != 0))).over(k)
	if len(parts) < 2 || set.devs[0].cost.deviceTime(total) < splitMinSeconds || max(m, n) < 2*splitAlign {
		return primary(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
	}
	p := &gemmProblem[T]{tA: tA, tB: tB, m: m, n: n, k: k, alpha: alpha, beta: beta, a: a, b: b, c: c, lda: lda, ldb: ldb, ldc: ldc, byRows: m >= n}
	units := n
	if p.byRows {
		units = m
	}
	est := make([]multi.Device, len(parts))
	for i, mb := range parts {
		est[i] = p.estimate(mb, prec)
	}
	s := multi.New(units, splitAlign, est, nil)
	var wg sync.WaitGroup
	for i := 1; i < len(parts); i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			splitWorker(set, s, i, parts[i], routine, p, devFn(parts[i]), cpu)
		}()
	}
	splitWorker(set, s, 0, parts[0], routine, p, primary, cpu)
	wg.Wait()
	for _, t := range s.Leftover() {
		p.run(cpu, t)
	}
	// What each device measured becomes the next call's starting rate.
	for i, st := range s.Stats() {
		if st.Tiles > 0 && !st.Failed && est[i].Rate > 0 {
			base := est[i].Rate
			if old := loadFloat(parts[i].speed(prec)); old > 0 {
				base /= old
			}
			storeFloat(parts[i].speed(prec), st.Rate/base)
		}
	}
	return nil
}

// splitWorker runs the tiles scheduler s hands device i (member mb) until
// there are none for it, or until its device fails: then the unfinished
// part of its tile goes back to s (when rows of a column tile are done,
// the CPU finishes that tile at once) and the failure is logged once per
// device.
func splitWorker[T real](set *multiSet, s *multi.Scheduler, i int, mb *member, routine string, p *gemmProblem[T], f, cpu gemmFn[T]) {
	for {
		t, ok := s.Next(i)
		if !ok {
			return
		}
		start := time.Now()
		var err error
		if set.hook != nil {
			err = set.hook(i, t)
		}
		if err == nil {
			err = p.run(f, t)
		}
		if err == nil {
			s.Done(i, t, time.Since(start))
			mb.tiles.Add(1)
			mb.units.Add(int64(t.Len()))
			continue
		}
		done := rowsDone(err)
		if done > 0 && !p.byRows {
			// Rows [0, done) of this column tile are finished; the CPU does
			// the rest of it, since the scheduler's units are columns.
			m, n, a, b, c := p.tile(t)
			cpu(p.tA, p.tB, m-done, n, p.k, p.alpha, a[opRow(p.tA, done, p.lda):], p.lda, b, p.ldb, p.beta, c[done*p.ldc:], p.ldc)
			done = t.Len()
		}
		s.Fail(i, t, done)
		set.logFail(mb, routine, err)
		return
	}
}
