package cllapack

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack/gonum"
	"gonum.org/v1/gonum/lapack/testlapack"
)

// TestDgeqrfGonum runs gonum's own Dgeqrf suite with the device forced and
// a small block size.
func TestDgeqrfGonum(t *testing.T) {
	impl := newTestImpl(t, 16)
	testlapack.DgeqrfTest(t, impl)
}

// TestDgeqrfSizes compares the device factorization (R, reflectors, tau
// and work[0]) with gonum's at shapes that cross several blocks, strided.
func TestDgeqrfSizes(t *testing.T) {
	impl := newTestImpl(t, 32)
	rnd := rand.New(rand.NewPCG(19, 20))
	shapes := [][2]int{{1, 1}, {7, 7}, {64, 64}, {200, 200}, {257, 130}, {90, 200}, {300, 1}}
	for _, mn := range shapes {
		m, n := mn[0], mn[1]
		dgeqrfAgainstGonum(t, impl, rnd, fmt.Sprintf("%d×%d", m, n), m, n, n+3)
	}
	if got := impl.onDevice.Load(); got != int64(len(shapes)) {
		t.Errorf("%d calls ran on the device, want %d", got, len(shapes))
	}
}

// TestDormqrGonum runs gonum's own Dormqr suite with the device forced; its
// k of 100 to 300 reflectors cross several 32-wide blocks.
func TestDormqrGonum(t *testing.T) {
	impl := newTestImpl(t, 32)
	testlapack.DormqrTest(t, impl)
}

// TestDormqrSizes compares the device products Q·C and Qᵀ·C with gonum's
// for reflectors that span several blocks.
func TestDormqrSizes(t *testing.T) {
	impl := newTestImpl(t, 16)
	g := gonum.Implementation{}
	rnd := rand.New(rand.NewPCG(21, 22))
	const m, k, lda = 130, 100, 103
	a := make([]float64, (m-1)*lda+k)
	for i := range a {
		a[i] = rnd.NormFloat64()
	}
	tau := make([]float64, k)
	work := make([]float64, 64*k)
	g.Dgeqrf(m, k, a, lda, tau, work, len(work))
	for _, n := range []int{1, 70} {
		ldc := n + 2
		c := make([]float64, (m-1)*ldc+n)
		for i := range c {
			c[i] = rnd.NormFloat64()
		}
		for _, tr := range []blas.Transpose{blas.NoTrans, blas.Trans} {
			got := append([]float64(nil), c...)
			want := append([]float64(nil), c...)
			wg := make([]float64, 64*(n+64))
			ww := make([]float64, len(wg))
			impl.Dormqr(blas.Left, tr, m, n, k, a, lda, tau, got, ldc, wg, len(wg))
			g.Dormqr(blas.Left, tr, m, n, k, a, lda, tau, want, ldc, ww, len(ww))
			compare(t, "Dormqr", m, n, got, want, ldc, 1e-10)
			checkPadding(t, "Dormqr", m, n, got, c, ldc)
			if wg[0] != ww[0] {
				t.Errorf("n=%d %c: work[0] = %v, gonum %v", n, tr, wg[0], ww[0])
			}
		}
	}
	if got := impl.onDevice.Load(); got != 4 {
		t.Errorf("%d calls ran on the device, want 4", got)
	}
}

// TestDorgqrGonum runs gonum's own Dorgqr suite with the device forced and
// a small block size.
func TestDorgqrGonum(t *testing.T) {
	impl := newTestImpl(t, 8)
	testlapack.DorgqrTest(t, impl)
}

// TestDorgqrSizes compares the device Q with gonum's, and work[0], for
// reflectors that span several blocks, strided.
func TestDorgqrSizes(t *testing.T) {
	impl := newTestImpl(t, 16)
	g := gonum.Implementation{}
	rnd := rand.New(rand.NewPCG(23, 24))
	cases := [][3]int{{130, 100, 100}, {130, 100, 60}, {50, 50, 50}, {40, 1, 1}}
	for _, c := range cases {
		m, n, k := c[0], c[1], c[2]
		lda := n + 3
		a := make([]float64, (m-1)*lda+n)
		for i := range a {
			a[i] = rnd.NormFloat64()
		}
		tau := make([]float64, k)
		work := make([]float64, 64*n)
		g.Dgeqrf(m, k, a, lda, tau, work, len(work))
		got := append([]float64(nil), a...)
		want := append([]float64(nil), a...)
		wg := make([]float64, 64*n)
		ww := make([]float64, 64*n)
		impl.Dorgqr(m, n, k, got, lda, tau, wg, len(wg))
		g.Dorgqr(m, n, k, want, lda, tau, ww, len(ww))
		compare(t, "Dorgqr", m, n, got, want, lda, 1e-10)
		checkPadding(t, "Dorgqr", m, n, got, a, lda)
		if wg[0] != ww[0] {
			t.Errorf("%v: work[0] = %v, gonum %v", c, wg[0], ww[0])
		}
	}
	if got := impl.onDevice.Load(); got != int64(len(cases)) {
		t.Errorf("%d calls ran on the device, want %d", got, len(cases))
	}
}

// TestReflectorScratchError: when one of the scratch matrices cannot be
// allocated (here W, too wide for the kernels' indices), the call fails
// and releases the ones it had made.
func TestReflectorScratchError(t *testing.T) {
	impl := newTestImpl(t, 8)
	dv, dt, dw, err := newReflectorScratch(impl.blas, 4, 1<<40, 2)
	if err == nil || dv != nil || dt != nil || dw != nil {
		t.Fatalf("got %v %v %v, %v; want an error and no matrices", dv, dt, dw, err)
	}
	dv, dt, dw, err = newReflectorScratch(impl.blas, 4, 3, 2)
	if err != nil {
		t.Fatal(err)
	}
	if err := releaseAll(dv, dt, dw); err != nil {
		t.Fatal(err)
	}
}
