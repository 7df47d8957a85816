package cllapack

import (
	"gonum.org/v1/gonum/blas"

	clblas "github.com/gocompute/opencl/blas"
)

// potrf is the blocked right-looking Cholesky factorization of the
// resident n×n matrix d, with the diagonal blocks on the device
// (runDevice) or, when impl.hostDiag is set, on the CPU (run), as
// follows. Described for Upper (Lower is its transpose), step j with a
// block jb wide and k = j+jb:
//
//   - the CPU factorises the diagonal block, U11 = chol(A11) (gonum's
//     Dpotf2), and inverts it (Dtrtri); both are written to the device;
//   - U12 = U11⁻ᵀ·A12 is one GEMM into scratch W, copied into A12, so
//     that no triangular solve (slow on a GPU for nb right-hand rows)
//     and no staging of views runs;
//   - the next block row, A[k:k+nb, k:n] −= W[:, :nb]ᵀ·W, is one GEMM,
//     and its diagonal block is read back at once (look-ahead): the CPU
//     factorises it while the device updates the rest;
//   - the rest of the trailing matrix is updated in block rows of
//     impl.slab rows, one GEMM each straight on the resident matrix:
//     A[s:s+h, s:n] −= W[:, s:s+h]ᵀ·W[:, s:n].
//
// Each of those GEMMs computes its diagonal square in full and so writes
// into the triangle Potrf must not touch, within max(nb, slab) of the
// diagonal; that band is saved into scratch before the first step and
// restored after the last one (tri_band in kernels/lapack.cl). When a
// block is not positive definite it is written back as Dpotf2 left it,
// the band is restored and potrf returns false: the factor is then
// complete up to that block, as gonum's.
func potrf[T float32 | float64](impl *Implementation, ul blas.Uplo, d *clblas.Matrix[T]) (ok bool, err error) {
	return potrfBand(impl, ul, d, true)
}

// potrfBand is potrf, saving and restoring the band on the device only
// when keepBand is set: a caller that holds the original matrix on the
// host (Dpotrf from a Go slice) may restore the triangle there instead.
func potrfBand[T float32 | float64](impl *Implementation, ul blas.Uplo, d *clblas.Matrix[T], keepBand bool) (ok bool, err error) {
	n, _ := d.Dims()
	pl := planPotrf[T](impl, n)
	p := &potrfRun[T]{impl: impl, ul: ul, d: d, n: n, nb: pl.nb, outer: pl.outer, rows: pl.rows, rowSub: pl.rowSub, bw: pl.bw}
	if !keepBand {
		p.bw = 0
	}
	if err := p.alloc(); err != nil {
		return false, err
	}
	defer func() {
		if rerr := p.release(); rerr != nil && err == nil {
			err = rerr
		}
	}()
	if impl.hostDiag || (impl.potfRegs && p.nb > impl.potfMax()) {
		return p.run()
	}
	if p.rows {
		return p.runRows()
	}
	return p.runDevice()
}

// potrfPlan is the shape of a potrf of order n: its block size, its block
// rows and the band of the other triangle next to the diagonal that its
// GEMMs overwrite (bw diagonals).
type potrfPlan struct {
	nb, outer, rowSub, bw int
	rows                  bool
}

func planPotrf[T float32 | float64](impl *Implementation, n int) potrfPlan {
	nb := min(impl.potrfBlock(), n)
	pl := potrfPlan{nb: nb, outer: nb, rows: potrfRows[T](impl, n, nb)}
	switch {
	case pl.rows:
		// potrf_row's block rows other than the last are whole steps.
		h, sub := impl.rowShape(n)
		pl.outer = min(max(h/nb*nb, nb), n)
		pl.rowSub = sub
	case !impl.hostDiag && impl.potrfOuter > nb:
		pl.outer = min(impl.potrfOuter, n)
	}
	// The band the GEMMs overwrite: potrf_row's block rows' own diagonal
	// squares only, otherwise the slabs' too.
	pl.bw = min(max(pl.outer, impl.slab), n) - 1
	if pl.rows {
		pl.bw = pl.outer - 1
	}
	return pl
}

// potrfRun is the state of one potrf: the matrix, the scratch on the
// device (W, the inverse of the diagonal block, the saved band) and two
// host buffers for each diagonal block and its inverse (the CPU works on
// one while the next block is read into the other; a buffer's earlier
// Write is ahead in the queue of the read the CPU waits for before it
// writes into that buffer again).
type potrfRun[T float32 | float64] struct {
	impl          *Implementation
	ul            blas.Uplo
	d             *clblas.Matrix[T]
	n, nb, bw     int
	outer         int  // the block rows' height (runDevice): nb, or potrfOuter (at most n) when larger
	rows          bool // each block row one potrf_row launch (runRows; outer is rowShape's h)
	rowSub        int  // rows: the height of the launches inside a block row (0: one launch)
	dw, dinv, bnd *clblas.Matrix[T]
	blocks, invs  [2][]T
	conv, conv2   []float64 // float64 room for float32 blocks
}

func (p *potrfRun[T]) alloc() (err error) {
	for i := range 2 {
		p.blocks[i] = make([]T, p.nb*p.nb)
		p.invs[i] = make([]T, p.nb*p.nb)
	}
	if (p.n == p.nb && p.impl.hostDiag) || p.rows {
		return p.allocBand()
	}
	if p.dinv, err = newScratch[T](p.impl, p.nb, p.nb); err != nil {
		return err
	}
	if p.n == p.nb {
		return nil
	}
	wr, wc := p.outer, p.n
	if p.ul == blas.Lower {
		wr, wc = wc, wr
	}
	if p.dw, err = newScratch[T](p.impl, wr, wc); err != nil {
		return err
	}
	return p.allocBand()
}

// allocBand allocates the scratch of the band tri_band saves, if any.
func (p *potrfRun[T]) allocBand() (err error) {
	if p.bw == 0 || p.n == p.nb {
		return nil
	}
	p.bnd, err = newScratch[T](p.impl, p.n, p.bw)
	return err
}

func (p *potrfRun[T]) release() error {
	var first error
	for _, m := range []*clblas.Matrix[T]{p.dw, p.dinv, p.bnd} {
		if m == nil {
			continue
		}
		// With look-ahead a second queue may still use the scratch, so it
		// is not kept for another call.
		release := putScratch[T]
		if p.impl.ahead {
			release = func(_ *Implementation, m *clblas.Matrix[T]) error { return m.Release() }
		}
		if err := release(p.impl, m); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// run is the loop of steps described at potrf.
func (p *potrfRun[T]) run() (ok bool, err error) {
	d, n, nb := p.d, p.n, p.nb
	if err := p.band(true); err != nil {
		return false, err
	}
	first, err := d.View(0, 0, nb, nb)
	if err != nil {
		return false, err
	}
	pending, err := readAsync(p.impl, first, p.blocks[0])
	if err != nil {
		return false, err
	}
	for j, cur := 0, 0; j < n; j, cur = j+nb, 1-cur {
		jb := min(nb, n-j)
		if err := pending.Wait(); err != nil {
			return false, err
		}
		blk, inv := p.blocks[cur][:jb*jb], p.invs[cur][:jb*jb]
		ok := p.factorDiag(jb, blk, inv, j+jb < n)
		diag, err := d.View(j, j, jb, jb)
		if err != nil {
			return false, err
		}
		if _, err := write(p.impl, diag, blk); err != nil {
			return false, err
		}
		if !ok {
			return false, p.finish()
		}
		if j+jb == n {
			break
		}
		if pending, err = p.step(j, jb, cur); err != nil {
			return false, err
		}
	}
	return true, p.finish()
}

// finish restores the band and waits for the queue: the host buffers of
// the last writes may be reused or freed once potrf returns.
func (p *potrfRun[T]) finish() error {
	if err := p.band(false); err != nil {
		return err
	}
	return p.impl.blas.Runtime().Queue().Finish()
}

// band saves (save) or restores the band of the unreferenced triangle
// that the trailing updates overwrite.
func (p *potrfRun[T]) band(save bool) error {
	if p.bnd == nil || p.bw == 0 {
		return nil
	}
	buf, off, err := p.d.Buffer()
	if err != nil {
		return err
	}
	sbuf, soff, err := p.bnd.Buffer()
	if err != nil {
		return err
	}
	lower := int32(0)
	if p.ul == blas.Upper {
		lower = 1
	}
	sv := int32(0)
	if save {
		sv = 1
	}
	return launch[T](p.impl, "tri_band", []int{p.bw, p.n}, elemLocal, int32(p.n), int32(p.bw), lower, sv,
		buf, int64(off), int32(p.d.Stride()), sbuf, int64(soff), int32(p.bnd.Stride()))
}

// factorDiag factorises the jb×jb diagonal block blk in place (Dpotf2, in
// float64) and, when inverse is set and it succeeded, writes the inverse
// of the factor into inv, zero outside the factor's triangle.
func (p *potrfRun[T]) factorDiag(jb int, blk, inv []T, inverse bool) bool {
	impl := p.impl
	return inFloat64(blk, &p.conv, func(q []float64) bool {
		if !impl.Dpotf2(p.ul, jb, q, jb) {
			return false
		}
		if !inverse {
			return true
		}
		return inFloat64(inv, &p.conv2, func(v []float64) bool {
			for i := range jb {
				for c := range jb {
					if (p.ul == blas.Upper && c >= i) || (p.ul == blas.Lower && c <= i) {
						v[i*jb+c] = q[i*jb+c]
					} else {
						v[i*jb+c] = 0
					}
				}
			}
			// A factor with a positive diagonal is invertible, so
			// Dtrtri's ok is true.
			impl.Dtrtri(p.ul, blas.NonUnit, jb, v, jb)
			return true
		})
	})
}

// step enqueues the device part of step j (block jb wide, its factor on
// the device and its inverse in p.invs[cur]): U12 = U11⁻ᵀ·A12 through W,
// the next block row's update and the read of its diagonal block into
// p.blocks[1−cur] (the returned event), then the slabs of the rest.
func (p *potrfRun[T]) step(j, jb, cur int) (*clblas.Event, error) {
	impl, d := p.impl, p.d
	k := j + jb
	r := p.n - k
	inv, err := p.dinv.View(0, 0, jb, jb)
	if err != nil {
		return nil, err
	}
	if _, err := write(impl, inv, p.invs[cur][:jb*jb]); err != nil {
		return nil, err
	}
	a12, err := p.tview(d, j, k, jb, r)
	if err != nil {
		return nil, err
	}
	w, err := p.tview(p.dw, 0, 0, jb, r)
	if err != nil {
		return nil, err
	}
	if p.ul == blas.Upper {
		err = gemm(impl, blas.Trans, blas.NoTrans, 1, inv, a12, 0, w)
	} else {
		err = gemm(impl, blas.NoTrans, blas.Trans, 1, a12, inv, 0, w)
	}
	if err == nil {
		err = copyMatrix(impl, w, a12)
	}
	if err != nil {
		return nil, err
	}
	jbn := min(p.nb, r)
	if err := p.update(k, jb, 0, jbn, r); err != nil {
		return nil, err
	}
	next, err := d.View(k, k, jbn, jbn)
	if err != nil {
		return nil, err
	}
	ev, err := readAsync(impl, next, p.blocks[1-cur][:jbn*jbn])
	if err != nil {
		return nil, err
	}
	for s := jbn; s < r; s += impl.slab {
		if err := p.update(k, jb, s, min(impl.slab, r-s), r-s); err != nil {
			return nil, err
		}
	}
	return ev, nil
}

// update enqueues, in Upper terms, A[k+s:k+s+h, k+s:k+s+c] −=
// W[:, s:s+h]ᵀ·W[:, s:s+c] with W jb rows high (Lower: the transpose).
func (p *potrfRun[T]) update(k, jb, s, h, c int) error {
	return p.updateFrom(p.dw, k, jb, s, h, c)
}

// updateFrom is update with W the view w of the scratch (Upper terms:
// jb rows, its column 0 for the matrix's column k).
func (p *potrfRun[T]) updateFrom(w *clblas.Matrix[T], k, jb, s, h, c int) error {
	wa, err := p.tview(w, 0, s, jb, h)
	if err != nil {
		return err
	}
	wb, err := p.tview(w, 0, s, jb, c)
	if err != nil {
		return err
	}
	cv, err := p.tview(p.d, k+s, k+s, h, c)
	if err != nil {
		return err
	}
	if p.ul == blas.Upper {
		return gemm(p.impl, blas.Trans, blas.NoTrans, -1, wa, wb, 1, cv)
	}
	return gemm(p.impl, blas.NoTrans, blas.Trans, -1, wb, wa, 1, cv)
}

// tview is m.View(i, j, r, c) for Upper and its transpose, m.View(j, i,
// c, r), for Lower: potrf describes both triangles in Upper terms.
func (p *potrfRun[T]) tview(m *clblas.Matrix[T], i, j, r, c int) (*clblas.Matrix[T], error) {
	if p.ul == blas.Upper {
		return m.View(i, j, r, c)
	}
	return m.View(j, i, c, r)
}
