package clblas

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"

	"github.com/gocompute/opencl/cl"
	eng "github.com/gocompute/opencl/internal/engine"
	"github.com/gocompute/opencl/internal/settings"
	"github.com/gocompute/opencl/platform/platformtest"
)

// Zgemm and Cgemm from Go slices on the staged, pipelined path (forced on
// PoCL with small tiles, as stagedImpl and slabImpl do for the real GEMM).

// zStagedCases are every transpose pair over shapes that span several
// tiles of 8 or 16 (ragged edges), one row, one column and k = 0, with
// padded and unpadded leading dimensions and alpha, beta in {0, 1, i,
// other}.
func zStagedCases() []zgemmCase {
	var cs []zgemmCase
	shapes := [][3]int{{37, 29, 23}, {1, 20, 9}, {19, 1, 17}, {9, 21, 0}}
	scalars := []complex128{0, 1, 1i, complex(0.75, -1.5)}
	for si, s := range shapes {
		for _, tA := range allTrans {
			for _, tB := range allTrans {
				for bi, beta := range scalars {
					alpha := scalars[(bi+si+3)%len(scalars)]
					cs = append(cs, zgemmCase{tA, tB, s[0], s[1], s[2], 3 * ((si + bi) % 2), alpha, beta})
				}
			}
		}
	}
	return cs
}

// TestZgemmStaged compares Zgemm and Cgemm on the staged path with gonum
// over zStagedCases, with tiles of 16 and 8 and with the row-slab
// schedule (k in 3 chunks, ragged, and in 1), by the 4M and the 3M
// method, checks that C's padding is untouched and that every call took
// the staged path.
func TestZgemmStaged(t *testing.T) {
	for _, method := range []struct {
		m    eng.ZMethod
		name string
	}{{eng.Z4M, "4M"}, {eng.Z3M, "3M"}} {
		for _, mode := range []struct{ tile, chunks int }{{16, 0}, {8, 0}, {16, 3}, {8, 1}} {
			name := fmt.Sprintf("tile%d", mode.tile)
			if mode.chunks > 0 {
				name = fmt.Sprintf("slab%d-chunks%d", mode.tile, mode.chunks)
			}
			t.Run(name+"/"+method.name, func(t *testing.T) {
				impl, e := slabImpl(t, mode.tile, mode.chunks)
				e.ZMethod = method.m
				testZgemmStaged(t, impl, e)
			})
		}
	}
}

func testZgemmStaged(t *testing.T, impl *Implementation, e *eng.Engine) {
	ref := gonum.Implementation{}
	rnd := rand.New(rand.NewPCG(11, 12))
	before, calls := e.Xfer.Calls.Load(), 0
	for _, cs := range zStagedCases() {
		if (cs.alpha == 0 || cs.k == 0) && cs.beta == 1 {
			continue // gonum's quick return: nothing runs
		}
		name := fmt.Sprintf("%c%c/%dx%dx%d/pad%d/alpha=%v/beta=%v", cs.tA, cs.tB, cs.m, cs.n, cs.k, cs.pad, cs.alpha, cs.beta)
		a, lda, b, ldb, c, ldc := cs.inputs(rnd)
		for i := range c {
			if i%ldc >= cs.n {
				c[i] = padSentinel
			}
		}
		want := append([]complex128(nil), c...)
		ref.Zgemm(cs.tA, cs.tB, cs.m, cs.n, cs.k, cs.alpha, a, lda, b, ldb, cs.beta, want, ldc)
		got := append([]complex128(nil), c...)
		impl.Zgemm(cs.tA, cs.tB, cs.m, cs.n, cs.k, cs.alpha, a, lda, b, ldb, cs.beta, got, ldc)
		if err := zRelErr(got, want, cs.m, cs.n, ldc); !(err <= 1e-14) {
			t.Errorf("Zgemm %s: relative error %g", name, err)
		}
		a64, b64, c64 := toC64(a), toC64(b), toC64(c)
		want = toC128(c64)
		ref.Zgemm(cs.tA, cs.tB, cs.m, cs.n, cs.k, cs.alpha, toC128(a64), lda, toC128(b64), ldb, cs.beta, want, ldc)
		g64 := append([]complex64(nil), c64...)
		impl.Cgemm(cs.tA, cs.tB, cs.m, cs.n, cs.k, complex64(cs.alpha), a64, lda, b64, ldb, complex64(cs.beta), g64, ldc)
		if err := zRelErr(toC128(g64), want, cs.m, cs.n, ldc); !(err <= 2e-6) {
			t.Errorf("Cgemm %s: relative error %g", name, err)
		}
		for i := range c {
			if i%ldc >= cs.n && (got[i] != padSentinel || g64[i] != padSentinel) {
				t.Fatalf("%s: padding element %d changed", name, i)
			}
		}
		calls += 2
	}
	if got := e.Xfer.Calls.Load() - before; got != int64(calls) {
		t.Errorf("%d of %d calls took the staged path", got, calls)
	}
	for _, name := range []string{"Zgemm", "Cgemm"} {
		if st := impl.Stats()[name]; st.Device != int64(calls/2) || st.CPU != 0 {
			t.Errorf("Stats()[%q] = %+v, want all %d calls on the device", name, st, calls/2)
		}
	}
}

// TestZgemmStagedNonFinite: on the staged path (tiles, beta == 0 with C
// unpacked as the tiles arrive, and beta ≠ 0 with C written at the end),
// an Inf in A or B gives gonum's answer and counts as a call kept on the
// CPU for it; a C that comes back finite is the device's.
func TestZgemmStagedNonFinite(t *testing.T) {
	impl, _ := stagedImpl(t, 8)
	rnd := rand.New(rand.NewPCG(6, 1))
	const m, n, k = 20, 19, 7
	kept := 0
	for _, beta := range []complex128{0, 2 - 1i} {
		for _, where := range []string{"a", "b", "none"} {
			a, b, c := zRand(rnd, m*k), zRand(rnd, k*n), zRand(rnd, m*n)
			switch where {
			case "a":
				a[5*k+3] = complex(math.Inf(1), 0)
			case "b":
				b[2*n+17] = complex(0, math.NaN())
			}
			want := append([]complex128(nil), c...)
			gonum.Implementation{}.Zgemm(blas.NoTrans, blas.NoTrans, m, n, k, 1i, a, k, b, n, beta, want, n)
			got := append([]complex128(nil), c...)
			impl.Zgemm(blas.NoTrans, blas.NoTrans, m, n, k, 1i, a, k, b, n, beta, got, n)
			if where != "none" {
				kept++
				for j := range got {
					if !zSame(got[j], want[j]) {
						t.Fatalf("beta=%v, Inf in %s: element %d = %v, want gonum's %v", beta, where, j, got[j], want[j])
					}
				}
			} else if err := zRelErr(got, want, m, n, n); err > 1e-14 {
				t.Fatalf("beta=%v: relative error %g", beta, err)
			}
			if st := impl.Stats()["Zgemm"]; st.NonFinite != int64(kept) {
				t.Errorf("beta=%v, %s: Stats %+v, want %d calls kept on the CPU for NaN or Inf", beta, where, st, kept)
			}
		}
	}
}

// TestZgemmStagedFault injects a failure at the n-th enqueue or read of a
// pipelined complex call (earlier tiles have run and come back): the
// answer is still gonum's, with beta ≠ 0 and beta == 0.
func TestZgemmStagedFault(t *testing.T) {
	for _, site := range []string{"enqueue", "read"} {
		for _, nth := range []int{3, 9} {
			for _, beta := range []complex128{0, 0.5i} {
				t.Run(fmt.Sprintf("%s%d/beta=%v", site, nth, beta), func(t *testing.T) {
					impl, e := stagedImpl(t, 8)
					rnd := rand.New(rand.NewPCG(uint64(nth), 3))
					const m, n, k = 30, 26, 11
					a, b, c := zRand(rnd, k*m), zRand(rnd, n*k), zRand(rnd, m*n)
					want := append([]complex128(nil), c...)
					gonum.Implementation{}.Zgemm(blas.ConjTrans, blas.Trans, m, n, k, 1-2i, a, m, b, k, beta, want, n)
					count := 0
					fail := func(s string) error {
						if s == site {
							if count++; count == nth {
								return fmt.Errorf("%s: %w", s, errInjected)
							}
						}
						return nil
					}
					e.Fault.Store(&fail)
					defer e.Fault.Store(nil)
					got := append([]complex128(nil), c...)
					impl.Zgemm(blas.ConjTrans, blas.Trans, m, n, k, 1-2i, a, m, b, k, beta, got, n)
					if err := zRelErr(got, want, m, n, n); err > 1e-14 {
						t.Fatalf("relative error %g after a failure at %s %d", err, site, nth)
					}
					if st := impl.Stats()["Zgemm"]; st.Failed != 1 {
						t.Errorf("Stats %+v, want 1 failed device call", st)
					}
				})
			}
		}
	}
}

// TestZgemmStagedNoLeaks runs complex staged calls (tiles and row slabs,
// a transposed A expanded on the device) and closes the implementation:
// every OpenCL object is released.
func TestZgemmStagedNoLeaks(t *testing.T) {
	platformtest.Device(t)
	for _, chunks := range []int{0, 2} {
		base := cl.LiveObjects()
		impl, err := New(WithOffload(Always))
		if err != nil {
			t.Fatal(err)
		}
		impl.eng.PipeMode = settings.Pipeline{Force: true, Tile: 8, Slab: chunks}
		rnd := rand.New(rand.NewPCG(7, uint64(chunks)))
		const m, n, k = 21, 18, 13
		a, b, c := zRand(rnd, k*m), zRand(rnd, k*n), zRand(rnd, m*n)
		for _, beta := range []complex128{0, 0.5} {
			impl.Zgemm(blas.ConjTrans, blas.NoTrans, m, n, k, 1i, a, m, b, n, beta, c, n)
		}
		if st := impl.Stats()["Zgemm"]; st.Device != 2 || impl.eng.Xfer.Calls.Load() != 2 {
			t.Errorf("chunks=%d: Stats %+v, %d staged calls, want 2 on the device, staged", chunks, st, impl.eng.Xfer.Calls.Load())
		}
		if err := impl.Close(); err != nil {
			t.Fatal(err)
		}
		for kind, n := range cl.LiveObjects() {
			if n != base[kind] {
				t.Errorf("chunks=%d: %d %s objects live after Close, %d before New", chunks, n, kind, base[kind])
			}
		}
	}
}

// TestZgemmStagedHostSlices: complex operands that lie in a HostSlice (a
// float64 one viewed as complex128) move by rect transfers straight from
// and into it, by tiles and by row slabs, with beta == 0 (C read back
// straight) and beta ≠ 0; the answers are gonum's.
func TestZgemmStagedHostSlices(t *testing.T) {
	for _, chunks := range []int{0, 2} {
		impl, e := slabImpl(t, 8, chunks)
		const m, n, k, pad = 19, 21, 13, 2
		hs, err := NewHostSlice[float64](impl, 2*(m*(k+pad)+k*(n+pad)+m*(n+pad)))
		if err != nil {
			t.Fatal(err)
		}
		defer hs.Release()
		all := unsafe.Slice((*complex128)(unsafe.Pointer(unsafe.SliceData(hs.Data()))), len(hs.Data())/2)
		a, b, c := all[:m*(k+pad)], all[m*(k+pad):m*(k+pad)+k*(n+pad)], all[m*(k+pad)+k*(n+pad):]
		rnd := rand.New(rand.NewPCG(9, uint64(chunks)))
		for _, beta := range []complex128{0, 0.5 - 1i} {
			copy(a, zRand(rnd, len(a)))
			copy(b, zRand(rnd, len(b)))
			copy(c, zRand(rnd, len(c)))
			want := append([]complex128(nil), c...)
			gonum.Implementation{}.Zgemm(blas.NoTrans, blas.NoTrans, m, n, k, 2i, a, k+pad, b, n+pad, beta, want, n+pad)
			before := e.Xfer.BytesDirect.Load()
			impl.Zgemm(blas.NoTrans, blas.NoTrans, m, n, k, 2i, a, k+pad, b, n+pad, beta, c, n+pad)
			if err := zRelErr(c, want, m, n, n+pad); err > 1e-14 {
				t.Errorf("chunks=%d beta=%v: relative error %g", chunks, beta, err)
			}
			for i := range c {
				if i%(n+pad) >= n && c[i] != want[i] {
					t.Fatalf("chunks=%d beta=%v: padding element %d changed", chunks, beta, i)
				}
			}
			if e.Xfer.BytesDirect.Load() == before {
				t.Errorf("chunks=%d beta=%v: nothing moved straight from the HostSlice", chunks, beta)
			}
		}
	}
}
