package cllapack

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack/gonum"

	"github.com/gocompute/opencl/cl"

	clblas "github.com/gocompute/opencl/blas"
)

// TestReversedPivots: applied in order, reversedPivots' interchanges
// permute rows as the original ones applied in reverse (gonum's Dlaswp
// with incX = −1) do, for pivots as Dgetrf makes them (ipiv[i] ≥ i) and
// for any rows at all, and each names a row at or below its own.
func TestReversedPivots(t *testing.T) {
	rnd := rand.New(rand.NewPCG(61, 62))
	g := gonum.Implementation{}
	for _, n := range []int{1, 2, 3, 7, 40, 200} {
		for _, any := range []bool{false, true} {
			ipiv := make([]int, n)
			for i := range ipiv {
				if any {
					ipiv[i] = rnd.IntN(n)
				} else {
					ipiv[i] = i + rnd.IntN(n-i)
				}
			}
			rows := func() []float64 {
				b := make([]float64, 2*n)
				for i := range n {
					b[2*i], b[2*i+1] = float64(i), -float64(i)
				}
				return b
			}
			want, got := rows(), rows()
			g.Dlaswp(2, want, 2, 0, n-1, ipiv, -1)
			q := reversedPivots(ipiv)
			for i, p := range q {
				if p < i || p >= n {
					t.Fatalf("n = %d: q[%d] = %d", n, i, p)
				}
			}
			g.Dlaswp(2, got, 2, 0, n-1, q, 1)
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("n = %d, any rows %v: element %d = %v, want %v (ipiv %v, q %v)", n, any, i, got[i], want[i], ipiv, q)
				}
			}
		}
	}
}

// TestResidentSolves factorises float32 and float64 matrices on the
// device with Getrf and Potrf and solves with Getrs (every transpose) and
// Potrs (both triangles), the right-hand sides a view at an offset of a
// larger matrix, and holds the solutions to the backward error LAPACK's
// tests allow: ‖op(A)·X − B‖ / (‖A‖·‖X‖·n·ε) below 30. Orders above 128
// make more than one laswp launch.
func TestResidentSolves(t *testing.T) {
	impl := newTestImpl(t, 32)
	t.Run("float64", func(t *testing.T) { residentSolves[float64](t, impl, 0x1p-52) })
	t.Run("float32", func(t *testing.T) { residentSolves[float32](t, impl, 0x1p-23) })
}

func residentSolves[T float32 | float64](t *testing.T, impl *Implementation, eps float64) {
	rnd := rand.New(rand.NewPCG(63, 64))
	for _, n := range []int{1, 7, 130, 301} {
		for _, nrhs := range []int{1, 5} {
			gen := make([]float64, n*n)
			for i := range gen {
				gen[i] = rnd.NormFloat64()
			}
			rhs := make([]float64, n*nrhs)
			for i := range rhs {
				rhs[i] = rnd.NormFloat64()
			}
			for _, tr := range []blas.Transpose{blas.NoTrans, blas.Trans, blas.ConjTrans} {
				what := fmt.Sprintf("Getrs %c n=%d nrhs=%d", tr, n, nrhs)
				x := solveResident[T](t, impl, what, gen, rhs, n, nrhs, func(a, b *clblas.Matrix[T], wait *clblas.Event) (*clblas.Event, error) {
					ipiv := make([]int, n)
					if _, err := Getrf(impl, a, ipiv); err != nil {
						return nil, err
					}
					return Getrs(impl, tr, a, ipiv, b, wait)
				})
				checkBackward(t, what, gen, tr != blas.NoTrans, x, rhs, n, nrhs, eps)
			}
			sym := spd(n, n, rnd)
			for _, ul := range []blas.Uplo{blas.Upper, blas.Lower} {
				what := fmt.Sprintf("Potrs %c n=%d nrhs=%d", ul, n, nrhs)
				x := solveResident[T](t, impl, what, sym, rhs, n, nrhs, func(a, b *clblas.Matrix[T], wait *clblas.Event) (*clblas.Event, error) {
					if ok, err := Potrf(impl, ul, a); err != nil || !ok {
						return nil, fmt.Errorf("Potrf: ok %v, %v", ok, err)
					}
					return Potrs(impl, ul, a, b, wait)
				})
				full := append([]float64(nil), sym...)
				for i := range n { // the solve reads one triangle: A is both
					for j := range i {
						full[i*n+j] = full[j*n+i]
					}
				}
				checkBackward(t, what, full, false, x, rhs, n, nrhs, eps)
			}
		}
	}
}

// solveResident uploads a (n×n) and b (n×nrhs, into a view at an offset of
// a larger matrix), runs solve with b's write as its dependency, waits for
// its event and returns the solution in float64.
func solveResident[T float32 | float64](t *testing.T, impl *Implementation, what string, a, b []float64, n, nrhs int, solve func(a, b *clblas.Matrix[T], wait *clblas.Event) (*clblas.Event, error)) []float64 {
	t.Helper()
	da, err := clblas.NewMatrixFrom(impl.blas, n, n, toT[T](a))
	if err != nil {
		t.Fatal(err)
	}
	defer da.Release()
	big, err := clblas.NewMatrix[T](impl.blas, n+3, nrhs+2)
	if err != nil {
		t.Fatal(err)
	}
	defer big.Release()
	db, err := big.View(2, 1, n, nrhs)
	if err != nil {
		t.Fatal(err)
	}
	wrote, err := db.Write(toT[T](b))
	if err != nil {
		t.Fatal(err)
	}
	ev, err := solve(da, db, wrote)
	if err == nil {
		err = ev.Wait()
	}
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	got := make([]T, n*nrhs)
	if err := db.Read(got); err != nil {
		t.Fatal(err)
	}
	return to64(got)
}

// checkBackward fails t unless ‖op(A)·X − B‖∞ / (‖A‖∞·‖X‖∞·n·ε) < 30,
// op(A) = Aᵀ if trans.
func checkBackward(t *testing.T, what string, a []float64, trans bool, x, b []float64, n, nrhs int, eps float64) {
	t.Helper()
	var anorm, xnorm, rnorm float64
	for i := range n {
		var row float64
		for j := range n {
			row += math.Abs(a[i*n+j])
		}
		anorm = math.Max(anorm, row)
	}
	if trans {
		anorm = 0
		for j := range n {
			var col float64
			for i := range n {
				col += math.Abs(a[i*n+j])
			}
			anorm = math.Max(anorm, col)
		}
	}
	for i := range n {
		var xr, rr float64
		for c := range nrhs {
			s := -b[i*nrhs+c]
			for k := range n {
				aik := a[i*n+k]
				if trans {
					aik = a[k*n+i]
				}
				s += aik * x[k*nrhs+c]
			}
			rr += math.Abs(s)
			xr += math.Abs(x[i*nrhs+c])
		}
		rnorm, xnorm = math.Max(rnorm, rr), math.Max(xnorm, xr)
	}
	if r := rnorm / (anorm * xnorm * float64(n) * eps); !(r < 30) {
		t.Errorf("%s: backward error %.3g (‖r‖ %.3g, ‖A‖ %.3g, ‖X‖ %.3g)", what, r, rnorm, anorm, xnorm)
	}
}

// TestResidentSolveArgs: bad arguments to Getrs and Potrs are errors that
// wrap clblas.ErrInvalidArg or clblas.ErrShape.
func TestResidentSolveArgs(t *testing.T) {
	impl := newTestImpl(t, 32)
	mk := func(r, c int) *clblas.Matrix[float64] {
		m, err := clblas.NewMatrix[float64](impl.blas, r, c)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { m.Release() })
		return m
	}
	a, b, wide, short := mk(4, 4), mk(4, 2), mk(4, 5), mk(3, 2)
	ok := []int{1, 1, 3, 3}
	for _, c := range []struct {
		name string
		err  error
		want error
	}{
		{"nil a", second(Getrs(impl, blas.NoTrans, nil, ok, b)), clblas.ErrInvalidArg},
		{"nil b", second(Getrs[float64](impl, blas.NoTrans, a, ok, nil)), clblas.ErrInvalidArg},
		{"wide a", second(Getrs(impl, blas.NoTrans, wide, ok, b)), clblas.ErrShape},
		{"short b", second(Getrs(impl, blas.NoTrans, a, ok, short)), clblas.ErrShape},
		{"bad trans", second(Getrs(impl, 'X', a, ok, b)), clblas.ErrInvalidArg},
		{"short ipiv", second(Getrs(impl, blas.NoTrans, a, ok[:3], b)), clblas.ErrInvalidArg},
		{"negative pivot", second(Getrs(impl, blas.Trans, a, []int{1, -1, 3, 3}, b)), clblas.ErrInvalidArg},
		{"pivot past n", second(Getrs(impl, blas.NoTrans, a, []int{1, 1, 3, 4}, b)), clblas.ErrInvalidArg},
		{"Potrs nil a", second(Potrs(impl, blas.Upper, nil, b)), clblas.ErrInvalidArg},
		{"Potrs wide a", second(Potrs(impl, blas.Upper, wide, b)), clblas.ErrShape},
		{"Potrs short b", second(Potrs(impl, blas.Lower, a, short)), clblas.ErrShape},
		{"Potrs bad uplo", second(Potrs(impl, 'X', a, b)), clblas.ErrInvalidArg},
	} {
		if !errors.Is(c.err, c.want) {
			t.Errorf("%s: %v, want an error wrapping %v", c.name, c.err, c.want)
		}
	}
}

// TestResidentSolveFailedDependency: a failed event among Getrs's
// (untransposed: the interchanges come first and wait on the host) and
// Ormqr's dependencies is an error naming it, and nothing is enqueued.
func TestResidentSolveFailedDependency(t *testing.T) {
	impl := newTestImpl(t, 32)
	failed := failedEvent(t, impl)
	a, err := clblas.NewMatrixFrom(impl.blas, 2, 2, []float64{2, 1, 1, 3})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Release()
	b, err := clblas.NewMatrixFrom(impl.blas, 2, 1, []float64{1, 2})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Release()
	if _, err := Getrs(impl, blas.NoTrans, a, []int{0, 1}, b, failed); err == nil || !strings.Contains(err.Error(), "dependency failed") {
		t.Errorf("Getrs after a failed event: %v", err)
	}
	if _, err := Ormqr(impl, blas.Left, blas.Trans, a, []float64{0.5}, b, failed); err == nil || !strings.Contains(err.Error(), "dependency failed") {
		t.Errorf("Ormqr after a failed event: %v", err)
	}
	got := make([]float64, 2)
	if err := b.Read(got); err != nil || got[0] != 1 || got[1] != 2 {
		t.Errorf("B = %v (%v), want it untouched", got, err)
	}
}

// failedEvent is an event that has failed.
func failedEvent(t *testing.T, impl *Implementation) *clblas.Event {
	t.Helper()
	u, err := impl.blas.Runtime().Context().CreateUserEvent()
	if err != nil {
		t.Fatal(err)
	}
	if err := u.SetFailed(cl.OutOfResources); err != nil {
		t.Fatal(err)
	}
	return clblas.EventFromCL(u)
}

func second[A, B any](_ A, b B) B { return b }
