package cllapack

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack"

	clblas "github.com/gocompute/opencl/blas"
)

// Dgeqrf computes the QR factorization of the m×n matrix A,
//
//	A = Q·R,
//
// with Q = H_0·H_1·…·H_{k−1}, k = min(m, n), a product of elementary
// reflectors H_i = I − tau[i]·v·vᵀ stored as gonum's Dgeqrf stores them: R
// on and above the diagonal of a, the vectors v below it, their scale
// factors in tau (len(tau) must be k). work holds lwork ≥ max(1, n) elements;
// lwork == −1 is a workspace query, answered in work[0] as gonum does. On
// return work[0] is the workspace gonum's Dgeqrf would have liked; the
// device path itself needs none of it.
//
// Workspace queries, calls with arguments gonum rejects, matrices holding
// NaN or Inf (see allFinite) and calls the offload policy keeps on the CPU
// are forwarded to gonum's Dgeqrf.
func (impl *Implementation) Dgeqrf(m, n int, a []float64, lda int, tau, work []float64, lwork int) {
	k := min(m, n)
	valid := k > 0 && lda >= n && lwork >= n && len(work) >= lwork &&
		len(a) >= (m-1)*lda+n && len(tau) == k
	if !valid || !impl.offloadQR(k) {
		impl.Implementation.Dgeqrf(m, n, a, lda, tau, work, lwork)
		return
	}
	e, device := qrScale(m, n, a, lda)
	if !device {
		impl.Implementation.Dgeqrf(m, n, a, lda, tau, work, lwork)
		return
	}
	if e != 0 {
		// Extreme elements (see qrScaleHi): factorise 2^e·A, whose R is
		// 2^e times A's, on the device or, after a failure, by gonum.
		scaleRows(m, n, a, lda, e, func(int) int { return 0 })
		defer scaleRows(min(m, n), n, a, lda, -e, func(i int) int { return i })
	}
	h := impl.hostMatrix(m, n, a, lda)
	s := h.keep()
	defer s.free()
	if err := impl.geqrfDevice(h, tau, s); err != nil {
		impl.fellBack("Dgeqrf", err)
		s.restore(a, lda)
		impl.Implementation.Dgeqrf(m, n, a, lda, tau, work, lwork)
		return
	}
	s.wait()
	work[0] = float64(impl.geqrfWork(m, n))
	impl.onDevice.Add(1)
}

// geqrfWork is the workspace gonum's Dgeqrf reports in work[0] after a
// factorization.
func (impl *Implementation) geqrfWork(m, n int) int {
	k := min(m, n)
	nb := impl.Ilaenv(1, "DGEQRF", " ", m, n, -1, -1)
	if 1 < nb && nb < k && k > max(0, impl.Ilaenv(3, "DGEQRF", " ", m, n, -1, -1)) {
		return n * nb
	}
	return n
}

// geqrfDevice is the blocked QR factorization of the resident matrix: each
// (m−i)×nb column panel is read back, factorised by geqrfPanel and
// written back; its block reflector H = I − V·T·Vᵀ (T from gonum's Dlarft)
// is then applied from the left as Hᵀ to the columns right of it on the
// device, C −= V·(Tᵀ·(Vᵀ·C)), with V (unit lower trapezoidal, formed on the
// host) and T uploaded beside the matrix: first to the next panel's
// columns, which are then read back at once, so that the CPU factorises
// that panel while the device updates the rest (look-ahead). a is only
// written by the final read, once s holds its copy.
func (impl *Implementation) geqrfDevice(h *hostMatrix, tau []float64, s *saved) error {
	defer h.done()
	d, err := h.upload()
	if err != nil {
		return err
	}
	err = impl.geqrf(d, tau)
	if err == nil {
		s.wait()
		err = h.download(d, "Dgeqrf")
	}
	return h.finish("Dgeqrf", err, d.Release())
}

// geqrf is the QR factorization of the resident m×n matrix d:
// geqrfOnDevice, or geqrfHost when impl.hostPanel is set; len(tau) is
// min(m, n).
func (impl *Implementation) geqrf(d *clblas.Matrix[float64], tau []float64) error {
	if impl.hostPanel {
		return impl.geqrfHost(d, tau)
	}
	return geqrfOnDevice(impl, d, tau)
}

// geqrfHost is the blocked QR factorization of the resident m×n matrix d
// with the panels on the host, described at geqrfDevice.
func (impl *Implementation) geqrfHost(d *clblas.Matrix[float64], tau []float64) (err error) {
	m, n := d.Dims()
	k := min(m, n)
	nb := min(impl.nb, k)
	dv, dt, dw, err := newReflectorScratch(impl.blas, m, n, nb)
	if err != nil {
		return err
	}
	defer func() {
		if rerr := releaseAll(dv, dt, dw); rerr != nil && err == nil {
			err = rerr
		}
	}()
	// Two panel buffers: the CPU works on one while the next panel is read
	// into the other (look-ahead). A buffer's earlier Write, and the
	// uploads of v and t, are ahead of the read the CPU waits for in the
	// queue.
	bufs := [2][]float64{make([]float64, m*nb), make([]float64, m*nb)}
	v := make([]float64, m*nb)
	t := make([]float64, nb*nb)
	var pending *clblas.Event
	for i, cur := 0, 0; i < k; i, cur = i+nb, 1-cur {
		ib := min(nb, k-i)
		p := bufs[cur][:(m-i)*ib]
		pv, err := d.View(i, i, m-i, ib)
		if err != nil {
			return err
		}
		if pending != nil {
			err = pending.Wait()
		} else {
			err = pv.Read(p)
		}
		if err != nil {
			return err
		}
		geqrfPanel(m-i, ib, p, ib, tau[i:i+ib])
		if _, err := pv.Write(p); err != nil {
			return err
		}
		pending = nil
		if i+ib >= n {
			continue
		}
		impl.Dlarft(lapack.Forward, lapack.ColumnWise, m-i, ib, p, ib, tau[i:i+ib], t, ib)
		formV(m-i, ib, p, ib, v)
		vv, tv, err := uploadVT(dv, dt, v[:(m-i)*ib], t[:ib*ib], m-i, ib)
		if err != nil {
			return err
		}
		// The next panel's columns first, then read that panel, then the
		// rest of the trailing matrix.
		ibn := min(nb, k-i-ib)
		if ibn > 0 {
			if err := applyTo(d, vv, tv, dw, blas.Trans, i, i+ib, m-i, ibn, ib); err != nil {
				return err
			}
			nv, err := d.View(i+ib, i+ib, m-i-ib, ibn)
			if err != nil {
				return err
			}
			if pending, err = nv.ReadAsync(bufs[1-cur][:(m-i-ib)*ibn]); err != nil {
				return err
			}
		}
		if rest := n - i - ib - ibn; rest > 0 {
			if err := applyTo(d, vv, tv, dw, blas.Trans, i, i+ib+ibn, m-i, rest, ib); err != nil {
				return err
			}
		}
	}
	// Wait for the last uploads: their buffers may be reused or freed
	// once this returns.
	return impl.blas.Runtime().Queue().Finish()
}

// formV writes into v (r×c, packed) the unit lower trapezoidal V whose
// columns below the diagonal are those of p (r×c, row stride ldp).
func formV(r, c int, p []float64, ldp int, v []float64) {
	for i := range r {
		row := v[i*c : (i+1)*c]
		for j := range c {
			switch {
			case j < i:
				row[j] = p[i*ldp+j]
			case j == i:
				row[j] = 1
			default:
				row[j] = 0
			}
		}
	}
}

// applyReflector uploads V (r×ib) and T (ib×ib) and enqueues
// C −= V·(op(T)·(Vᵀ·C)) on the r×nc block C of d at row i, column c0: the
// block reflector H = I − V·T·Vᵀ applied from the left as Hᵀ (tT ==
// blas.Trans) or H (blas.NoTrans). v and t must not change until the
// operations have run.
// newReflectorScratch allocates applyReflector's device scratch for a
// blocked application to m×n data with blocks of nb reflectors: V (m×nb),
// T (nb×nb) and W = Vᵀ·C (nb×n). On an error nothing stays allocated.
func newReflectorScratch(b *clblas.Implementation, m, n, nb int) (dv, dt, dw *clblas.Matrix[float64], err error) {
	shapes := [3][2]int{{m, nb}, {nb, nb}, {nb, n}}
	var ms [3]*clblas.Matrix[float64]
	for i, sh := range shapes {
		if ms[i], err = clblas.NewMatrix[float64](b, sh[0], sh[1]); err != nil {
			releaseAll(ms[:i]...)
			return nil, nil, nil, err
		}
	}
	return ms[0], ms[1], ms[2], nil
}

// releaseAll releases every matrix of ms and returns the first error.
func releaseAll[T float32 | float64](ms ...*clblas.Matrix[T]) error {
	var first error
	for _, x := range ms {
		if err := x.Release(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

func applyReflector(d, dv, dt, dw *clblas.Matrix[float64], v, t []float64, tT blas.Transpose, i, c0, r, nc, ib int) error {
	vv, tv, err := uploadVT(dv, dt, v, t, r, ib)
	if err != nil {
		return err
	}
	return applyTo(d, vv, tv, dw, tT, i, c0, r, nc, ib)
}

// uploadVT enqueues the copies of V (r×ib) and T (ib×ib) into the top left
// of dv and dt, and returns those views. v and t must not change until the
// copies have run.
func uploadVT(dv, dt *clblas.Matrix[float64], v, t []float64, r, ib int) (vv, tv *clblas.Matrix[float64], err error) {
	if vv, err = dv.View(0, 0, r, ib); err != nil {
		return nil, nil, err
	}
	if _, err := vv.Write(v); err != nil {
		return nil, nil, err
	}
	if tv, err = dt.View(0, 0, ib, ib); err != nil {
		return nil, nil, err
	}
	if _, err := tv.Write(t); err != nil {
		return nil, nil, err
	}
	return vv, tv, nil
}

// applyTo enqueues C −= V·(op(T)·(Vᵀ·C)) on the r×nc block C of d at row
// i, column c0, with the resident V (vv) and T (tv) and dw as room for W.
func applyTo(d, vv, tv, dw *clblas.Matrix[float64], tT blas.Transpose, i, c0, r, nc, ib int) error {
	c, err := d.View(i, c0, r, nc)
	if err != nil {
		return err
	}
	w, err := dw.View(0, 0, ib, nc)
	if err != nil {
		return err
	}
	if _, err := clblas.Gemm(blas.Trans, blas.NoTrans, 1, vv, c, 0, w); err != nil {
		return err
	}
	if _, err := clblas.Trmm(blas.Left, blas.Upper, tT, blas.NonUnit, 1, tv, w); err != nil {
		return err
	}
	_, err = clblas.Gemm(blas.NoTrans, blas.NoTrans, -1, vv, w, 1, c)
	return err
}
