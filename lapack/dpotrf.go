package cllapack

import (
	"fmt"

	"gonum.org/v1/gonum/blas"

	clblas "github.com/gocompute/opencl/blas"
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
	s := saveAsync(n, n, a, lda)
	ok, err := impl.potrfDevice(ul, n, a, lda, s)
	if err != nil {
		impl.fellBack("Dpotrf", err)
		s.restore(a, lda)
		return impl.Implementation.Dpotrf(ul, n, a, lda)
	}
	s.wait()
	impl.onDevice.Add(1)
	return ok
}

// potrfDevice uploads A, factorises it on the device and reads the factor
// back into a once s holds its copy.
func (impl *Implementation) potrfDevice(ul blas.Uplo, n int, a []float64, lda int, s *saved) (ok bool, err error) {
	d, err := clblas.NewMatrixFromStrided(impl.blas, n, n, lda, a)
	if err != nil {
		return false, err
	}
	defer func() {
		if rerr := d.Release(); rerr != nil && err == nil {
			err = rerr
		}
	}()
	ok, err = potrf(impl, ul, d)
	if err != nil {
		return false, err
	}
	s.wait()
	if err := d.ReadStrided(a, lda); err != nil {
		return false, fmt.Errorf("cllapack: Dpotrf: reading the factor: %w", err)
	}
	return ok, nil
}

// potrf is the blocked right-looking Cholesky factorization of the
// resident n×n matrix d: each nb×nb diagonal block is read back and
// factorised by gonum's Dpotf2, written back, and then the block row
// (Upper) or column (Lower) beside it is solved with Trsm and the trailing
// matrix updated. The update of the next diagonal block is enqueued first
// and that block read back at once (look-ahead), so that the CPU
// factorises it while the device updates the rest. When a block is not
// positive definite it is written back as Dpotf2 left it and potrf
// returns false: the factor is then complete up to that block, as gonum's.
func potrf[T float32 | float64](impl *Implementation, ul blas.Uplo, d *clblas.Matrix[T]) (ok bool, err error) {
	n, _ := d.Dims()
	nb := min(impl.nb, n)
	// Two panel buffers: the CPU works on one while the next block is read
	// into the other. A buffer's earlier Write is ahead of the read into
	// it in the queue, and the CPU writes to it only after that read.
	bufs := [2][]T{make([]T, nb*nb), make([]T, nb*nb)}
	var conv []float64 // float64 room for float32 blocks
	first, err := d.View(0, 0, nb, nb)
	if err != nil {
		return false, err
	}
	if err := first.Read(bufs[0]); err != nil {
		return false, err
	}
	var pending *clblas.Event
	for j, cur := 0, 0; j < n; j, cur = j+nb, 1-cur {
		jb := min(nb, n-j)
		if pending != nil {
			if err := pending.Wait(); err != nil {
				return false, err
			}
		}
		panel := bufs[cur][:jb*jb]
		ok := inFloat64(panel, &conv, func(p []float64) bool { return impl.Dpotf2(ul, jb, p, jb) })
		diag, err := d.View(j, j, jb, jb)
		if err != nil {
			return false, err
		}
		ev, err := diag.Write(panel)
		if err != nil {
			return false, err
		}
		if !ok {
			// Nothing else is enqueued, so the panel must stay put
			// until this write is done.
			return false, ev.Wait()
		}
		if j+jb < n {
			jbn := min(nb, n-j-jb)
			pending, err = potrfUpdate(d, diag, ul, n, j, jb, jbn, bufs[1-cur][:jbn*jbn])
			if err != nil {
				return false, err
			}
		}
	}
	// Wait for the last block's write: its buffer may be reused or freed
	// once this returns.
	return true, impl.blas.Runtime().Queue().Finish()
}

// potrfUpdate enqueues, for the step at j with a block jb wide, the solve of
// the off-diagonal block, the update of the next diagonal block (jbn wide)
// and its read into next, then the update of the rest of the trailing
// matrix. The event is the read's.
func potrfUpdate[T float32 | float64](d, diag *clblas.Matrix[T], ul blas.Uplo, n, j, jb, jbn int, next []T) (*clblas.Event, error) {
	r := n - j - jb
	k := j + jb // first row and column of the trailing matrix
	d1, err := d.View(k, k, jbn, jbn)
	if err != nil {
		return nil, err
	}
	// Upper: U12 = U11⁻ᵀ·A12, A22 −= U12ᵀ·U12 with U12 = [B1 B2] split at
	// jbn columns. Lower: L21 = A21·L11⁻ᵀ, A22 −= L21·L21ᵀ with L21 split at
	// jbn rows into B1 over B2.
	side, tr, b, b1, b2, c12 := blas.Left, blas.Trans, [4]int{j, k, jb, r}, [4]int{j, k, jb, jbn}, [4]int{j, k + jbn, jb, r - jbn}, [4]int{k, k + jbn, jbn, r - jbn}
	if ul == blas.Lower {
		side, tr, b, b1, b2, c12 = blas.Right, blas.NoTrans, [4]int{k, j, r, jb}, [4]int{k, j, jbn, jb}, [4]int{k + jbn, j, r - jbn, jb}, [4]int{k + jbn, k, r - jbn, jbn}
	}
	bv, err := d.View(b[0], b[1], b[2], b[3])
	if err != nil {
		return nil, err
	}
	if _, err := clblas.Trsm(side, ul, blas.Trans, blas.NonUnit, 1, diag, bv); err != nil {
		return nil, err
	}
	v1, err := d.View(b1[0], b1[1], b1[2], b1[3])
	if err != nil {
		return nil, err
	}
	if _, err := clblas.Syrk(ul, tr, -1, v1, 1, d1); err != nil {
		return nil, err
	}
	ev, err := d1.ReadAsync(next)
	if err != nil || r == jbn {
		return ev, err
	}
	v2, err := d.View(b2[0], b2[1], b2[2], b2[3])
	if err != nil {
		return nil, err
	}
	c, err := d.View(c12[0], c12[1], c12[2], c12[3])
	if err != nil {
		return nil, err
	}
	if ul == blas.Upper {
		_, err = clblas.Gemm(blas.Trans, blas.NoTrans, -1, v1, v2, 1, c)
	} else {
		_, err = clblas.Gemm(blas.NoTrans, blas.Trans, -1, v2, v1, 1, c)
	}
	if err != nil {
		return nil, err
	}
	rest, err := d.View(k+jbn, k+jbn, r-jbn, r-jbn)
	if err != nil {
		return nil, err
	}
	_, err = clblas.Syrk(ul, tr, -1, v2, 1, rest)
	return ev, err
}
