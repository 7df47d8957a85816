package main

import (
	"context"
	"fmt"
	"image/color"
	"log"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	clblas "github.com/gocompute/opencl/blas"
	"github.com/gocompute/opencl/cl"
	"github.com/gocompute/opencl/internal/clblast"
	"github.com/gocompute/opencl/internal/engine"
	"github.com/gocompute/opencl/internal/par"
)

// The level 1 and 2 mode (-level 1,2): memory-bound routines in GB/s, the
// bytes a routine must move at the least (AXPY reads x and y and writes y:
// 3n elements) over the time of a call. Each routine is timed resident
// (ours), from Go slices through the drop-in interface (ours, the transfers
// included), with CLBlast on the same buffers (-tags clblast), and against
// the device's copy roofline: clEnqueueCopyBuffer of the same number of
// bytes (half read, half written), timed in the same run, interleaved
// with ours and CLBlast's; on a CPU device the faster of that and the
// host's own copy over every core. -prec c64,c128 times the complex routines
// instead (level12_complex.go).

// l12op is one routine of the mode.
type l12op struct {
	name   string
	level  int
	size   string
	bytes  float64               // bytes moved by one call
	ours   func(batch int) error // resident: enqueue batch calls, wait for the last
	theirs func(batch int) error // CLBlast on the same buffers; nil without it
	slices func(batch int) error // drop-in from Go slices; nil: not timed
	check  func() error          // checks our result once (nil: none)
	free   func()
	// setImpl makes slices call impl's drop-in routines (gonum's, for
	// the -l12gonum column) instead of ours.
	setImpl func(impl gemmer)
}

// l12row is one line of the mode's table.
type l12row struct {
	name, size                           string
	ours, theirs, copyRate, slice, gonum float64
}

// level12Main runs the routines of the levels asked for in the
// precisions asked for and prints the table (and the chart, with png).
//
// With withGonum, gonum's Go code is timed on the same Go slices (one
// goroutine), and ours resident is given as a multiple of it.
func level12Main(b *bencher, levels, precs []string, n1, n2 int, only map[string]bool, withSlices, withGonum bool, png string) error {
	var rows []l12row
	prof := b.impl.Runtime().Device().Profile()
	for _, p := range []int{32, 64} {
		sh := engine.L1ShapeFor(prof, p)
		ew := fmt.Sprintf("element-wise at most %d groups", sh.EwGroupsFor(math.MaxInt32))
		if sh.Cover {
			ew = "element-wise grids cover the vector"
		}
		fmt.Printf("level 1/2 shape, f%d: work-groups of %d, vectors of %d, %d loads in flight, reductions at most %d groups, %s, blocked %v, 32-bit indices %v\n",
			p, sh.Local, sh.Vec, sh.Unroll, sh.Groups, ew, sh.Block, sh.Idx32)
	}
	fmt.Println()
	fmt.Printf("%-8s %-10s %9s %10s %10s %10s %10s %9s %9s %10s %9s\n", "op", "size", "MB/call", "resident", "CLBlast", "copy", "slices", "ours/cp", "ours/CLB", "gonum", "ours/gn")
	var ceil *ceilings // the READ and WRITE rows' engine (level1ceil.go)
	defer func() {
		if ceil != nil {
			ceil.close()
		}
	}()
	for _, lv := range levels {
		for _, p := range precs {
			var ops []l12op
			var err error
			switch lv + "/" + p {
			case "1/32":
				if ops, err = level1Ops[float32](b, n1); err == nil {
					ops, err = withCeilings[float32](b, &ceil, ops, n1)
				}
			case "1/64":
				if ops, err = level1Ops[float64](b, n1); err == nil {
					ops, err = withCeilings[float64](b, &ceil, ops, n1)
				}
			case "2/32":
				ops, err = level2Ops[float32](b, n2)
			case "2/64":
				ops, err = level2Ops[float64](b, n2)
			case "1/c64":
				ops, err = level1ComplexOps[complex64](b, n1) // level12_complex.go
			case "1/c128":
				ops, err = level1ComplexOps[complex128](b, n1)
			case "2/c64":
				ops, err = level2ComplexOps[complex64](b, n2)
			case "2/c128":
				ops, err = level2ComplexOps[complex128](b, n2)
			default:
				return fmt.Errorf("bad level %q or precision %q", lv, p)
			}
			if err != nil {
				return err
			}
			var these []l12row
			for _, op := range ops {
				if len(only) > 0 && !only[strings.ToUpper(op.name)] {
					continue
				}
				r, err := runL12(b, op, withSlices, withGonum)
				if err != nil {
					return err
				}
				these = append(these, r)
			}
			for _, op := range ops {
				op.free()
			}
			if lv == "1" {
				ceilingNotes(these)
			}
			for _, r := range these {
				if !isCeiling(r.name) {
					rows = append(rows, r)
				}
			}
		}
	}
	if png != "" {
		if err := chartL12(rows, png, b.impl.DeviceName()); err != nil {
			return fmt.Errorf("chart: %w", err)
		}
		fmt.Printf("\nchart written to %s\n", png)
	}
	return nil
}

// runL12 times op against the copy of the same bytes.
func runL12(b *bencher, op l12op, withSlices, withGonum bool) (l12row, error) {
	r := l12row{name: op.name, size: op.size}
	if op.check != nil {
		if err := op.ours(1); err != nil {
			return r, err
		}
		if err := op.check(); err != nil {
			return r, fmt.Errorf("%s: %w", op.name, err)
		}
	}
	cp, err := newCopyRoof(b, int(op.bytes/2))
	if err != nil {
		return r, err
	}
	defer cp.release()
	gb := op.bytes
	fs := []func(int) error{op.ours, cp.run}
	// On a CPU device the host's memory is the device's, and the
	// driver's copy may run on one core (PoCL's does) while the
	// routines run on all: the host's copy over every core is timed too,
	// and the faster of the two is the roofline.
	hostCp := -1
	if b.impl.Runtime().Device().Profile().IsCPU() {
		hostCp = len(fs)
		fs = append(fs, newHostCopy(int(op.bytes/2)).run)
	}
	theirs := len(fs)
	if op.theirs != nil {
		fs = append(fs, op.theirs)
	}
	// gonum's Go code runs in the same alternation as ours and the copy,
	// so that on a shared CPU (PoCL) all three see the same load.
	withGonum = withGonum && op.slices != nil && op.setImpl != nil
	if withGonum {
		fs = append(fs, func(batch int) error {
			op.setImpl(gonum.Implementation{})
			defer op.setImpl(b.impl)
			return op.slices(batch)
		})
	}
	rates := b.medians(gb, fs...)
	r.ours, r.copyRate = rates[0], rates[1]
	if hostCp >= 0 {
		r.copyRate = max(r.copyRate, rates[hostCp])
	}
	if op.theirs != nil {
		r.theirs = rates[theirs]
	}
	vsGonum := "-"
	if withGonum {
		r.gonum = rates[len(rates)-1]
		vsGonum = fmt.Sprintf("%.2fx", r.ours/r.gonum)
	}
	if withSlices && op.slices != nil {
		r.slice = b.median(gb, op.slices)
	}
	vsCopy, vsCLB := "-", "-"
	if r.copyRate > 0 {
		vsCopy = fmt.Sprintf("%.0f%%", 100*r.ours/r.copyRate)
	}
	if r.theirs > 0 {
		vsCLB = fmt.Sprintf("%.2fx", r.ours/r.theirs)
	}
	fmt.Printf("%-8s %-10s %9.1f %10s %10s %10s %10s %9s %9s %10s %9s\n", r.name, r.size, op.bytes/1e6,
		gf(r.ours), gf(r.theirs), gf(r.copyRate), gf(r.slice), vsCopy, vsCLB, gf(r.gonum), vsGonum)
	return r, nil
}

// copyRoof is the copy roofline: clEnqueueCopyBuffer of n float32 from
// src to dst.
type copyRoof struct {
	q        *cl.Queue
	src, dst *cl.Buffer
	n        int
}

// newCopyRoof makes the roofline of copies of half bytes (each moves
// bytes: half read, half written). Its buffers are written once before
// they are timed, as the routines' are (src with 1, dst with 2): a
// driver may not back a buffer no command has written with memory of its
// own yet. On PoCL, copies of a few MiB between such buffers stayed
// several times slower than between written ones however often they ran
// (BENCHMARKS.md).
func newCopyRoof(b *bencher, half int) (*copyRoof, error) {
	rt := b.impl.Runtime()
	ctx := rt.Context()
	c := &copyRoof{q: rt.Queue(), n: max(half/4, 1)}
	var err error
	if c.src, err = ctx.CreateBuffer(cl.MemReadWrite, 4*c.n); err != nil {
		return nil, err
	}
	if c.dst, err = ctx.CreateBuffer(cl.MemReadWrite, 4*c.n); err != nil {
		c.src.Release()
		return nil, err
	}
	for i, buf := range []*cl.Buffer{c.src, c.dst} {
		ev, err := cl.FillBuffer[float32](c.q, buf, float32(i+1), 0, c.n)
		if err == nil {
			ev.Release()
			err = c.q.Finish()
		}
		if err != nil {
			c.release()
			return nil, err
		}
	}
	return c, nil
}

// run enqueues batch copies and waits for them.
func (c *copyRoof) run(batch int) error {
	for range batch {
		ev, err := cl.CopyBuffer[float32](c.q, c.src, c.dst, 0, 0, c.n)
		if err != nil {
			return err
		}
		ev.Release()
	}
	return c.q.Finish()
}

func (c *copyRoof) release() { c.src.Release(); c.dst.Release() }

// hostCopy is the host's copy over every core: half bytes from src to dst,
// split over the cores (par.For), each core's range in pieces of
// hostCopyPiece bytes. Go's copy of a larger range stores around the
// caches, which the routines' kernels do not, and the roofline would then
// be the memory's where they run from the cache. Both slices are written
// before they are timed, as copyRoof's buffers.
type hostCopy struct {
	src, dst []byte
	workers  int
}

func newHostCopy(half int) *hostCopy {
	h := &hostCopy{src: make([]byte, max(half, 1)), dst: make([]byte, max(half, 1)), workers: runtime.GOMAXPROCS(0)}
	for i := range h.src {
		h.src[i], h.dst[i] = byte(i), 1
	}
	return h
}

// run copies batch times.
func (h *hostCopy) run(batch int) error {
	for range batch {
		par.For(len(h.src), h.workers, func(lo, hi int) {
			for ; lo < hi; lo += hostCopyPiece {
				end := min(hi, lo+hostCopyPiece)
				copy(h.dst[lo:end], h.src[lo:end])
			}
		})
	}
	return nil
}

// hostCopyPiece is below the size from which Go's copy on amd64 takes
// non-temporal stores (1 MiB).
const hostCopyPiece = 512 << 10

// resVec is a resident vector with its CLBlast view.
type resVec[T clblas.Element] struct {
	v    *clblas.Vector[T]
	view clblast.Vec
	host []T
}

func newResVec[T float32 | float64](b *bencher, rnd *rand.Rand, n int) (*resVec[T], error) {
	return residentVec(b, random[T](rnd, n))
}

// residentVec uploads host as a resident vector.
func residentVec[T clblas.Element](b *bencher, host []T) (*resVec[T], error) {
	v, err := clblas.NewVectorFrom(b.impl, host)
	if err != nil {
		return nil, err
	}
	buf, off, inc, err := v.Buffer()
	if err != nil {
		return nil, err
	}
	return &resVec[T]{v, clblast.Vec{Buf: buf, Off: off, Inc: inc}, host}, nil
}

// waitLast waits for the last event of a batch.
func waitLast(ev *clblas.Event, err error) error {
	if err != nil {
		return err
	}
	return ev.Wait()
}

// The timed batches of the rows: each enqueues batch calls and waits for
// the last (the device's queue for CLBlast's).

// residentBatch is the batch of a resident call.
func residentBatch(f func() (*clblas.Event, error)) func(int) error {
	return func(batch int) error {
		var ev *clblas.Event
		var err error
		for range batch {
			if ev, err = f(); err != nil {
				return err
			}
		}
		return waitLast(ev, nil)
	}
}

// waiter is a resident reduction's Scalar.
type waiter interface{ Wait() error }

// scalarBatch is the batch of a resident reduction, which returns a
// Scalar (an event and a read-back of one value).
func scalarBatch(f func() (waiter, error)) func(int) error {
	return func(batch int) error {
		var last waiter
		for range batch {
			s, err := f()
			if err != nil {
				return err
			}
			last = s
		}
		return last.Wait()
	}
}

// theirsBatch is the batch of a CLBlast call on q; nil without CLBlast.
func theirsBatch(q *cl.Queue, f func() error) func(int) error {
	if !clblast.Available {
		return nil
	}
	return func(batch int) error {
		for range batch {
			if err := f(); err != nil {
				return err
			}
		}
		return q.Finish()
	}
}

// hostBatch is the batch of a drop-in call on Go slices.
func hostBatch(f func()) func(int) error {
	return func(batch int) error {
		for range batch {
			f()
		}
		return nil
	}
}

// prefix is the BLAS name prefix of T.
func prefix[T float32 | float64]() string {
	var z T
	if _, ok := any(z).(float64); ok {
		return "D"
	}
	return "S"
}

// level1Ops builds the level 1 routines on vectors of n elements.
func level1Ops[T float32 | float64](b *bencher, n int) ([]l12op, error) {
	rnd := rand.New(rand.NewPCG(1, uint64(n)))
	x, err := newResVec[T](b, rnd, n)
	if err != nil {
		return nil, err
	}
	y, err := newResVec[T](b, rnd, n)
	if err != nil {
		return nil, err
	}
	res, err := clblas.NewVector[T](b.impl, 1)
	if err != nil {
		return nil, err
	}
	resBuf, resOff, _, _ := res.Buffer()
	q := b.impl.Runtime().Queue()
	es := float64(elemBytes[T]())
	size := l1Size(n)
	p := prefix[T]()
	dl := &dropIn[T]{b.impl}
	var (
		c, s  = T(math.Cos(0.3)), T(math.Sin(0.3))
		alpha = T(1e-3)
	)
	loop := residentBatch
	theirs := func(f func() error) func(int) error { return theirsBatch(q, f) }
	reduction := scalarBatch
	ops := []l12op{
		{name: p + "AXPY", bytes: 3 * es * float64(n),
			ours:   loop(func() (*clblas.Event, error) { return clblas.Axpy(alpha, x.v, y.v) }),
			theirs: theirs(func() error { return clblast.Axpy(q, n, alpha, x.view, y.view) }),
			slices: hostBatch(func() { dl.axpy(n, alpha, x.host, y.host) })},
		{name: p + "DOT", bytes: 2 * es * float64(n),
			ours: reduction(func() (waiter, error) { return clblas.Dot(x.v, y.v) }),
			theirs: theirs(func() error {
				return clblast.Dot[T](q, n, resBuf, resOff, x.view, y.view)
			}),
			slices: hostBatch(func() { dl.dot(n, x.host, y.host) }),
			check: func() error {
				s, err := clblas.Dot(x.v, y.v)
				if err != nil {
					return err
				}
				got, err := s.Value(context.Background())
				if err != nil {
					return err
				}
				hx, hy, err := readBoth(x.v, y.v)
				if err != nil {
					return err
				}
				return near(float64(got), refDot(hx, hy), es)
			}},
		{name: p + "NRM2", bytes: es * float64(n),
			ours: reduction(func() (waiter, error) { return clblas.Nrm2(x.v) }),
			theirs: theirs(func() error {
				return clblast.Nrm2[T](q, n, resBuf, resOff, x.view)
			}),
			slices: hostBatch(func() { dl.nrm2(n, x.host) }),
			check: func() error {
				s, err := clblas.Nrm2(x.v)
				if err != nil {
					return err
				}
				got, err := s.Value(context.Background())
				if err != nil {
					return err
				}
				hx, _, err := readBoth(x.v, nil)
				if err != nil {
					return err
				}
				return near(float64(got), refNrm2(hx), es)
			}},
		// DotTo and Nrm2To leave the result on the device: the same
		// kernels as DOT and NRM2 without the read-back of each result,
		// as CLBlast's calls are timed.
		{name: p + "DOTTO", bytes: 2 * es * float64(n),
			ours: loop(func() (*clblas.Event, error) { return clblas.DotTo(x.v, y.v, res) }),
			theirs: theirs(func() error {
				return clblast.Dot[T](q, n, resBuf, resOff, x.view, y.view)
			})},
		{name: p + "NRM2TO", bytes: es * float64(n),
			ours: loop(func() (*clblas.Event, error) { return clblas.Nrm2To(x.v, res) }),
			theirs: theirs(func() error {
				return clblast.Nrm2[T](q, n, resBuf, resOff, x.view)
			})},
		{name: p + "SCAL", bytes: 2 * es * float64(n),
			ours:   loop(func() (*clblas.Event, error) { return clblas.Scal(-1, x.v) }),
			theirs: theirs(func() error { return clblast.Scal(q, n, T(-1), x.view) }),
			slices: hostBatch(func() { dl.scal(n, -1, x.host) })},
		{name: "I" + p + "AMAX", bytes: es * float64(n),
			ours: reduction(func() (waiter, error) { return clblas.Iamax(x.v) }),
			theirs: theirs(func() error {
				return clblast.Iamax[T](q, n, resBuf, resOff, x.view)
			}),
			slices: hostBatch(func() { dl.iamax(n, x.host) })},
		{name: p + "ASUM", bytes: es * float64(n),
			ours: reduction(func() (waiter, error) { return clblas.Asum(x.v) }),
			theirs: theirs(func() error {
				return clblast.Asum[T](q, n, resBuf, resOff, x.view)
			}),
			slices: hostBatch(func() { dl.asum(n, x.host) })},
		{name: p + "COPY", bytes: 2 * es * float64(n),
			ours:   loop(func() (*clblas.Event, error) { return clblas.Copy(x.v, y.v) }),
			theirs: theirs(func() error { return clblast.Copy[T](q, n, x.view, y.view) }),
			slices: hostBatch(func() { dl.copy(n, x.host, y.host) })},
		{name: p + "SWAP", bytes: 4 * es * float64(n),
			ours:   loop(func() (*clblas.Event, error) { return clblas.Swap(x.v, y.v) }),
			theirs: theirs(func() error { return clblast.Swap[T](q, n, x.view, y.view) }),
			slices: hostBatch(func() { dl.swap(n, x.host, y.host) })},
		{name: p + "ROT", bytes: 4 * es * float64(n),
			ours: loop(func() (*clblas.Event, error) { return clblas.Rot(x.v, y.v, c, s) }),
			// CLBlast does not implement ROT (CLBlastStatusCode -1024).
			slices: hostBatch(func() { dl.rot(n, x.host, y.host, c, s) })},
	}
	finishOps(ops, 1, size, func(impl gemmer) { dl.impl = impl }, func() { x.v.Release(); y.v.Release(); res.Release() })
	return ops, nil
}

// l1Size is the size column of a level 1 row over n elements: 2^k or n.
func l1Size(n int) string {
	k := int(math.Round(math.Log2(float64(n))))
	if 1<<k == n {
		return fmt.Sprintf("2^%d", k)
	}
	return fmt.Sprint(n)
}

// finishOps sets the level, size and setImpl of ops, and free, the
// release of their buffers, on the last one (level12Main frees the ops
// after running them all).
func finishOps(ops []l12op, level int, size string, setImpl func(gemmer), free func()) {
	for i := range ops {
		ops[i].level, ops[i].size = level, size
		ops[i].free = func() {}
		ops[i].setImpl = setImpl
	}
	ops[len(ops)-1].free = free
}

// readBoth reads the resident vectors x and y (y may be nil): the earlier
// routines have changed them.
func readBoth[T clblas.Element](x, y *clblas.Vector[T]) ([]T, []T, error) {
	hx := make([]T, x.Len())
	if err := x.Read(hx); err != nil {
		return nil, nil, err
	}
	if y == nil {
		return hx, nil, nil
	}
	hy := make([]T, y.Len())
	return hx, hy, y.Read(hy)
}

// refDot is x·y in float64, the reference for both precisions: gonum's
// float32 Sdot and Snrm2 accumulate in float32, which at 2^26 elements
// stops growing long before the end (its sum of squares stagnates where
// each term is below half an ulp of the sum).
func refDot[T float32 | float64](x, y []T) float64 {
	var s float64
	for i := range x {
		s += float64(x[i]) * float64(y[i])
	}
	return s
}

// refNrm2 is ‖x‖₂ in float64 (see refDot).
func refNrm2[T float32 | float64](x []T) float64 { return math.Sqrt(refDot(x, x)) }

// near checks a reduction against the float64 reference, relative to the
// precision.
func near(got, want, es float64) error {
	tol := 1e-10
	if es == 4 {
		tol = 1e-3
	}
	if math.Abs(got-want) > tol*math.Abs(want) || got != got {
		return fmt.Errorf("ours %v, float64 reference %v", got, want)
	}
	return nil
}

func elemBytes[T clblas.Element]() int {
	var z T
	switch any(z).(type) {
	case float32:
		return 4
	case complex128:
		return 16
	}
	return 8
}

// dropIn calls the drop-in interface of impl (or gonum's) on Go slices
// of T.
type dropIn[T float32 | float64] struct{ impl gemmer }

func (d dropIn[T]) axpy(n int, alpha T, x, y []T) {
	switch x := any(x).(type) {
	case []float32:
		d.impl.Saxpy(n, float32(alpha), x, 1, any(y).([]float32), 1)
	case []float64:
		d.impl.Daxpy(n, float64(alpha), x, 1, any(y).([]float64), 1)
	}
}

func (d dropIn[T]) dot(n int, x, y []T) float64 {
	switch x := any(x).(type) {
	case []float32:
		return float64(d.impl.Sdot(n, x, 1, any(y).([]float32), 1))
	case []float64:
		return d.impl.Ddot(n, x, 1, any(y).([]float64), 1)
	}
	return 0
}

func (d dropIn[T]) nrm2(n int, x []T) float64 {
	switch x := any(x).(type) {
	case []float32:
		return float64(d.impl.Snrm2(n, x, 1))
	case []float64:
		return d.impl.Dnrm2(n, x, 1)
	}
	return 0
}

func (d dropIn[T]) scal(n int, alpha T, x []T) {
	switch x := any(x).(type) {
	case []float32:
		d.impl.Sscal(n, float32(alpha), x, 1)
	case []float64:
		d.impl.Dscal(n, float64(alpha), x, 1)
	}
}

func (d dropIn[T]) iamax(n int, x []T) int {
	switch x := any(x).(type) {
	case []float32:
		return d.impl.Isamax(n, x, 1)
	case []float64:
		return d.impl.Idamax(n, x, 1)
	}
	return -1
}

func (d dropIn[T]) asum(n int, x []T) float64 {
	switch x := any(x).(type) {
	case []float32:
		return float64(d.impl.Sasum(n, x, 1))
	case []float64:
		return d.impl.Dasum(n, x, 1)
	}
	return 0
}

func (d dropIn[T]) copy(n int, x, y []T) {
	switch x := any(x).(type) {
	case []float32:
		d.impl.Scopy(n, x, 1, any(y).([]float32), 1)
	case []float64:
		d.impl.Dcopy(n, x, 1, any(y).([]float64), 1)
	}
}

func (d dropIn[T]) swap(n int, x, y []T) {
	switch x := any(x).(type) {
	case []float32:
		d.impl.Sswap(n, x, 1, any(y).([]float32), 1)
	case []float64:
		d.impl.Dswap(n, x, 1, any(y).([]float64), 1)
	}
}

func (d dropIn[T]) rot(n int, x, y []T, c, s T) {
	switch x := any(x).(type) {
	case []float32:
		d.impl.Srot(n, x, 1, any(y).([]float32), 1, float32(c), float32(s))
	case []float64:
		d.impl.Drot(n, x, 1, any(y).([]float64), 1, float64(c), float64(s))
	}
}

func (d dropIn[T]) gemv(t blas.Transpose, m, n int, alpha T, a []T, x []T, beta T, y []T) {
	switch a := any(a).(type) {
	case []float32:
		d.impl.Sgemv(t, m, n, float32(alpha), a, n, any(x).([]float32), 1, float32(beta), any(y).([]float32), 1)
	case []float64:
		d.impl.Dgemv(t, m, n, float64(alpha), a, n, any(x).([]float64), 1, float64(beta), any(y).([]float64), 1)
	}
}

func (d dropIn[T]) ger(m, n int, alpha T, x, y, a []T) {
	switch a := any(a).(type) {
	case []float32:
		d.impl.Sger(m, n, float32(alpha), any(x).([]float32), 1, any(y).([]float32), 1, a, n)
	case []float64:
		d.impl.Dger(m, n, float64(alpha), any(x).([]float64), 1, any(y).([]float64), 1, a, n)
	}
}

func (d dropIn[T]) syr(n int, alpha T, x, a []T) {
	switch a := any(a).(type) {
	case []float32:
		d.impl.Ssyr(blas.Upper, n, float32(alpha), any(x).([]float32), 1, a, n)
	case []float64:
		d.impl.Dsyr(blas.Upper, n, float64(alpha), any(x).([]float64), 1, a, n)
	}
}

func (d dropIn[T]) syr2(n int, alpha T, x, y, a []T) {
	switch a := any(a).(type) {
	case []float32:
		d.impl.Ssyr2(blas.Upper, n, float32(alpha), any(x).([]float32), 1, any(y).([]float32), 1, a, n)
	case []float64:
		d.impl.Dsyr2(blas.Upper, n, float64(alpha), any(x).([]float64), 1, any(y).([]float64), 1, a, n)
	}
}

func (d dropIn[T]) symv(n int, alpha T, a, x []T, beta T, y []T) {
	switch a := any(a).(type) {
	case []float32:
		d.impl.Ssymv(blas.Upper, n, float32(alpha), a, n, any(x).([]float32), 1, float32(beta), any(y).([]float32), 1)
	case []float64:
		d.impl.Dsymv(blas.Upper, n, float64(alpha), a, n, any(x).([]float64), 1, float64(beta), any(y).([]float64), 1)
	}
}

func (d dropIn[T]) trmv(tA blas.Transpose, n int, a, x []T) {
	switch a := any(a).(type) {
	case []float32:
		d.impl.Strmv(blas.Upper, tA, blas.NonUnit, n, a, n, any(x).([]float32), 1)
	case []float64:
		d.impl.Dtrmv(blas.Upper, tA, blas.NonUnit, n, a, n, any(x).([]float64), 1)
	}
}

// level2Ops builds the level 2 routines on n×n matrices.
func level2Ops[T float32 | float64](b *bencher, n int) ([]l12op, error) {
	rnd := rand.New(rand.NewPCG(2, uint64(n)))
	// Entries in [0, 1/n): repeated products (TRMV) stay bounded.
	host := make([]T, n*n)
	for i := range host {
		host[i] = T(rnd.Float64() / float64(n))
	}
	a, err := clblas.NewMatrixFrom(b.impl, n, n, host)
	if err != nil {
		return nil, err
	}
	abuf, aoff, err := a.Buffer()
	if err != nil {
		return nil, err
	}
	am := clblast.Mat{Buf: abuf, Off: aoff, Ld: n}
	x, err := newResVec[T](b, rnd, n)
	if err != nil {
		return nil, err
	}
	y, err := newResVec[T](b, rnd, n)
	if err != nil {
		return nil, err
	}
	q := b.impl.Runtime().Queue()
	es := float64(elemBytes[T]())
	nn, nf := float64(n)*float64(n), float64(n)
	tri := nf * (nf + 1) / 2
	p := prefix[T]()
	dl := &dropIn[T]{b.impl}
	loop := residentBatch
	theirs := func(f func() error) func(int) error { return theirsBatch(q, f) }
	slices := hostBatch
	const alpha, beta = 1, 0.5
	gemv := func(t blas.Transpose) l12op {
		return l12op{name: p + "GEMV-" + string(t), bytes: es * (nn + 3*nf),
			ours: loop(func() (*clblas.Event, error) { return clblas.Gemv(t, alpha, a, x.v, beta, y.v) }),
			theirs: theirs(func() error {
				return clblast.Gemv(q, t == blas.Trans, n, n, T(alpha), am, x.view, T(beta), y.view)
			}),
			slices: slices(func() { dl.gemv(t, n, n, alpha, host, x.host, beta, y.host) })}
	}
	ops := []l12op{
		gemv(blas.NoTrans),
		gemv(blas.Trans),
		{name: p + "GER", bytes: es * (2*nn + 2*nf),
			ours:   loop(func() (*clblas.Event, error) { return clblas.Ger(T(1e-9), x.v, y.v, a) }),
			theirs: theirs(func() error { return clblast.Ger(q, n, n, T(1e-9), x.view, y.view, am) }),
			slices: slices(func() { dl.ger(n, n, T(1e-9), x.host, y.host, host) })},
		// SYR reads and writes the upper triangle and reads x: 2·tri + n.
		{name: p + "SYR", bytes: es * (2*tri + nf),
			ours:   loop(func() (*clblas.Event, error) { return clblas.Syr(blas.Upper, T(1e-9), x.v, a) }),
			theirs: theirs(func() error { return clblast.Syr(q, true, n, T(1e-9), x.view, am) }),
			slices: slices(func() { dl.syr(n, T(1e-9), x.host, host) })},
		// SYR2 reads and writes the upper triangle and reads x and y:
		// 2·tri + 2n.
		{name: p + "SYR2", bytes: es * (2*tri + 2*nf),
			ours:   loop(func() (*clblas.Event, error) { return clblas.Syr2(blas.Upper, T(1e-9), x.v, y.v, a) }),
			theirs: theirs(func() error { return clblast.Syr2(q, true, n, T(1e-9), x.view, y.view, am) }),
			slices: slices(func() { dl.syr2(n, T(1e-9), x.host, y.host, host) })},
		{name: p + "SYMV", bytes: es * (tri + 3*nf),
			ours: loop(func() (*clblas.Event, error) { return clblas.Symv(blas.Upper, alpha, a, x.v, beta, y.v) }),
			theirs: theirs(func() error {
				return clblast.Symv(q, true, n, T(alpha), am, x.view, T(beta), y.view)
			}),
			slices: slices(func() { dl.symv(n, alpha, host, x.host, beta, y.host) })},
		{name: p + "TRMV", bytes: es * (tri + 2*nf),
			ours: loop(func() (*clblas.Event, error) {
				return clblas.Trmv(blas.Upper, blas.NoTrans, blas.NonUnit, a, x.v)
			}),
			theirs: theirs(func() error { return clblast.Trmv[T](q, true, false, false, n, am, x.view) }),
			slices: slices(func() { dl.trmv(blas.NoTrans, n, host, x.host) })},
		{name: p + "TRMV-T", bytes: es * (tri + 2*nf),
			ours: loop(func() (*clblas.Event, error) {
				return clblas.Trmv(blas.Upper, blas.Trans, blas.NonUnit, a, x.v)
			}),
			theirs: theirs(func() error { return clblast.Trmv[T](q, true, true, false, n, am, x.view) }),
			slices: slices(func() { dl.trmv(blas.Trans, n, host, x.host) })},
	}
	more, freeMore, err := level2SolveOps(b, n, a, am, x, y, loop, theirs) // level2solve.go
	if err != nil {
		freeMore()
		return nil, err
	}
	ops = append(ops, more...)
	finishOps(ops, 2, fmt.Sprintf("%d^2", n), func(impl gemmer) { dl.impl = impl },
		func() { a.Release(); x.v.Release(); y.v.Release(); freeMore() })
	return ops, nil
}

// chartL12 draws, per routine, bars of GB/s: ours resident, CLBlast, the
// copy roofline and ours from Go slices.
func chartL12(rows []l12row, path, device string) error {
	p := plot.New()
	p.Title.Text = "Level 1 and 2 on " + device + " (GB/s)"
	p.Y.Label.Text = "GB/s"
	p.Add(plotter.NewGrid())
	names := make([]string, len(rows))
	for i, r := range rows {
		names[i] = r.name + " " + r.size
	}
	series := []struct {
		name string
		get  func(l12row) float64
		c    color.Color
	}{
		{"ours, resident", func(r l12row) float64 { return r.ours }, color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 255}},
		{"CLBlast, resident", func(r l12row) float64 { return r.theirs }, color.RGBA{R: 0xd6, G: 0x27, B: 0x28, A: 255}},
		{"copy (roofline)", func(r l12row) float64 { return r.copyRate }, color.RGBA{R: 0x7f, G: 0x7f, B: 0x7f, A: 255}},
		{"ours, from Go slices", func(r l12row) float64 { return r.slice }, color.RGBA{R: 0x2c, G: 0xa0, B: 0x2c, A: 255}},
	}
	w := vg.Points(7)
	for i, s := range series {
		vals := make(plotter.Values, len(rows))
		for j, r := range rows {
			vals[j] = s.get(r)
		}
		bars, err := plotter.NewBarChart(vals, w)
		if err != nil {
			return err
		}
		bars.Color = s.c
		bars.LineStyle.Width = 0
		bars.Offset = vg.Length(i-len(series)/2) * w
		p.Add(bars)
		p.Legend.Add(s.name, bars)
	}
	p.NominalX(names...)
	p.X.Tick.Label.Rotation = math.Pi / 4
	p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = -1, -0.5
	width := vg.Length(max(len(rows), 6)) * 4 * w * 1.6
	return saveBesideLegend(p, width+3*vg.Inch, 5*vg.Inch, path)
}

// level12Flags parses -level, -ops into their lists.
func level12Flags(levels, ops string) ([]string, map[string]bool) {
	only := map[string]bool{}
	for _, o := range split(ops) {
		only[strings.ToUpper(o)] = true
	}
	lv := split(levels)
	for _, l := range lv {
		if l != "1" && l != "2" {
			log.Fatalf("bench: bad -level %q (want 1, 2 or 1,2)", l)
		}
	}
	return lv, only
}
