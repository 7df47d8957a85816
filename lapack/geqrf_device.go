package cllapack

import (
	"fmt"
	"unsafe"

	"gonum.org/v1/gonum/blas"

	"github.com/gocompute/opencl/cl"

	clblas "github.com/gocompute/opencl/blas"
)

// The widest panels geqr2_leaf factorises (QR_B in kernels/lapack.cl):
// each work-item keeps a partial dot product per column and QR_ROWS rows
// in registers, so the default program takes leaves up to qrBDefault
// wide, and wider leaves take a build of their own (QR_B = qrBMid or
// qrBMax).
const (
	qrBDefault = 8
	qrBMid     = 16
	qrBMax     = 32
)

// qrBuild is the QR_B build geqr2_leaf needs for leaves leaf wide (0: the
// default program).
func qrBuild(leaf int) int {
	switch {
	case leaf <= qrBDefault:
		return 0
	case leaf <= qrBMid:
		return qrBMid
	}
	return qrBMax
}

// qrWG is geqr2_leaf's work-group size (QR_WG).
const qrWG = 256

// qrRun is the device scratch of geqrfOnDevice: the reflectors of a panel
// as explicit columns (V, m×nb), W = Vᵀ·C and W2 = Tᵀ·W (nb×n each), the
// Gram matrix VᵀV and the panel's T (nb×nb), and tau.
type qrRun[T float32 | float64] struct {
	impl                *Implementation
	d                   *clblas.Matrix[T]
	dv, dw, dw2, dg, dt *clblas.Matrix[T]
	tau                 *cl.Array[T]
	m, n, nb            int
	// grid, when set, factorises each panel in one geqrf_grid launch.
	grid *qrGrid[T]
	// With look-ahead (q2 set) the next panel's geqrf_grid runs on q2
	// into the second V and T (dv2, dt2) while the main queue applies
	// this panel's reflectors to the rest of the trailing matrix; the
	// pairs swap every step.
	q2       *cl.Queue
	dv2, dt2 *clblas.Matrix[T]
}

// geqrfOnDevice is the blocked QR factorization of the resident m×n
// matrix d with every step on the device; tau is read back at the end.
// Each (m−i)×nb panel is factorised in leaves of impl.qrLeaf columns by
// geqr2_leaf, which also writes the leaf's reflectors as explicit columns
// of V and its triangular factor, into its diagonal block of the panel's
// T; each leaf's block reflector is applied to the rest of the panel with
// three GEMMs. The rest of the panel's T comes from the Gram matrix VᵀV
// (one GEMM) by larft_t, and the trailing matrix is
// updated as C −= V·(Tᵀ·(Vᵀ·C)), three GEMMs.
func geqrfOnDevice[T float32 | float64](impl *Implementation, d *clblas.Matrix[T], tau []T) (err error) {
	m, n := d.Dims()
	k := min(m, n)
	r := &qrRun[T]{impl: impl, d: d, m: m, n: n, nb: min(impl.nb, k)}
	if err := r.alloc(k); err != nil {
		r.release()
		return err
	}
	if r.grid, err = newQRGrid[T](impl, k, r.nb); err != nil {
		r.release()
		return err
	}
	if r.grid != nil && impl.qrAhead && impl.prof == nil && k > r.nb {
		if err := r.allocAhead(); err != nil {
			r.release()
			return err
		}
	}
	defer func() {
		if rerr := r.release(); rerr != nil && err == nil {
			err = rerr
		}
	}()
	if err := r.steps(k); err != nil {
		return err
	}
	if err := r.tau.Read(impl.blas.Runtime().Queue(), 0, tau); err != nil {
		return fmt.Errorf("cllapack: reading tau: %w", err)
	}
	if r.grid != nil {
		if err := r.grid.failed(); err != nil {
			return err
		}
	}
	impl.stats.transfers.Add(1)
	impl.stats.bytes.Add(int64(unsafe.Sizeof(tau[0])) * int64(k))
	return nil
}

// steps runs the factorization's k/nb steps: each panel, then its block
// reflector on the columns right of it. With look-ahead the next panel's
// columns are updated first and that panel is launched on q2.
func (r *qrRun[T]) steps(k int) (err error) {
	q := r.impl.blas.Runtime().Queue()
	var pending *cl.Event // the next panel's launch on q2
	defer waitPending(&pending, &err)
	for i := 0; i < k; i += r.nb {
		ib := min(r.nb, k-i)
		if pending != nil {
			err, pending = barrierOn(q, pending), nil
			r.dv, r.dv2, r.dt, r.dt2 = r.dv2, r.dv, r.dt2, r.dt
		} else {
			err = r.panel(i, ib)
		}
		if err != nil {
			return err
		}
		c := i + ib
		if c >= r.n {
			continue
		}
		if err := r.larft(i, ib); err != nil {
			return err
		}
		ahead := 0 // the next panel's columns, updated first when it runs ahead
		if r.q2 != nil && c < k {
			ahead = min(r.nb, k-c)
			if err := r.applyPanel(i, ib, c, ahead); err != nil {
				return err
			}
			pending, err = launchAfter(q, r.q2, func(q2 *cl.Queue, wait []*cl.Event) (*cl.Event, error) {
				// Into the second V and T: this panel's are still in use.
				return r.gridPanelOn(q2, wait, r.dv2, r.dt2, c, ahead)
			})
			if err != nil {
				return err
			}
		}
		if err := r.applyPanel(i, ib, c+ahead, r.n-c-ahead); err != nil {
			return err
		}
	}
	return nil
}

func (r *qrRun[T]) alloc(k int) (err error) {
	shapes := []struct {
		p    **clblas.Matrix[T]
		rows int
		cols int
	}{{&r.dv, r.m, r.nb}, {&r.dw, r.nb, r.n}, {&r.dw2, r.nb, r.n}, {&r.dg, r.nb, r.nb}, {&r.dt, r.nb, r.nb}}
	for _, s := range shapes {
		if *s.p, err = clblas.NewMatrix[T](r.impl.blas, s.rows, s.cols); err != nil {
			return err
		}
	}
	r.tau, err = cl.NewArray[T](r.impl.blas.Runtime().Context(), cl.MemReadWrite, k)
	if err != nil {
		return fmt.Errorf("cllapack: tau: %w", err)
	}
	return nil
}

// allocAhead sets up look-ahead: the second queue, V and T.
func (r *qrRun[T]) allocAhead() (err error) {
	if r.q2, err = r.impl.aheadQueue(); err != nil {
		return err
	}
	if r.dv2, err = clblas.NewMatrix[T](r.impl.blas, r.m, r.nb); err != nil {
		return err
	}
	r.dt2, err = clblas.NewMatrix[T](r.impl.blas, r.nb, r.nb)
	return err
}

func (r *qrRun[T]) release() error {
	var ms []*clblas.Matrix[T]
	for _, m := range []*clblas.Matrix[T]{r.dv, r.dw, r.dw2, r.dg, r.dt, r.dv2, r.dt2} {
		if m != nil {
			ms = append(ms, m)
		}
	}
	err := releaseAll(ms...)
	if r.grid != nil {
		if rerr := r.grid.release(); rerr != nil && err == nil {
			err = rerr
		}
	}
	if r.tau != nil {
		if rerr := r.tau.Release(); rerr != nil && err == nil {
			err = rerr
		}
	}
	return err
}

// panel factorises the (m−i)×ib panel at (i, i) leaf by leaf, leaving its
// reflectors in dv (rows 0 to m−i).
func (r *qrRun[T]) panel(i, ib int) error {
	if r.grid != nil {
		ev, err := r.gridPanelOn(nil, nil, r.dv, r.dt, i, ib)
		if err != nil {
			return err
		}
		return ev.Release()
	}
	impl := r.impl
	mp := r.m - i
	buf, off, err := r.d.Buffer()
	if err != nil {
		return err
	}
	vb, voff, err := r.dv.Buffer()
	if err != nil {
		return err
	}
	tb, toff, err := r.dt.Buffer()
	if err != nil {
		return err
	}
	ld := r.d.Stride()
	for lb := 0; lb < ib; lb += impl.qrLeaf {
		b := min(impl.qrLeaf, ib-lb)
		err := launch[T](impl, "geqr2_leaf", []int{qrWG}, []int{qrWG}, int32(mp-lb), int32(b),
			buf, int64(off+(i+lb)*ld+i+lb), int32(ld), r.tau, int64(i+lb), vb, int64(voff),
			int32(r.dv.Stride()), int32(lb), int32(lb), tb, int64(toff+lb*r.dt.Stride()+lb), int32(r.dt.Stride()))
		if err != nil {
			return err
		}
		if lb+b == ib {
			break
		}
		v, err := r.dv.View(lb, lb, mp-lb, b)
		if err != nil {
			return err
		}
		t, err := r.dt.View(lb, lb, b, b)
		if err != nil {
			return err
		}
		if err := r.apply(v, t, i+lb, i+lb+b, mp-lb, ib-lb-b); err != nil {
			return err
		}
	}
	return nil
}

// gridPanelOn launches geqrf_grid on the (m−i)×ib panel at (i, i), its
// reflectors into dv and T's diagonal into dt, on q (nil: the main
// queue) after wait, and returns the launch's event.
func (r *qrRun[T]) gridPanelOn(q *cl.Queue, wait []*cl.Event, dv, dt *clblas.Matrix[T], i, ib int) (*cl.Event, error) {
	impl, g := r.impl, r.grid
	mp := r.m - i
	buf, off, err := r.d.Buffer()
	if err != nil {
		return nil, err
	}
	vb, voff, err := dv.Buffer()
	if err != nil {
		return nil, err
	}
	tb, toff, err := dt.Buffer()
	if err != nil {
		return nil, err
	}
	ld := r.d.Stride()
	rpg := max(impl.gridRows, impl.gridQRRows, (mp+g.groups-1)/g.groups)
	bw := 1
	for bw < ib {
		bw *= 2
	}
	groups := (mp + rpg - 1) / rpg
	name := geqrfGridName(groups >= impl.gridQRSplit, impl.gridQROne && qrGridOneBatch(rpg, bw))
	return launchOn[T](impl, q, wait, name, []int{groups * gridWG}, []int{gridWG},
		int32(mp), int32(ib), int32(bw), int32(rpg), buf, int64(off+i*ld+i), int32(ld), r.tau, int64(i),
		vb, int64(voff), int32(dv.Stride()), tb, int64(toff), int32(dt.Stride()),
		g.syncs, int32(i/r.nb), int32(impl.gridSpin), g.xs)
}

// larft forms the panel's T from VᵀV and the leaves' factors (larft_t,
// with dw2 as its scratch).
func (r *qrRun[T]) larft(i, ib int) error {
	v, err := r.dv.View(0, 0, r.m-i, ib)
	if err != nil {
		return err
	}
	g, err := r.dg.View(0, 0, ib, ib)
	if err != nil {
		return err
	}
	if err := gemm(r.impl, blas.Trans, blas.NoTrans, 1, v, v, 0, g); err != nil {
		return err
	}
	gb, goff, err := g.Buffer()
	if err != nil {
		return err
	}
	tb, toff, err := r.dt.Buffer()
	if err != nil {
		return err
	}
	yb, yoff, err := r.dw2.Buffer()
	if err != nil {
		return err
	}
	lw := r.impl.qrLeaf
	if r.grid != nil {
		lw = 1 // geqrf_grid writes T's diagonal only
	}
	return launch[T](r.impl, "larft_t", []int{potfWG}, []int{potfWG}, int32(ib), int32(lw),
		gb, int64(goff), int32(g.Stride()), tb, int64(toff), int32(r.dt.Stride()), yb, int64(yoff), int32(r.dw2.Stride()))
}

// applyPanel applies the block reflector of the panel at (i, i), ib wide
// (V and T formed), to the cols columns of d from col.
func (r *qrRun[T]) applyPanel(i, ib, col, cols int) error {
	if cols == 0 {
		return nil
	}
	mp := r.m - i
	v, err := r.dv.View(0, 0, mp, ib)
	if err != nil {
		return err
	}
	t, err := r.dt.View(0, 0, ib, ib)
	if err != nil {
		return err
	}
	return r.apply(v, t, i, col, mp, cols)
}

// apply enqueues C −= V·(Tᵀ·(Vᵀ·C)) (Hᵀ·C for H = I − V·T·Vᵀ) on the
// rows×cols block C of d at (row, col), V rows×kb and T kb×kb.
func (r *qrRun[T]) apply(v, t *clblas.Matrix[T], row, col, rows, cols int) error {
	_, kb := v.Dims()
	c, err := r.d.View(row, col, rows, cols)
	if err != nil {
		return err
	}
	w, err := r.dw.View(0, 0, kb, cols)
	if err != nil {
		return err
	}
	w2, err := r.dw2.View(0, 0, kb, cols)
	if err != nil {
		return err
	}
	if err := gemm(r.impl, blas.Trans, blas.NoTrans, 1, v, c, 0, w); err != nil {
		return err
	}
	if err := gemm(r.impl, blas.Trans, blas.NoTrans, 1, t, w, 0, w2); err != nil {
		return err
	}
	return gemm(r.impl, blas.NoTrans, blas.NoTrans, -1, v, w2, 1, c)
}
