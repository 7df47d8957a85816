package cllapack

import "gonum.org/v1/gonum/blas"

// Dorgqr overwrites the m×n matrix A (m ≥ n ≥ k) with the first n columns
// of the orthogonal Q = H_0·H_1·…·H_{k−1} of a QR factorization computed by
// Dgeqrf (the reflectors in the first k columns of a and in tau). work holds
// lwork ≥ max(1, n) elements; lwork == −1 is a workspace query, answered in
// work[0] as gonum does, and work[0] holds gonum's optimal workspace on
// return.
//
// On the device, Q is formed by applying the block reflectors, last to
// first, to the first n columns of the identity, uploaded once. Workspace
// queries, calls with arguments gonum rejects, k == 0, a tau holding NaN
// or Inf and calls the offload policy keeps on the CPU are forwarded to
// gonum's Dorgqr, and so, from the copy kept aside, is a call whose a holds
// NaN or Inf (allFinite).
func (impl *Implementation) Dorgqr(m, n, k int, a []float64, lda int, tau, work []float64, lwork int) {
	valid := k > 0 && k <= n && n <= m && lda >= n && lwork >= n && len(work) >= lwork &&
		len(a) >= (m-1)*lda+n && len(tau) == k
	if !valid || !impl.offloadQR(n) || !allFinite(1, k, tau, k) {
		impl.Implementation.Dorgqr(m, n, k, a, lda, tau, work, lwork)
		return
	}
	s := saveCheckedAsync(m, n, a, lda)
	defer s.free()
	if err := impl.ormqrDevice(blas.NoTrans, m, n, k, a, lda, tau, a, lda, s, true); err != nil || !s.finite() {
		if err != nil {
			impl.fellBack("Dorgqr", err)
		}
		s.restore(a, lda)
		impl.Implementation.Dorgqr(m, n, k, a, lda, tau, work, lwork)
		return
	}
	work[0] = float64(impl.orgqrWork(m, n, k))
	impl.onDevice.Add(1)
}

// orgqrWork is the workspace gonum's Dorgqr reports in work[0] after
// forming Q.
func (impl *Implementation) orgqrWork(m, n, k int) int {
	nb := impl.Ilaenv(1, "DORGQR", " ", m, n, k, -1)
	if 1 < nb && nb < k && max(0, impl.Ilaenv(3, "DORGQR", " ", m, n, k, -1)) < k {
		return n * nb
	}
	return n
}
