package cllapack

import (
	"fmt"
	"slices"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack"

	clblas "github.com/gocompute/opencl/blas"
)

// Dormqr multiplies the m×n matrix C by the orthogonal Q of a QR
// factorization computed by Dgeqrf (k reflectors in a and tau):
//
//	C = Q·C   side == blas.Left,  trans == blas.NoTrans,
//	C = Qᵀ·C  side == blas.Left,  trans == blas.Trans,
//	C = C·Q   side == blas.Right, trans == blas.NoTrans,
//	C = C·Qᵀ  side == blas.Right, trans == blas.Trans.
//
// work holds lwork elements (at least max(1, n) for Left, max(1, m) for
// Right); lwork == −1 is a workspace query, answered in work[0] as gonum
// does, and work[0] holds gonum's optimal workspace on return.
//
// The Left cases run on the device: C is uploaded once and the block
// reflectors, formed on the host from a, are applied with Gemm and Trmm.
// The Right cases, workspace queries, calls with arguments gonum rejects
// and calls the offload policy keeps on the CPU are forwarded to gonum's
// Dormqr, and so, with C restored from the copy kept aside, is a call
// whose reflectors, tau or C hold NaN or Inf (allFinite).
func (impl *Implementation) Dormqr(side blas.Side, trans blas.Transpose, m, n, k int, a []float64, lda int, tau, c []float64, ldc int, work []float64, lwork int) {
	valid := side == blas.Left && (trans == blas.NoTrans || trans == blas.Trans) &&
		m > 0 && n > 0 && k > 0 && k <= m && lda >= k && ldc >= n &&
		lwork >= n && len(work) >= lwork &&
		len(a) >= (m-1)*lda+k && len(tau) == k && len(c) >= (m-1)*ldc+n
	if !valid || !impl.offloadSolve(m, n) {
		impl.Implementation.Dormqr(side, trans, m, n, k, a, lda, tau, c, ldc, work, lwork)
		return
	}
	// The reflectors and tau, which the device's path only reads, are read
	// for NaN and Inf while the device works.
	refl := make(chan bool, 1)
	go func() { refl <- allFinite(m, k, a, lda) && allFinite(1, k, tau, k) }()
	s := saveCheckedAsync(m, n, c, ldc)
	defer s.free()
	err := impl.ormqrDevice(trans, m, n, k, a, lda, tau, c, ldc, s, false)
	// Waited for in every case: gonum's Dormqr writes into a for a while
	// (each reflector's diagonal element).
	reflFinite := <-refl
	if err != nil || !s.finite() || !reflFinite {
		if err != nil {
			impl.fellBack("Dormqr", err)
		}
		s.restore(c, ldc)
		impl.Implementation.Dormqr(side, trans, m, n, k, a, lda, tau, c, ldc, work, lwork)
		return
	}
	// gonum's answer to a workspace query.
	impl.Implementation.Dormqr(side, trans, m, n, k, a, lda, tau, c, ldc, work, -1)
	impl.onDevice.Add(1)
}

// ormqrDevice applies Q (NoTrans: the blocks last to first, each as H) or
// Qᵀ (Trans: first to last, each as Hᵀ) from the left to C, uploaded
// once, and reads the product back into c once s holds its copy. With
// identity (C is the first n columns of I, Dorgqr's case) block i is applied
// to columns i… only: the columns before it are still those of I there,
// which H_i leaves alone.
func (impl *Implementation) ormqrDevice(trans blas.Transpose, m, n, k int, a []float64, lda int, tau, c []float64, ldc int, s *saved, identity bool) (err error) {
	nb := min(impl.nb, k)
	var d *clblas.Matrix[float64]
	if identity {
		eye := make([]float64, m*n)
		for i := range n {
			eye[i*n+i] = 1
		}
		d, err = clblas.NewMatrixFrom(impl.blas, m, n, eye)
	} else {
		d, err = clblas.NewMatrixFromStrided(impl.blas, m, n, ldc, c)
	}
	if err != nil {
		return err
	}
	mats := []*clblas.Matrix[float64]{d}
	defer func() {
		if rerr := releaseAll(mats...); rerr != nil && err == nil {
			err = rerr
		}
	}()
	dv, dt, dw, err := newReflectorScratch(impl.blas, m, n, nb)
	if err != nil {
		return err
	}
	mats = append(mats, dv, dt, dw)
	for _, i := range qrBlocks(k, nb, blas.Left, trans) {
		ib := min(nb, k-i)
		// Fresh host buffers per block: each is read by an upload that
		// may still be pending while the next block is formed.
		v := make([]float64, (m-i)*ib)
		t := make([]float64, ib*ib)
		impl.Dlarft(lapack.Forward, lapack.ColumnWise, m-i, ib, a[i*lda+i:], lda, tau[i:i+ib], t, ib)
		formV(m-i, ib, a[i*lda+i:], lda, v)
		c0 := 0
		if identity {
			c0 = i
		}
		if err := applyReflector(d, dv, dt, dw, v, t, trans, i, c0, m-i, n-c0, ib); err != nil {
			return err
		}
	}
	s.wait()
	if err := d.ReadStrided(c, ldc); err != nil {
		return fmt.Errorf("cllapack: Dormqr: reading C: %w", err)
	}
	return nil
}

// qrBlocks is the first column of each block of nb of k reflectors in the
// order Q = H(0)···H(k−1)'s blocks apply from side: the one nearest C
// first. From the left that is last to first for Q·C (trans ==
// blas.NoTrans) and first to last for Qᵀ·C; from the right first to last
// for C·Q and last to first for C·Qᵀ.
func qrBlocks(k, nb int, side blas.Side, trans blas.Transpose) []int {
	var blocks []int
	for i := 0; i < k; i += nb {
		blocks = append(blocks, i)
	}
	if (side == blas.Left) == (trans == blas.NoTrans) {
		slices.Reverse(blocks)
	}
	return blocks
}
