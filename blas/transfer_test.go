package clblas

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gocompute/opencl/internal/settings"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"

	"github.com/gocompute/opencl/cl"
	eng "github.com/gocompute/opencl/internal/engine"
	"github.com/gocompute/opencl/platform/platformtest"
)

// The staged GEMM path (pinned staging, tiles pipelined over three queues)
// is forced on the test device (PoCL: a CPU, where it is off by default)
// with small tiles, so that several tiles, panels and queues take part.

// stagedImpl returns a private implementation whose GEMM on host slices
// takes the staged path with tile×tile tiles (0: the size-based choice).
func stagedImpl(t *testing.T, tile int) (*Implementation, *eng.Engine) {
	t.Helper()
	impl, e := privateImpl(t, nil)
	e.PipeMode = settings.Pipeline{Force: true, Tile: tile}
	return impl, e
}

// slabImpl is stagedImpl with the row-slab schedule forced (slabs of tile
// rows, k cut into chunks) wherever op(B) is not transposed.
func slabImpl(t *testing.T, tile, chunks int) (*Implementation, *eng.Engine) {
	t.Helper()
	impl, e := privateImpl(t, nil)
	e.PipeMode = settings.Pipeline{Force: true, Tile: tile, Slab: chunks}
	return impl, e
}

// gemmCase is one GEMM from host slices with its reference answer.
type gemmCase[T eng.Real] struct {
	tA, tB        blas.Transpose
	m, n, k       int
	alpha, beta   T
	a, b, c, want []T
	lda, ldb, ldc int
}

const padSentinel = -12345.5

func newGemmCase[T eng.Real](rnd *rand.Rand, tA, tB blas.Transpose, m, n, k, pad int, alpha, beta T) gemmCase[T] {
	g := gemmCase[T]{tA: tA, tB: tB, m: m, n: n, k: k, alpha: alpha, beta: beta}
	ar, ac := eng.Stored(tA, m, k)
	br, bc := eng.Stored(tB, k, n)
	g.lda, g.ldb, g.ldc = max(ac, 1)+pad, max(bc, 1)+pad, n+pad
	fill := func(rows, ld, cols int) []T {
		s := make([]T, max(rows*ld, 1))
		for i := range s {
			if cols < ld && i%ld >= cols {
				s[i] = padSentinel
				continue
			}
			s[i] = T(rnd.Float64() - 0.5)
		}
		return s
	}
	g.a, g.b, g.c = fill(ar, g.lda, ac), fill(br, g.ldb, bc), fill(m, g.ldc, n)
	if beta == 0 {
		for i := range g.c {
			if i%g.ldc < n {
				g.c[i] = T(math.NaN()) // must be overwritten, not read
			}
		}
	}
	want := append([]T(nil), g.c...)
	switch w := any(want).(type) {
	case []float64:
		gonum.Implementation{}.Dgemm(tA, tB, m, n, k, float64(alpha), any(g.a).([]float64), g.lda, any(g.b).([]float64), g.ldb, float64(beta), w, g.ldc)
	case []float32:
		gonum.Implementation{}.Sgemm(tA, tB, m, n, k, float32(alpha), any(g.a).([]float32), g.lda, any(g.b).([]float32), g.ldb, float32(beta), w, g.ldc)
	}
	g.want = want
	return g
}

// run calls the device routine directly (no CPU fallback) on a copy of C.
func (g gemmCase[T]) run(e *eng.Engine) ([]T, error) {
	return g.runInto(e, append([]T(nil), g.c...))
}

// runInto is run with the copy of C in c.
func (g gemmCase[T]) runInto(e *eng.Engine, c []T) ([]T, error) {
	copy(c, g.c)
	var err error
	switch cc := any(c).(type) {
	case []float64:
		err = eng.ClDevice64{E: e}.Dgemm(g.tA, g.tB, g.m, g.n, g.k, float64(g.alpha), any(g.a).([]float64), g.lda, any(g.b).([]float64), g.ldb, float64(g.beta), cc, g.ldc)
	case []float32:
		err = eng.ClDevice32{E: e}.Sgemm(g.tA, g.tB, g.m, g.n, g.k, float32(g.alpha), any(g.a).([]float32), g.lda, any(g.b).([]float32), g.ldb, float32(g.beta), cc, g.ldc)
	}
	return c, err
}

func (g gemmCase[T]) String() string {
	return fmt.Sprintf("%c%c m=%d n=%d k=%d lda=%d ldb=%d ldc=%d alpha=%v beta=%v",
		rune(g.tA), rune(g.tB), g.m, g.n, g.k, g.lda, g.ldb, g.ldc, g.alpha, g.beta)
}

// check compares got with the reference: padding bit-for-bit untouched,
// values within tol (relative to k).
func (g gemmCase[T]) check(t *testing.T, got []T, tol float64) {
	t.Helper()
	for i := range got {
		if i%g.ldc >= g.n {
			if got[i] != padSentinel {
				t.Errorf("%v: padding element %d = %v, changed", g, i, got[i])
				return
			}
			continue
		}
		w, v := float64(g.want[i]), float64(got[i])
		if math.IsNaN(w) != math.IsNaN(v) || (!math.IsNaN(w) && math.Abs(w-v) > tol*float64(max(g.k, 1))) {
			t.Errorf("%v: element (%d, %d) = %v, want %v", g, i/g.ldc, i%g.ldc, v, w)
			return
		}
	}
}

var stagedTransposes = []blas.Transpose{blas.NoTrans, blas.Trans}

func testStagedGemm[T eng.Real](t *testing.T, e *eng.Engine, tol float64) {
	rnd := rand.New(rand.NewPCG(5, uint64(eng.PrecisionOf[T]())))
	before := e.Xfer.Calls.Load()
	calls := 0
	for _, tA := range stagedTransposes {
		for _, tB := range stagedTransposes {
			for _, shape := range [][3]int{{37, 29, 23}, {16, 16, 16}, {1, 45, 9}, {50, 3, 1}, {9, 40, 0}} {
				for _, pad := range []int{0, 3} {
					for _, ab := range [][2]T{{1, 0}, {-0.75, 0.5}, {0, 2}, {1.5, 1}} {
						g := newGemmCase(rnd, tA, tB, shape[0], shape[1], shape[2], pad, ab[0], ab[1])
						got, err := g.run(e)
						if err != nil {
							t.Fatalf("%v: %v", g, err)
						}
						calls++
						g.check(t, got, tol)
					}
				}
			}
		}
	}
	if got := e.Xfer.Calls.Load() - before; got != int64(calls) {
		t.Errorf("%d of %d calls took the staged path", got, calls)
	}
}

// TestStagedGemm compares the staged, pipelined GEMM with gonum over every
// transpose, padded and unpadded leading dimensions, beta == 0 with NaN in
// C, alpha == 0, k == 0, one-row and one-column shapes, with tiles of 16
// (several tiles in both directions, ragged edges) and of 8, and with the
// row-slab schedule (slabs of 16 and 8 rows; k in 3 chunks, ragged when k
// is not a multiple of 3, and in 1).
func TestStagedGemm(t *testing.T) {
	for _, mode := range []struct{ tile, chunks int }{{16, 0}, {8, 0}, {16, 3}, {8, 1}} {
		name := fmt.Sprintf("tile%d", mode.tile)
		if mode.chunks > 0 {
			name = fmt.Sprintf("slab%d-chunks%d", mode.tile, mode.chunks)
		}
		t.Run(name, func(t *testing.T) {
			_, e := slabImpl(t, mode.tile, mode.chunks)
			t.Run("float64", func(t *testing.T) {
				if !e.Prof.FP64 {
					t.Skip("no fp64")
				}
				testStagedGemm[float64](t, e, 1e-13)
			})
			t.Run("float32", func(t *testing.T) { testStagedGemm[float32](t, e, 2e-6) })
		})
	}
}

// TestStagedGemmSizeChoice runs the staged path with the tiles it chooses
// itself: one tile below the pipeline threshold, several above it.
func TestStagedGemmSizeChoice(t *testing.T) {
	_, e := stagedImpl(t, 0)
	if mt, nt := e.Plan().Tiles(100, 100, 100); mt != 100 || nt != 100 {
		t.Errorf("small problem cut into %d×%d tiles", mt, nt)
	}
	for _, s := range [][3]int{{8192, 8192, 8192}, {4096, 4096, 4096}, {20000, 300, 5000}, {300, 20000, 5000}, {2048, 2048, 2048}} {
		m, n, k := s[0], s[1], s[2]
		mt, nt := e.Plan().Tiles(m, n, k)
		if mt <= 0 || nt <= 0 || mt > m || nt > n {
			t.Errorf("%v: tiles %d×%d", s, mt, nt)
		}
		if tiles := eng.L3CeilDiv(m, mt) * eng.L3CeilDiv(n, nt); tiles < 2 || tiles > 64 {
			t.Errorf("%v: %d tiles of %d×%d", s, tiles, mt, nt)
		}
	}
	rnd := rand.New(rand.NewPCG(7, 8))
	g := newGemmCase[float32](rnd, blas.Trans, blas.NoTrans, 300, 260, 200, 1, 1, 0.5)
	got, err := g.run(e)
	if err != nil {
		t.Fatal(err)
	}
	g.check(t, got, 2e-6)
}

// failAt returns a fault hook that fails the nth use of site with
// errInjected, and its counter of uses.
func failAt(site string, nth int64) (func(string) error, *atomic.Int64) {
	seen := new(atomic.Int64)
	return func(s string) error {
		if s == site && seen.Add(1) == nth {
			return fmt.Errorf("%s #%d: %w", s, nth, errInjected)
		}
		return nil
	}, seen
}

// TestStagedGemmFault injects a failure at the n-th enqueue or read of a
// pipelined call (mid-pipeline: earlier tiles have been computed and read
// back): the device call fails and the user's C is bit-for-bit unchanged;
// through the front end the call still returns gonum's answer.
func TestStagedGemmFault(t *testing.T) {
	impl, e := stagedImpl(t, 8)
	rnd := rand.New(rand.NewPCG(9, 10))
	g := newGemmCase[float64](rnd, blas.NoTrans, blas.Trans, 30, 27, 12, 2, 0.5, 1.25)
	// A call borrows 4 buffers: a failure of a later allocation never
	// comes.
	checkFaults(t, impl, e, g, map[string][]int64{"enqueue": {1, 3, 7}, "read": {1, 3, 7}, "alloc": {1, 3}}, "read", 2)
	fail, _ := failAt("alloc", 7)
	e.Fault.Store(&fail)
	_, err := g.run(e)
	e.Fault.Store(nil)
	if err != nil {
		t.Errorf("alloc #7: %v", err)
	}
}

// TestSlabGemmFault is TestStagedGemmFault for the row-slab schedule: 4
// slabs of 8 rows (4 downloads) and k in 3 chunks, so 7 uploads of A and
// B and 4 of C.
func TestSlabGemmFault(t *testing.T) {
	impl, e := slabImpl(t, 8, 3)
	rnd := rand.New(rand.NewPCG(31, 32))
	g := newGemmCase[float64](rnd, blas.NoTrans, blas.NoTrans, 30, 27, 12, 2, 0.5, 1.25)
	checkFaults(t, impl, e, g, map[string][]int64{"enqueue": {1, 2, 4, 11}, "read": {1, 2, 4}}, "enqueue", 5)
}

// checkFaults runs g healthy (which builds the kernels), then with the
// nth use of each fault site failing: each failed call must report the
// injected error and leave C bit for bit as it was. Last, with frontSite's
// frontNth use failing, the front end must finish the call on the CPU
// with gonum's answer.
func checkFaults(t *testing.T, impl *Implementation, e *eng.Engine, g gemmCase[float64], sites map[string][]int64, frontSite string, frontNth int64) {
	t.Helper()
	if _, err := g.run(e); err != nil {
		t.Fatal(err)
	}
	for site, nths := range sites {
		for _, nth := range nths {
			fail, _ := failAt(site, nth)
			e.Fault.Store(&fail)
			got, err := g.run(e)
			e.Fault.Store(nil)
			if !errors.Is(err, errInjected) {
				t.Errorf("%s #%d: error %v, want the injected one", site, nth, err)
			}
			for i := range got {
				if math.Float64bits(got[i]) != math.Float64bits(g.c[i]) {
					t.Errorf("%s #%d: C[%d] changed from %v to %v by a failed call", site, nth, i, g.c[i], got[i])
					break
				}
			}
		}
	}
	fail, _ := failAt(frontSite, frontNth)
	e.Fault.Store(&fail)
	c := append([]float64(nil), g.c...)
	impl.Dgemm(g.tA, g.tB, g.m, g.n, g.k, g.alpha, g.a, g.lda, g.b, g.ldb, g.beta, c, g.ldc)
	e.Fault.Store(nil)
	g.check(t, c, 1e-13)
}

// TestStagedGemmFaultBetaZero: with beta == 0 tiles are unpacked into C as
// they arrive, so a call that fails mid-pipeline may have written part of
// C; the failure is still reported, and through the front end the call
// returns gonum's answer for every failure point.
func TestStagedGemmFaultBetaZero(t *testing.T) {
	impl, e := stagedImpl(t, 8)
	rnd := rand.New(rand.NewPCG(11, 12))
	g := newGemmCase[float64](rnd, blas.Trans, blas.NoTrans, 33, 41, 10, 1, 0.75, 0)
	if _, err := g.run(e); err != nil {
		t.Fatal(err)
	}
	for _, site := range []string{"enqueue", "read"} {
		for _, nth := range []int64{1, 4, 9, 17} {
			fail, seen := failAt(site, nth)
			e.Fault.Store(&fail)
			_, err := g.run(e)
			if !errors.Is(err, errInjected) {
				t.Errorf("%s #%d: error %v, want the injected one", site, nth, err)
			}
			seen.Store(0)
			c := append([]float64(nil), g.c...)
			impl.Dgemm(g.tA, g.tB, g.m, g.n, g.k, g.alpha, g.a, g.lda, g.b, g.ldb, g.beta, c, g.ldc)
			e.Fault.Store(nil)
			g.check(t, c, 1e-13)
		}
	}
}

// TestStagedGemmNoLeaks runs staged calls (tiles and row slabs) and
// closes the implementation: the pinned pool and the device pool reuse
// their buffers, and Close releases every OpenCL object (staging buffers,
// pipeline queues).
func TestStagedGemmNoLeaks(t *testing.T) {
	t.Run("tiles", func(t *testing.T) { testStagedGemmNoLeaks(t, 0) })
	t.Run("slabs", func(t *testing.T) { testStagedGemmNoLeaks(t, 3) })
}

// testStagedGemmNoLeaks is TestStagedGemmNoLeaks with tiles of 32, or row
// slabs of 32 and k in chunks > 0 chunks.
func testStagedGemmNoLeaks(t *testing.T, chunks int) {
	platformtest.Device(t)
	base := cl.LiveObjects()
	impl, err := New(WithOffload(Always))
	if err != nil {
		t.Fatal(err)
	}
	e := impl.dev32.(eng.ClDevice32).E
	e.PipeMode = settings.Pipeline{Force: true, Tile: 32, Slab: chunks}
	rnd := rand.New(rand.NewPCG(11, 12))
	g := newGemmCase[float32](rnd, blas.NoTrans, blas.NoTrans, 70, 64, 40, 0, 1, 0)
	var peak int64
	for i := range 30 {
		got, err := g.run(e)
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			g.check(t, got, 2e-6)
		}
		peak = max(peak, cl.LiveObjects()["buffer"]-base["buffer"])
	}
	if peak > 16 {
		t.Errorf("%d live buffers after repeated staged calls: the pools are not reusing them", peak)
	}
	if err := impl.Close(); err != nil {
		t.Fatal(err)
	}
	for kind, n := range cl.LiveObjects() {
		if n != base[kind] {
			t.Errorf("%d %s objects live after Close, %d before New", n, kind, base[kind])
		}
	}
}

// TestStagedGemmTaperedRows runs the staged path with tiles of 512 rows on
// 1536 rows, so that the last row panel is halved (engine.RowPanels), in every
// transpose, with beta = 0 (tiles unpacked as they arrive) and beta ≠ 0.
func TestStagedGemmTaperedRows(t *testing.T) {
	_, e := stagedImpl(t, 512)
	if ps := eng.RowPanels(1536, 512); len(ps) != 4 {
		t.Fatalf("eng.RowPanels(1536, 512) = %v: no tapered tail to test", ps)
	}
	rnd := rand.New(rand.NewPCG(13, 14))
	for _, tA := range stagedTransposes {
		for _, tB := range stagedTransposes {
			for _, beta := range []float64{0, 0.5} {
				g := newGemmCase(rnd, tA, tB, 1536, 37, 9, 2, 1.5, beta)
				got, err := g.run(e)
				if err != nil {
					t.Fatalf("%v: %v", g, err)
				}
				g.check(t, got, 1e-13)
			}
		}
	}
}

// TestStagedGemmAfterResidentWork: a staged GEMM does not start before the
// work already enqueued on the engine's queue (which may still use pooled
// buffers the staged call takes): with that queue held by a user event,
// the call waits, and completes correctly once the event is set.
func TestStagedGemmAfterResidentWork(t *testing.T) {
	_, e := stagedImpl(t, 8)
	rnd := rand.New(rand.NewPCG(15, 16))
	g := newGemmCase[float64](rnd, blas.NoTrans, blas.NoTrans, 20, 18, 7, 0, 1, 0)
	if _, err := g.run(e); err != nil {
		t.Fatal(err) // builds the kernels
	}
	gate, err := e.RT.Context().CreateUserEvent()
	if err != nil {
		t.Fatal(err)
	}
	defer gate.Release()
	var open sync.Once // the queue must be let go on every path out
	release := func() {
		open.Do(func() {
			if err := gate.SetComplete(); err != nil {
				t.Error(err)
			}
		})
	}
	defer release()
	held, err := e.Queue.EnqueueMarker(gate)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Release()
	if err := e.Queue.Flush(); err != nil {
		t.Fatal(err)
	}
	type result struct {
		got []float64
		err error
	}
	done := make(chan result, 1)
	go func() {
		got, err := g.run(e)
		done <- result{got, err}
	}()
	var r result
	select {
	case r = <-done:
		t.Error("the staged GEMM finished while the engine's queue was held")
	case <-time.After(200 * time.Millisecond):
		release()
		r = <-done
	}
	if r.err != nil {
		t.Fatal(r.err)
	}
	g.check(t, r.got, 1e-13)
}

// TestStagedGemmTimeline: a staged call on the test device records a
// timeline whose parts fit in its span.
func TestStagedGemmTimeline(t *testing.T) {
	impl, e := stagedImpl(t, 64)
	if !e.Prof.FP64 {
		t.Skip("no fp64")
	}
	before := impl.TransferStats()
	m, n, k := 300, 260, 200
	a, b, c := make([]float64, m*k), make([]float64, k*n), make([]float64, m*n)
	for i := range a {
		a[i] = float64(i%7) - 3
	}
	for i := range b {
		b[i] = float64(i%5) - 2
	}
	impl.Dgemm(blas.NoTrans, blas.NoTrans, m, n, k, 1, a, k, b, n, 0, c, n)
	st := impl.TransferStats().Sub(before)
	if st.Calls != 1 {
		t.Fatalf("%d staged calls, want 1", st.Calls)
	}
	if st.Span <= 0 || st.Fill < 0 || st.Fill > st.Span || st.Drain < 0 || st.Drain > st.Span ||
		st.BusIdle < 0 || st.BusIdle > st.Span || st.ComputeIdle < 0 || st.ComputeIdle > st.Span {
		t.Errorf("timeline out of its span: %+v", st)
	}
	if st.Span > st.Wall {
		t.Errorf("device span %v longer than the call's wall time %v", st.Span, st.Wall)
	}
}

// TestStagedGemmTimelineFile: with the pipeline mode's timeline file, each
// staged call appends its commands, every upload, kernel and download with
// its device times and the bytes moved; a file that cannot be written is
// logged and leaves the call's answer alone.
func TestStagedGemmTimelineFile(t *testing.T) {
	_, e := slabImpl(t, 16, 2)
	path := filepath.Join(t.TempDir(), "timeline.log")
	e.PipeMode.Timeline = path
	rnd := rand.New(rand.NewPCG(41, 42))
	g := newGemmCase[float32](rnd, blas.NoTrans, blas.NoTrans, 40, 24, 30, 0, 1, 0.5)
	for range 2 {
		got, err := g.run(e)
		if err != nil {
			t.Fatal(err)
		}
		g.check(t, got, 2e-6)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// Per call: 3 slabs and 2 chunks: 5 uploads of A and B, 3 of C, 6
	// kernel commands at least, 3 downloads.
	count := map[string]int{}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		f := strings.Fields(line)
		if len(f) < 4 || f[0] == "call" {
			count[f[0]]++
			continue
		}
		start, err1 := strconv.ParseFloat(f[1], 64)
		end, err2 := strconv.ParseFloat(f[2], 64)
		bytes, err3 := strconv.Atoi(f[3])
		if err1 != nil || err2 != nil || err3 != nil || start < 0 || end < start || (f[0] != "gemm") != (bytes > 0) {
			t.Errorf("bad line %q", line)
		}
		count[f[0]]++
	}
	if count["call"] != 2 || count["up"] != 2*8 || count["down"] != 2*3 || count["gemm"] < 2*6 {
		t.Errorf("timeline file has %v, want 2 calls of 8 uploads, 3 downloads and at least 6 kernels", count)
	}
	e.PipeMode.Timeline = filepath.Join(t.TempDir(), "no such folder", "timeline.log")
	got, err := g.run(e)
	if err != nil {
		t.Fatal(err)
	}
	g.check(t, got, 2e-6)
}
