package cllapack

import (
	"fmt"

	"gonum.org/v1/gonum/blas"

	"github.com/gocompute/opencl/cl"

	clblas "github.com/gocompute/opencl/blas"
)

// Device LU: the panels are factorised on the device too, so that the
// host never waits for the device until the factorization is done (the
// pivots and the first zero pivot are read back at the end).

// luBMax is the widest leaf getf2_leaf takes (LU_BMAX).
const luBMax = 64

// trsmLeaf is the most rows trsmUnitLower solves in one trsm_llu launch
// (TRSM_N): a solve is a step a row, so longer solves are split with GEMM
// updates between the halves.
const trsmLeaf = 64

// trsm_llu's work-group size (TRSM_WG) and the columns of B each group
// solves (TRSM_COLS).
const (
	trsmWG   = 256
	trsmCols = 32
)

// getrfDevice is the blocked right-looking LU factorization of the
// resident m×n matrix d with every step on the device: each (m−j)×nb
// column panel is factorised by panelLU, its row interchanges are applied
// to the columns left of it and (those not applied yet) to its own by
// laswpTail and to the columns right of it by laswp, U12 = L11⁻¹·A12 is solved
// by trsmUnitLower and A22 −= L21·U12 is one GEMM. Nothing is read back
// until the end: the pivots, and the first zero pivot for ok.
//
// With impl.luOuter above nb the trailing update waits for column blocks
// of luOuter (rounded down to a multiple of nb): inside a block each
// panel's columns are first updated by the block's earlier panels
// (left-looking), and after its last panel the rest of the matrix takes
// one update with k = luOuter, a GEMM of more work per element of C than
// nb's. The row interchanges still go over every column after each panel;
// the deferred updates commute with them, since they move the rows of
// L21 and of the columns it updates alike.
func getrfDevice[T float32 | float64](impl *Implementation, d *clblas.Matrix[T], ipiv []int) (ok bool, err error) {
	m, n := d.Dims()
	mn := min(m, n)
	piv, err := impl.newPivots(mn)
	if err != nil {
		return false, err
	}
	info, err := cl.NewArray[int32](impl.blas.Runtime().Context(), cl.MemReadWrite, 1)
	if err != nil {
		piv.release()
		return false, fmt.Errorf("cllapack: info: %w", err)
	}
	defer func() {
		for _, rerr := range []error{piv.release(), info.Release()} {
			if rerr != nil && err == nil {
				err = rerr
			}
		}
	}()
	ev, err := info.Fill(impl.blas.Runtime().Queue(), 0, 0, 1)
	if err == nil {
		err = ev.Release()
	}
	if err != nil {
		return false, fmt.Errorf("cllapack: info: %w", err)
	}
	nb := min(impl.nb, mn)
	grid, err := newGridLU[T](impl, m, n, nb)
	if err != nil {
		return false, err
	}
	if grid != nil {
		defer func() {
			if rerr := grid.release(); rerr != nil && err == nil {
				err = rerr
			}
		}()
	}
	// With look-ahead the next panel is factorised on the second queue
	// (q2) while this one updates the rest of the trailing matrix.
	var q2 *cl.Queue
	if grid != nil && impl.luAhead && impl.prof == nil && mn > nb {
		if q2, err = impl.aheadQueue(); err != nil {
			return false, err
		}
	}
	outer := nb
	if impl.luOuter > nb && q2 == nil {
		outer = impl.luOuter / nb * nb
	}
	var pending *cl.Event // the next panel's launch on q2
	defer waitPending(&pending, &err)
	q := impl.blas.Runtime().Queue()
	for j := 0; j < mn; j += nb {
		jb := min(nb, mn-j)
		b0 := j / outer * outer // the column block's first column
		if j > b0 {
			if err := luUpdate(impl, d, b0, j-b0, j, jb); err != nil {
				return false, err
			}
		}
		switch {
		case pending != nil:
			err = barrierOn(q, pending)
			pending = nil
		case grid != nil:
			err = grid.panel(d, piv, info, j, jb, nb)
		default:
			err = panelLU(impl, d, piv, info, j, j, m-j, jb, true)
		}
		if err == nil && grid != nil {
			// The panel's own columns are interchanged in full.
			err = laswpDevice(impl, d, piv, 0, j, j, jb)
		} else if err == nil {
			err = laswpTail(impl, d, piv, j, jb)
		}
		if err != nil {
			return false, err
		}
		k := j + jb
		if k >= n {
			continue
		}
		if err := laswpDevice(impl, d, piv, k, n-k, j, jb); err != nil {
			return false, err
		}
		if k < min(b0+outer, mn) {
			continue // the block's next panel updates its own columns
		}
		ahead := 0 // the next panel's columns, updated first when it runs ahead
		if q2 != nil && k < mn {
			ahead = min(nb, mn-k)
			if err := luUpdate(impl, d, j, jb, k, ahead); err != nil {
				return false, err
			}
			pending, err = launchAfter(q, q2, func(q2 *cl.Queue, wait []*cl.Event) (*cl.Event, error) {
				return grid.panelOn(q2, wait, d, piv, info, k, ahead, nb)
			})
			if err != nil {
				return false, err
			}
		}
		if err := luUpdate(impl, d, b0, k-b0, k+ahead, n-k-ahead); err != nil {
			return false, err
		}
	}
	ok, err = readPivots(impl, piv, info, ipiv)
	if err == nil && grid != nil {
		err = grid.failed()
	}
	return ok, err
}

// luUpdate enqueues, after the panel of jb columns at (j, j), the update
// of the nc columns of d from c0: U12 = L11⁻¹·A12 in the panel's rows and
// A22 −= L21·U12 below them.
func luUpdate[T float32 | float64](impl *Implementation, d *clblas.Matrix[T], j, jb, c0, nc int) error {
	if nc == 0 {
		return nil
	}
	if err := trsmUnitLower(impl, d, j, j, c0, jb, nc); err != nil {
		return err
	}
	m, _ := d.Dims()
	if k := j + jb; k < m {
		return gemmAt(impl, d, k, j, j, c0, m-k, nc, jb)
	}
	return nil
}

// launchAfter enqueues, through launch, a command on q2 that waits for
// everything enqueued on q so far (look-ahead), flushes both queues so
// that neither waits for the other's commands to be submitted, and
// returns the command's event.
func launchAfter(q, q2 *cl.Queue, launch func(q2 *cl.Queue, wait []*cl.Event) (*cl.Event, error)) (*cl.Event, error) {
	mark, err := q.EnqueueMarker()
	if err != nil {
		return nil, fmt.Errorf("cllapack: look-ahead: %w", err)
	}
	ev, err := launch(q2, []*cl.Event{mark})
	for _, rerr := range []error{mark.Release(), q.Flush(), q2.Flush()} {
		if rerr != nil && err == nil {
			err = rerr
		}
	}
	if err != nil && ev != nil {
		ev.Wait()
		ev.Release()
		return nil, err
	}
	return ev, err
}

// waitPending waits for and releases *ev, a look-ahead command an error
// left behind, if any (before the scratch it uses goes), into *err
// unless that holds an error already.
func waitPending(ev **cl.Event, err *error) {
	if *ev == nil {
		return
	}
	for _, rerr := range []error{(*ev).Wait(), (*ev).Release()} {
		if rerr != nil && *err == nil {
			*err = rerr
		}
	}
	*ev = nil
}

// barrierOn makes q's later commands wait for ev, and releases ev.
func barrierOn(q *cl.Queue, ev *cl.Event) error {
	bar, err := q.EnqueueBarrier(ev)
	if err == nil {
		err = bar.Release()
	}
	if rerr := ev.Release(); rerr != nil && err == nil {
		err = rerr
	}
	if err != nil {
		return fmt.Errorf("cllapack: look-ahead: %w", err)
	}
	return nil
}

// readPivots waits for the factorization and reads the pivots into ipiv
// and whether no pivot was exactly zero.
func readPivots(impl *Implementation, piv *pivots, info *cl.Array[int32], ipiv []int) (bool, error) {
	q := impl.blas.Runtime().Queue()
	inf := []int32{0}
	err := info.Read(q, 0, inf)
	if err == nil {
		err = piv.dev.Read(q, 0, piv.host)
	}
	if err != nil {
		return false, fmt.Errorf("cllapack: reading the pivots: %w", err)
	}
	impl.stats.transfers.Add(2)
	impl.stats.bytes.Add(4 * int64(1+len(piv.host)))
	for i := range ipiv {
		ipiv[i] = int(piv.host[i])
	}
	return inf[0] == 0, nil
}

// luBW is getf2_leaf's LU_BW for impl's leaves: with luCoal, the least
// power of two at least the leaf's width, for leaves up to 32 wide and
// work-groups at least that large; else 0 (a row per work-item).
func (impl *Implementation) luBW() int {
	if !impl.luCoal || impl.leaf > 32 {
		return 0
	}
	bw := 1
	for bw < impl.leaf {
		bw *= 2
	}
	if bw > impl.luWG {
		return 0 // too few work-items to share rows
	}
	return bw
}

// panelLU factorises with partial pivoting the m×n panel of d at row r0,
// column c0 (m ≥ n; m runs to the bottom of d, so that pivots are rows of
// d): recursively, splitting the columns in two, as getrfPanel does on
// the host; a panel at most impl.leaf wide is one getf2_leaf launch. The
// pivots (absolute rows) go to piv.dev, the first zero pivot to info.
// When tail is set (the whole panel, and its right halves), the right
// half's interchanges on the left half are left to laswpTail.
func panelLU[T float32 | float64](impl *Implementation, d *clblas.Matrix[T], piv *pivots, info *cl.Array[int32], r0, c0, m, n int, tail bool) error {
	if n <= impl.leaf {
		buf, off, err := d.Buffer()
		if err != nil {
			return err
		}
		ld := d.Stride()
		return launch[T](impl, "getf2_leaf", []int{impl.luWG}, []int{impl.luWG}, int32(m), int32(n), buf,
			int64(off+r0*ld+c0), int32(ld), int32(r0), piv.dev, info)
	}
	// Split at a multiple of the leaf (laswpTail follows the splits).
	n1 := (n/2 + impl.leaf - 1) / impl.leaf * impl.leaf
	n2 := n - n1
	if err := panelLU(impl, d, piv, info, r0, c0, m, n1, false); err != nil {
		return err
	}
	// The left half's interchanges on the right half, then
	// A12 = L11⁻¹·A12 and A22 −= A21·A12.
	if err := laswpDevice(impl, d, piv, c0+n1, n2, r0, n1); err != nil {
		return err
	}
	if err := trsmUnitLower(impl, d, r0, c0, c0+n1, n1, n2); err != nil {
		return err
	}
	if err := gemmAt(impl, d, r0+n1, c0, r0, c0+n1, m-n1, n2, n1); err != nil {
		return err
	}
	if err := panelLU(impl, d, piv, info, r0+n1, c0+n1, m-n1, n2, tail); err != nil {
		return err
	}
	if tail {
		// The right half's interchanges on the left half wait for
		// laswpTail: nothing reads the left half until then, since
		// this is the last part of the panel.
		return nil
	}
	// The right half's interchanges on the left half, which the caller
	// reads next.
	return laswpDevice(impl, d, piv, c0, n1, r0+n1, n2)
}

// laswpTail enqueues, for the panel at row and column j, jb wide, its
// interchanges on the columns left of it, and on its own columns those
// panelLU left to it: going down the panel's right halves as panelLU
// splits them, each left half takes the interchanges of the rows below
// it. Each part is a laswp launch (a permutation, not a chain of
// interchanges per column).
func laswpTail[T float32 | float64](impl *Implementation, d *clblas.Matrix[T], piv *pivots, j, jb int) error {
	if err := laswpDevice(impl, d, piv, 0, j, j, jb); err != nil {
		return err
	}
	for lo, n := 0, jb; n > impl.leaf; {
		n1 := (n/2 + impl.leaf - 1) / impl.leaf * impl.leaf
		if err := laswpDevice(impl, d, piv, j+lo, n1, j+lo+n1, jb-lo-n1); err != nil {
			return err
		}
		lo += n1
		n -= n1
	}
	return nil
}

// gemmAt enqueues C −= A·B on views of d: C is the r×c block at (ra, cb),
// A the r×k block at (ra, ca) and B the k×c block at (rb, cb).
func gemmAt[T float32 | float64](impl *Implementation, d *clblas.Matrix[T], ra, ca, rb, cb, r, c, k int) error {
	a, err := d.View(ra, ca, r, k)
	if err != nil {
		return err
	}
	b, err := d.View(rb, cb, k, c)
	if err != nil {
		return err
	}
	cv, err := d.View(ra, cb, r, c)
	if err != nil {
		return err
	}
	return gemm(impl, blas.NoTrans, blas.NoTrans, -1, a, b, 1, cv)
}

// trsmUnitLower enqueues B = L⁻¹·B for L the n1×n1 unit lower triangle of
// d at (r0, cl) and B the n1×n2 block at (r0, cb): trsm_llu on blocks of
// at most trsmLeaf rows, split recursively with a GEMM update of the
// lower half by the solved upper half.
func trsmUnitLower[T float32 | float64](impl *Implementation, d *clblas.Matrix[T], r0, cl, cb, n1, n2 int) error {
	if n1 <= trsmLeaf {
		if n1 <= 1 || n2 == 0 {
			return nil
		}
		buf, off, err := d.Buffer()
		if err != nil {
			return err
		}
		ld := d.Stride()
		groups := (n2 + trsmCols - 1) / trsmCols
		return launch[T](impl, "trsm_llu", []int{groups * trsmWG}, []int{trsmWG}, int32(n1), int32(n2), buf,
			int64(off+r0*ld+cl), int64(off+r0*ld+cb), int32(ld))
	}
	h := n1 / 2
	if err := trsmUnitLower(impl, d, r0, cl, cb, h, n2); err != nil {
		return err
	}
	if err := gemmAt(impl, d, r0+h, cl, r0, cb, n1-h, n2, h); err != nil {
		return err
	}
	return trsmUnitLower(impl, d, r0+h, cl+h, cb, n1-h, n2)
}
