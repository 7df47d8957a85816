package cllapack

import (
	"fmt"

	"gonum.org/v1/gonum/blas"

	"github.com/gocompute/opencl/cl"

	clblas "github.com/gocompute/opencl/blas"
)

// potfWG is the work-group size of potf2_inv without potfRegs (and of
// larft_t).
const potfWG = 256

// potfGridDefault is the side of potf2_inv's square grid of work-items
// with potfRegs.
const potfGridDefault = 16

// potfMax is the widest diagonal block potf2_inv takes with potfRegs: its
// work-items keep up to 8×8 elements each in registers.
func (impl *Implementation) potfMax() int { return 8 * impl.potfGrid() }

// potfGrid is the side of potf2_inv's grid of work-items with potfRegs.
func (impl *Implementation) potfGrid() int {
	if impl.potfG > 0 {
		return impl.potfG
	}
	return potfGridDefault
}

// potfGroup is potf2_inv's work-group size.
func (impl *Implementation) potfGroup() int {
	if impl.potfRegs {
		g := impl.potfGrid()
		return g * g
	}
	return potfWG
}

// potfT is POTF_T for blocks nb wide (nb ≤ potfMax()) on a grid g work-items
// wide: the fewest elements per work-item and dimension, 1, 2, 4 or 8,
// that hold them. A narrower block takes fewer registers and less work
// per step.
func potfT(nb, g int) int {
	t := 1
	for g*t < nb {
		t *= 2
	}
	return t
}

// runDevice is potrf with every step on the device, so that the host
// never waits until the end: each diagonal block is factorised and
// inverted by potf2_inv in one work-group (the inverse into dinv), U12 =
// U11⁻ᵀ·A12 is one GEMM into W copied back by copy_ok, and the trailing
// matrix is updated in slabs as in run; with block rows taller than nb
// (p.outer) those steps update only the block row, and the trailing
// matrix below it is updated once a block row (factorRow, trailing). A
// block that is not positive
// definite sets the device's info and zeroes the inverse: W is then zero,
// so every later GEMM adds zero, copy_ok copies nothing and potf2_inv
// does nothing; the factor is complete up to the column that failed, and
// info, read once at the end, gives ok.
func (p *potrfRun[T]) runDevice() (ok bool, err error) {
	impl, n, nb := p.impl, p.n, p.nb
	info, err := newInfo(impl)
	if err != nil {
		return false, err
	}
	defer func() {
		if rerr := info.Release(); rerr != nil && err == nil {
			err = rerr
		}
	}()
	if err := p.band(true); err != nil {
		return false, err
	}
	if impl.ahead && impl.prof == nil && n > nb {
		if err := p.runAhead(info); err != nil {
			return false, err
		}
	} else {
		for j := 0; j < n; j += p.outer {
			jb := min(p.outer, n-j)
			if err := p.factorRow(j, jb, false, info); err != nil {
				return false, err
			}
			if j+jb < n {
				if err := p.trailing(j, jb, 0, n-j-jb); err != nil {
					return false, err
				}
			}
			if err := p.copyRow(j, jb, info); err != nil {
				return false, err
			}
		}
	}
	if err := p.band(false); err != nil {
		return false, err
	}
	return readInfo(impl, info)
}

// newInfo returns a device factorization's info, zeroed on the resident
// operations' queue: a kernel that finds the matrix not positive definite
// sets it.
func newInfo(impl *Implementation) (*cl.Array[int32], error) {
	info, err := cl.NewArray[int32](impl.blas.Runtime().Context(), cl.MemReadWrite, 1)
	if err != nil {
		return nil, fmt.Errorf("cllapack: info: %w", err)
	}
	if err := fillZero(impl, info, 1); err != nil {
		info.Release()
		return nil, fmt.Errorf("cllapack: info: %w", err)
	}
	return info, nil
}

// readInfo reads info back, after every command before it: ok is whether
// it is still zero.
func readInfo(impl *Implementation, info *cl.Array[int32]) (ok bool, err error) {
	inf := []int32{0}
	if err := info.Read(impl.blas.Runtime().Queue(), 0, inf); err != nil {
		return false, fmt.Errorf("cllapack: reading info: %w", err)
	}
	impl.stats.transfers.Add(1)
	impl.stats.bytes.Add(4)
	return inf[0] == 0, nil
}

// potf2 enqueues potf2_inv on the jb×jb diagonal block at j.
func (p *potrfRun[T]) potf2(j, jb int, info *cl.Array[int32]) error {
	ev, err := p.potf2On(nil, nil, j, jb, info)
	if err != nil {
		return err
	}
	return ev.Release()
}

// potf2On enqueues potf2_inv on the jb×jb diagonal block at j on q (nil:
// the main queue) after wait (if not nil) and returns its event.
func (p *potrfRun[T]) potf2On(q *cl.Queue, wait *cl.Event, j, jb int, info *cl.Array[int32]) (*cl.Event, error) {
	buf, off, err := p.d.Buffer()
	if err != nil {
		return nil, err
	}
	ibuf, ioff, err := p.dinv.Buffer()
	if err != nil {
		return nil, err
	}
	ld := p.d.Stride()
	upper := int32(0)
	if p.ul == blas.Upper {
		upper = 1
	}
	var ws []*cl.Event
	if wait != nil {
		ws = []*cl.Event{wait}
	}
	wg := p.impl.potfGroup()
	return launchOn[T](p.impl, q, ws, "potf2_inv", []int{wg}, []int{wg}, int32(jb), upper,
		buf, int64(off+j*ld+j), int32(ld), ibuf, int64(ioff), int32(p.dinv.Stride()), info, int32(j))
}

// runAhead is runDevice's loop with look-ahead: step j updates the next
// block row's first nb rows first, then the diagonal block there is
// factorised on the second queue (impl.aheadQueue) while the main queue
// updates the rest of the trailing matrix; step j+1's first U12 waits for
// it there. The block and the inverse it writes are read by nothing else
// in between: the rest of the update lies below those rows.
func (p *potrfRun[T]) runAhead(info *cl.Array[int32]) (err error) {
	impl, n, nb := p.impl, p.n, p.nb
	q2, err := impl.aheadQueue()
	if err != nil {
		return err
	}
	q := impl.blas.Runtime().Queue()
	var pending *cl.Event // the next block's potf2_inv, on q2
	defer waitPending(&pending, &err)
	if err := p.potf2(0, nb, info); err != nil {
		return err
	}
	for j := 0; j < n; j += p.outer {
		jb := min(p.outer, n-j)
		if pending != nil {
			err := barrierOn(q, pending)
			pending = nil
			if err != nil {
				return err
			}
		}
		if err := p.factorRow(j, jb, true, info); err != nil {
			return err
		}
		if j+jb == n {
			return p.copyRow(j, jb, info)
		}
		k, r := j+jb, n-j-jb
		jbn := min(nb, r)
		if err := p.trailing(j, jb, 0, jbn); err != nil {
			return err
		}
		pending, err = launchAfter(q, q2, func(q2 *cl.Queue, wait []*cl.Event) (*cl.Event, error) {
			return p.potf2On(q2, wait[0], k, jbn, info)
		})
		if err != nil {
			return err
		}
		impl.stats.ahead.Add(1)
		if err := p.trailing(j, jb, jbn, r); err != nil {
			return err
		}
		if err := p.copyRow(j, jb, info); err != nil {
			return err
		}
	}
	return nil
}

// factorRow factorises the block row of height jb at j (Upper terms: rows
// j to j+jb−1, columns j to n−1) in steps nb wide, each: potf2_inv on
// the diagonal block at i, U12 = U11⁻ᵀ·A12 into W's rows i−j… (W's
// column c−j for the matrix's column c), and the update of the block
// row's rows below i by it. The trailing update below the block row then
// takes all of its W's rows at once (trailing): a GEMM with k = jb, not
// nb; after it, and before the next block row overwrites W, the caller
// copies every step's U12 into A12 in one launch (copyRow), so that the
// copy is not on the way from the block row's last step to the update.
//
// With ahead (runAhead's), the block row's first diagonal block is
// factorised already, and each step looks ahead as runAhead does between
// block rows: it updates the next nb rows first, factorises the next
// diagonal block on the second queue, and updates the rest of the block
// row on the main queue meanwhile, so that potf2_inv, one work-group,
// leaves the critical path wherever the rest is the longer.
func (p *potrfRun[T]) factorRow(j, jb int, ahead bool, info *cl.Array[int32]) (err error) {
	var pending *cl.Event // the next block's potf2_inv, on the second queue
	defer waitPending(&pending, &err)
	for i := j; i < j+jb; i += p.nb {
		ib := min(p.nb, j+jb-i)
		switch {
		case pending != nil:
			err := barrierOn(p.impl.blas.Runtime().Queue(), pending)
			pending = nil
			if err != nil {
				return err
			}
		case i > j || !ahead:
			if err := p.potf2(i, ib, info); err != nil {
				return err
			}
		}
		k := i + ib
		if k == p.n {
			break
		}
		w, err := p.tview(p.dw, i-j, k-j, ib, p.n-k)
		if err != nil {
			return err
		}
		// U12 into W; copyRow copies it into A12 with the block row's.
		if _, err := p.trsmGemm(w, i, ib); err != nil {
			return err
		}
		if pending, err = p.updateRow(w, k, ib, j+jb-k, ahead && p.n >= p.impl.rowAheadMin, info); err != nil {
			return err
		}
	}
	return nil
}

// updateRow enqueues the update of the h rows of the block row below the
// step that made w (its U12 rows, ib high), from row k on; with ahead it
// updates the first nb of them, factorises the diagonal block there on
// the second queue, and only then updates the rest (not on that block's
// path), and returns that potf2_inv's event.
func (p *potrfRun[T]) updateRow(w *clblas.Matrix[T], k, ib, h int, ahead bool, info *cl.Array[int32]) (*cl.Event, error) {
	if h == 0 {
		return nil, nil
	}
	if !ahead {
		return nil, p.updateFrom(w, k, ib, 0, h, p.n-k)
	}
	hn := min(p.nb, h)
	if err := p.updateFrom(w, k, ib, 0, hn, p.n-k); err != nil {
		return nil, err
	}
	q2, err := p.impl.aheadQueue()
	if err != nil {
		return nil, err
	}
	next, err := launchAfter(p.impl.blas.Runtime().Queue(), q2, func(q2 *cl.Queue, wait []*cl.Event) (*cl.Event, error) {
		return p.potf2On(q2, wait[0], k, hn, info)
	})
	if err != nil {
		return nil, err
	}
	p.impl.stats.ahead.Add(1)
	if h > hn {
		if err := p.updateFrom(w, k, ib, hn, h-hn, p.n-k-hn); err != nil {
			return next, err
		}
	}
	return next, nil
}

// trailing enqueues the rows s to e−1 of the update of the trailing
// matrix below the block row of height jb at j (factorRow's), in slabs:
// A[k+s:…, k+s:n] −= W[:, s:…]ᵀ·W[:, s:], k = j+jb, W the block row's jb
// rows of U12.
func (p *potrfRun[T]) trailing(j, jb, s, e int) error {
	k, r := j+jb, p.n-j-jb
	w, err := p.tview(p.dw, 0, jb, jb, r)
	if err != nil {
		return err
	}
	for ; s < e; s += p.impl.slab {
		if err := p.updateFrom(w, k, jb, s, min(p.impl.slab, e-s), r-s); err != nil {
			return err
		}
	}
	return nil
}

// trsmDevice enqueues U12 = U11⁻ᵀ·A12 into W and its copy into A12 unless
// a block failed.
func (p *potrfRun[T]) trsmDevice(j, jb int, info *cl.Array[int32]) error {
	w, err := p.tview(p.dw, 0, 0, jb, p.n-j-jb)
	if err != nil {
		return err
	}
	return p.trsmInto(w, j, jb, info)
}

// trsmInto is trsmDevice into the view w of W (Upper terms: jb rows,
// n−j−jb columns).
func (p *potrfRun[T]) trsmInto(w *clblas.Matrix[T], j, jb int, info *cl.Array[int32]) error {
	a12, err := p.trsmGemm(w, j, jb)
	if err != nil {
		return err
	}
	return p.copyOK(w, a12, j, jb, jb, jb, info)
}

// trsmGemm enqueues U12 = U11⁻ᵀ·A12 into w (trsmInto's GEMM) and returns
// the view of A12.
func (p *potrfRun[T]) trsmGemm(w *clblas.Matrix[T], j, jb int) (*clblas.Matrix[T], error) {
	k := j + jb
	inv, err := p.dinv.View(0, 0, jb, jb)
	if err != nil {
		return nil, err
	}
	a12, err := p.tview(p.d, j, k, jb, p.n-k)
	if err != nil {
		return nil, err
	}
	if p.ul == blas.Upper {
		err = gemm(p.impl, blas.Trans, blas.NoTrans, 1, inv, a12, 0, w)
	} else {
		err = gemm(p.impl, blas.NoTrans, blas.Trans, 1, a12, inv, 0, w)
	}
	return a12, err
}

// copyOK enqueues copy_ok: the U12 rows w holds into a12 (views of the
// same shape, in Upper terms, from column shift of the block row of
// height h at row and column j), those of each step of nb rows right of
// its diagonal block, unless a diagonal block up to the step's own
// failed.
func (p *potrfRun[T]) copyOK(w, a12 *clblas.Matrix[T], j, h, nb, shift int, info *cl.Array[int32]) error {
	sb, so, err := w.Buffer()
	if err != nil {
		return err
	}
	db, do, err := a12.Buffer()
	if err != nil {
		return err
	}
	rows, cols := w.Dims()
	lower := int32(0)
	if p.ul == blas.Lower {
		lower = 1
	}
	return launch[T](p.impl, "copy_ok", []int{cols, rows}, elemLocal, int32(rows), int32(cols),
		sb, int64(so), int32(w.Stride()), db, int64(do), int32(a12.Stride()), info, int32(j),
		int32(nb), int32(h), int32(shift), lower)
}

// copyRow enqueues, after the block row of height jb at j is factorised
// and the trailing matrix updated from it, the copy of its steps' U12
// rows from W into the matrix (copyOK): one launch a block row, since
// nothing reads them there before the end.
func (p *potrfRun[T]) copyRow(j, jb int, info *cl.Array[int32]) error {
	if j+p.nb >= p.n {
		return nil // one diagonal block, no U12 (and no W when n ≤ nb)
	}
	w, err := p.tview(p.dw, 0, 0, jb, p.n-j)
	if err != nil {
		return err
	}
	a, err := p.tview(p.d, j, j, jb, p.n-j)
	if err != nil {
		return err
	}
	return p.copyOK(w, a, j, jb, p.nb, 0, info)
}
