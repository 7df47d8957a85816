package cllapack

import (
	"errors"

	"gonum.org/v1/gonum/blas"
)

// Dpotrf computes the Cholesky factorization of the symmetric positive
// definite n×n matrix A held in the ul triangle of a:
//
//	A = Uᵀ·U  if ul == blas.Upper,
//	A = L·Lᵀ  if ul == blas.Lower,
//
// overwriting that triangle with U or L; the other triangle is not
// referenced. It returns false, as gonum's Dpotrf does, if A is not positive
// definite; the factor is then incomplete.
//
// Calls with arguments gonum rejects are forwarded to gonum's Dpotrf, which
// panics with its messages; so are calls the offload policy keeps on the
// CPU.
func (impl *Implementation) Dpotrf(ul blas.Uplo, n int, a []float64, lda int) (ok bool) {
	valid := (ul == blas.Upper || ul == blas.Lower) && n > 0 && lda >= n && len(a) >= (n-1)*lda+n
	if !valid || !impl.offload(n) {
		return impl.Implementation.Dpotrf(ul, n, a, lda)
	}
	h := impl.hostMatrix(n, n, a, lda)
	// A matrix holding NaN or Inf goes to gonum's code (keepChecked):
	// gonum's Dpotf2 scales a row by 1/pivot = 0 with Dscal, which zeroes
	// it, where for an infinite pivot the device's diagonal blocks, and
	// the products with the inverse of the host's, form Inf·0 = NaN.
	s := h.keepChecked()
	if s == nil && impl.hostBand {
		s = saveCheckedAsync(n, n, a, lda) // the triangle is restored from it
	}
	defer s.free()
	ok, err := impl.potrfDevice(ul, h, s)
	if errors.Is(err, errNonFinite) {
		return impl.Implementation.Dpotrf(ul, n, a, lda)
	}
	if err != nil {
		impl.fellBack("Dpotrf", err)
		s.restore(a, lda)
		return impl.Implementation.Dpotrf(ul, n, a, lda)
	}
	s.wait()
	impl.onDevice.Add(1)
	return ok
}

// potrfDevice uploads h's matrix, factorises it on the device and reads
// the factor back into it once s holds its copy.
func (impl *Implementation) potrfDevice(ul blas.Uplo, h *hostMatrix, s *saved) (ok bool, err error) {
	defer h.done()
	d, err := h.upload()
	if err != nil {
		return false, err
	}
	ok, err = potrfBand(impl, ul, d, !impl.hostBand)
	if err == nil && s != nil && !s.finite() {
		err = errNonFinite
	}
	if err == nil {
		err = h.download(d, "Dpotrf")
	}
	if err == nil && impl.hostBand {
		// Outside the band the device's copy of the other triangle is
		// the caller's, and the download brought it back unchanged.
		s.restoreBand(ul, h.a, h.lda, planPotrf[float64](impl, h.rows).bw)
	}
	return ok, h.finish("Dpotrf", err, putScratch(impl, d))
}
