package main

import (
	"math/rand/v2"

	"gonum.org/v1/gonum/blas"

	clblas "github.com/gocompute/opencl/blas"
	"github.com/gocompute/opencl/internal/clblast"
)

// The level 2 mode's triangular solves and band products on n×n
// matrices: TRSV on the dense matrix of level2Ops (its lower triangle,
// unit diagonal: with entries below 1/n the solution stays bounded call
// after call) and TRSV-T on its upper triangle transposed, TBSV with a
// band of n/32 (256 at 8192), GBMV with n/8 sub- and super-diagonals and
// SBMV with n/4. Each counts the bytes it must
// move: the stored elements it reads (the band's triangle cut at the
// matrix's corners) and its vectors. CLBlast has no TBSV.

// l2Loop and l2Theirs are level2Ops's wrappers of a resident call and of
// a CLBlast call into timed batches.
type (
	l2Loop   func(f func() (*clblas.Event, error)) func(int) error
	l2Theirs func(f func() error) func(int) error
)

// level2SolveOps returns the ops and a function releasing their matrices.
func level2SolveOps[T float32 | float64](b *bencher, n int, a *clblas.Matrix[T], am clblast.Mat, x, y *resVec[T], loop l2Loop, theirs l2Theirs) ([]l12op, func(), error) {
	q := b.impl.Runtime().Queue()
	rnd := rand.New(rand.NewPCG(3, uint64(n)))
	es := float64(elemBytes[T]())
	nf := float64(n)
	p := prefix[T]()
	// band returns an n×(w) band matrix with entries in [0, 1/n) and its
	// CLBlast view.
	var mats []*clblas.Matrix[T]
	var vecs []*clblas.Vector[T]
	release := func() {
		for _, m := range mats {
			m.Release()
		}
		for _, v := range vecs {
			v.Release()
		}
	}
	band := func(w int) (*clblas.Matrix[T], clblast.Mat, error) {
		host := make([]T, n*w)
		for i := range host {
			host[i] = T(rnd.Float64() / nf)
		}
		m, err := clblas.NewMatrixFrom(b.impl, n, w, host)
		if err != nil {
			return nil, clblast.Mat{}, err
		}
		mats = append(mats, m)
		buf, off, err := m.Buffer()
		return m, clblast.Mat{Buf: buf, Off: off, Ld: w}, err
	}
	// inBand is the number of elements of an n×n band with kl sub- and ku
	// super-diagonals (the diagonal included).
	inBand := func(kl, ku int) float64 {
		k1, k2 := float64(kl), float64(ku)
		return nf*(k1+k2+1) - k1*(k1+1)/2 - k2*(k2+1)/2
	}
	kt, kg, ks := max(n/32, 1), max(n/8, 1), max(n/4, 1)
	tb, _, err := band(kt + 1)
	if err != nil {
		return nil, release, err
	}
	gb, gm, err := band(2*kg + 1)
	if err != nil {
		return nil, release, err
	}
	sb, sm, err := band(ks + 1)
	if err != nil {
		return nil, release, err
	}
	ops := []l12op{
		{name: p + "TRSV", bytes: es * (inBand(n-1, 0) - nf + 2*nf),
			ours: loop(func() (*clblas.Event, error) {
				return clblas.Trsv(blas.Lower, blas.NoTrans, blas.Unit, a, x.v)
			}),
			theirs: theirs(func() error { return clblast.Trsv[T](q, false, false, true, n, am, x.view) })},
		{name: p + "TRSV-T", bytes: es * (inBand(n-1, 0) - nf + 2*nf),
			ours: loop(func() (*clblas.Event, error) {
				return clblas.Trsv(blas.Upper, blas.Trans, blas.Unit, a, x.v)
			}),
			theirs: theirs(func() error { return clblast.Trsv[T](q, true, true, true, n, am, x.view) })},
		{name: p + "TBSV", bytes: es * (inBand(kt, 0) - nf + 2*nf),
			ours: loop(func() (*clblas.Event, error) {
				return clblas.Tbsv(blas.Lower, blas.NoTrans, blas.Unit, kt, tb, x.v)
			})},
		{name: p + "TBMV", bytes: es * (inBand(kt, 0) + 2*nf),
			ours: loop(func() (*clblas.Event, error) {
				return clblas.Tbmv(blas.Lower, blas.NoTrans, blas.NonUnit, kt, tb, x.v)
			})},
		{name: p + "TBMV-T", bytes: es * (inBand(kt, 0) + 2*nf),
			ours: loop(func() (*clblas.Event, error) {
				return clblas.Tbmv(blas.Lower, blas.Trans, blas.NonUnit, kt, tb, x.v)
			})},
		{name: p + "GBMV", bytes: es * (inBand(kg, kg) + 3*nf),
			ours: loop(func() (*clblas.Event, error) {
				return clblas.Gbmv(blas.NoTrans, n, n, kg, kg, T(1), gb, x.v, T(0.5), y.v)
			}),
			theirs: theirs(func() error {
				return clblast.Gbmv(q, false, n, n, kg, kg, T(1), gm, x.view, T(0.5), y.view)
			})},
		{name: p + "GBMV-T", bytes: es * (inBand(kg, kg) + 3*nf),
			ours: loop(func() (*clblas.Event, error) {
				return clblas.Gbmv(blas.Trans, n, n, kg, kg, T(1), gb, x.v, T(0.5), y.v)
			}),
			theirs: theirs(func() error {
				return clblast.Gbmv(q, true, n, n, kg, kg, T(1), gm, x.view, T(0.5), y.view)
			})},
		{name: p + "SBMV", bytes: es * (inBand(ks, 0) + 3*nf),
			ours: loop(func() (*clblas.Event, error) {
				return clblas.Sbmv(blas.Upper, ks, T(1), sb, x.v, T(0.5), y.v)
			}),
			theirs: theirs(func() error {
				return clblast.Sbmv(q, true, n, ks, T(1), sm, x.view, T(0.5), y.view)
			})},
	}
	// The packed upper triangle: SPMV, TPMV, TPSV, SPR and SPR2 (resident
	// only; SPR reads and writes the triangle and reads x: 2·tri + n).
	pk := make([]T, n*(n+1)/2)
	for i := range pk {
		pk[i] = T(rnd.Float64() / nf)
	}
	ap, err := clblas.NewVectorFrom(b.impl, pk)
	if err != nil {
		return nil, release, err
	}
	vecs = append(vecs, ap)
	// SPR and SPR2 take vectors of their own: TRMV and TPMV overwrite x
	// call after call, and with entries of A below 1/n it shrinks until it
	// underflows, after which SPR would skip its rows of zeros (gonum's
	// rule) and time less than the update.
	ux, err := newResVec[T](b, rnd, n)
	if err != nil {
		return nil, release, err
	}
	vecs = append(vecs, ux.v)
	uy, err := newResVec[T](b, rnd, n)
	if err != nil {
		return nil, release, err
	}
	vecs = append(vecs, uy.v)
	tri := nf * (nf + 1) / 2
	ops = append(ops,
		l12op{name: p + "SPMV", bytes: es * (tri + 3*nf),
			ours: loop(func() (*clblas.Event, error) { return clblas.Spmv(blas.Upper, T(1), ap, x.v, T(0.5), y.v) })},
		l12op{name: p + "TPMV", bytes: es * (tri + 2*nf),
			ours: loop(func() (*clblas.Event, error) { return clblas.Tpmv(blas.Upper, blas.NoTrans, blas.NonUnit, ap, x.v) })},
		l12op{name: p + "TPMV-T", bytes: es * (tri + 2*nf),
			ours: loop(func() (*clblas.Event, error) { return clblas.Tpmv(blas.Upper, blas.Trans, blas.NonUnit, ap, x.v) })},
		l12op{name: p + "TPSV", bytes: es * (tri - nf + 2*nf),
			ours: loop(func() (*clblas.Event, error) { return clblas.Tpsv(blas.Upper, blas.NoTrans, blas.Unit, ap, x.v) })},
		l12op{name: p + "TPSV-T", bytes: es * (tri - nf + 2*nf),
			ours: loop(func() (*clblas.Event, error) { return clblas.Tpsv(blas.Upper, blas.Trans, blas.Unit, ap, x.v) })},
		l12op{name: p + "SPR", bytes: es * (2*tri + nf),
			ours: loop(func() (*clblas.Event, error) { return clblas.Spr(blas.Upper, T(1e-9), ux.v, ap) })},
		l12op{name: p + "SPR2", bytes: es * (2*tri + 2*nf),
			ours: loop(func() (*clblas.Event, error) { return clblas.Spr2(blas.Upper, T(1e-9), ux.v, uy.v, ap) })})
	return ops, release, nil
}
