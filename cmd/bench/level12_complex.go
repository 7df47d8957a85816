package main

import (
	"context"
	"fmt"
	"math"
	"math/cmplx"
	"math/rand/v2"

	"gonum.org/v1/gonum/blas"

	clblas "github.com/gocompute/opencl/blas"
	"github.com/gocompute/opencl/cl"
	"github.com/gocompute/opencl/internal/clblast"
)

// The complex rows of the level 1 and 2 mode (-prec c64,c128 with -level
// 1,2): the C… (complex64) and Z… (complex128) routines, counted and timed
// as the real rows (level12.go), a complex element moving 8 or 16 bytes.
// Ours resident runs the resident API of blas/resident_complex12.go, from
// Go slices the drop-in's C/Z methods, CLBlast its C/Z routines on the
// same buffers (internal/clblast/complex12.go). There are no DOTCTO or
// NRM2TO rows (the resident API has no complex DotTo), no ROT, and no
// READ and WRITE ceilings.

// cgemmer is the drop-in's complex half (gonum's and ours).
type cgemmer interface {
	blas.Complex64
	blas.Complex128
}

// zfuncs are the drop-in routines the complex rows call, an
// implementation's C… or Z… methods by T.
type zfuncs[T complex64 | complex128] struct {
	axpy       func(n int, alpha T, x []T, incX int, y []T, incY int)
	scal       func(n int, alpha T, x []T, incX int)
	rscal      func(n int, alpha float64, x []T, incX int) // Csscal, Zdscal
	copy, swap func(n int, x []T, incX int, y []T, incY int)
	dotu, dotc func(n int, x []T, incX int, y []T, incY int) T
	nrm2, asum func(n int, x []T, incX int) float64
	iamax      func(n int, x []T, incX int) int
	gemv       func(tA blas.Transpose, m, n int, alpha T, a []T, lda int, x []T, incX int, beta T, y []T, incY int)
	geru, gerc func(m, n int, alpha T, x []T, incX int, y []T, incY int, a []T, lda int)
	her        func(ul blas.Uplo, n int, alpha float64, x []T, incX int, a []T, lda int)
	her2       func(ul blas.Uplo, n int, alpha T, x []T, incX int, y []T, incY int, a []T, lda int)
	hemv       func(ul blas.Uplo, n int, alpha T, a []T, lda int, x []T, incX int, beta T, y []T, incY int)
	trmv       func(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, a []T, lda int, x []T, incX int)
}

// set makes z call impl's routines (impl is ours or gonum's: both are
// complex too).
func (z *zfuncs[T]) set(impl gemmer) {
	c := impl.(cgemmer)
	switch p := any(z).(type) {
	case *zfuncs[complex64]:
		*p = zfuncs[complex64]{axpy: c.Caxpy, scal: c.Cscal, copy: c.Ccopy, swap: c.Cswap, dotu: c.Cdotu, dotc: c.Cdotc,
			iamax: c.Icamax, gemv: c.Cgemv, geru: c.Cgeru, gerc: c.Cgerc, her2: c.Cher2, hemv: c.Chemv, trmv: c.Ctrmv,
			rscal: func(n int, alpha float64, x []complex64, incX int) { c.Csscal(n, float32(alpha), x, incX) },
			nrm2:  func(n int, x []complex64, incX int) float64 { return float64(c.Scnrm2(n, x, incX)) },
			asum:  func(n int, x []complex64, incX int) float64 { return float64(c.Scasum(n, x, incX)) },
			her: func(ul blas.Uplo, n int, alpha float64, x []complex64, incX int, a []complex64, lda int) {
				c.Cher(ul, n, float32(alpha), x, incX, a, lda)
			}}
	case *zfuncs[complex128]:
		*p = zfuncs[complex128]{axpy: c.Zaxpy, scal: c.Zscal, rscal: c.Zdscal, copy: c.Zcopy, swap: c.Zswap,
			dotu: c.Zdotu, dotc: c.Zdotc, nrm2: c.Dznrm2, asum: c.Dzasum, iamax: c.Izamax, gemv: c.Zgemv,
			geru: c.Zgeru, gerc: c.Zgerc, her: c.Zher, her2: c.Zher2, hemv: c.Zhemv, trmv: c.Ztrmv}
	}
}

// cxPrefix is the BLAS letter of T and of its parts: C and S, or Z and D.
func cxPrefix[T complex64 | complex128]() (string, string) {
	if elemBytes[T]() == 16 {
		return "Z", "D"
	}
	return "C", "S"
}

// cxVectors uploads two random vectors of n elements, x and y.
func cxVectors[T complex64 | complex128](b *bencher, rnd *rand.Rand, n int) (*resVec[T], *resVec[T], error) {
	x, err := residentVec(b, crandom[T](rnd, n))
	if err != nil {
		return nil, nil, err
	}
	y, err := residentVec(b, crandom[T](rnd, n))
	return x, y, err
}

// level1ComplexOps builds the complex level 1 routines on vectors of n
// elements.
func level1ComplexOps[T complex64 | complex128](b *bencher, n int) ([]l12op, error) {
	x, y, err := cxVectors[T](b, rand.New(rand.NewPCG(1, uint64(n))), n)
	if err != nil {
		return nil, err
	}
	res, err := clblas.NewVector[T](b.impl, 1)
	if err != nil {
		return nil, err
	}
	resBuf, resOff, _, _ := res.Buffer()
	q := b.impl.Runtime().Queue()
	es, nf := float64(elemBytes[T]()), float64(n)
	p, rp := cxPrefix[T]()
	d := &zfuncs[T]{}
	d.set(b.impl)
	theirs := func(f func() error) func(int) error { return theirsBatch(q, f) }
	// alpha is small (AXPY adds it up); rot has modulus 1, so that
	// repeated SCALs keep x as it is in size.
	alpha, rot := T(complex(1e-3, 1e-3)), T(complex(0, 1))
	dotu := func() (*clblas.Scalar[T], error) { return clblas.Dot(x.v, y.v) }
	dotc := func() (*clblas.Scalar[T], error) { return clblas.Dotc(x.v, y.v) }
	nrm2 := func() (*clblas.Scalar[T], error) { return clblas.Nrm2(x.v) }
	asum := func() (*clblas.Scalar[T], error) { return clblas.Asum(x.v) }
	ops := []l12op{
		{name: p + "AXPY", bytes: 3 * es * nf,
			ours:   residentBatch(func() (*clblas.Event, error) { return clblas.Axpy(alpha, x.v, y.v) }),
			theirs: theirs(func() error { return clblast.ComplexAxpy(q, n, alpha, x.view, y.view) }),
			slices: hostBatch(func() { d.axpy(n, alpha, x.host, 1, y.host, 1) })},
		{name: p + "DOTU", bytes: 2 * es * nf,
			ours:   scalarBatch(func() (waiter, error) { return dotu() }),
			theirs: theirs(func() error { return clblast.ComplexDotu[T](q, n, resBuf, resOff, x.view, y.view) }),
			slices: hostBatch(func() { d.dotu(n, x.host, 1, y.host, 1) }),
			check:  cxCheck(dotu, x.v, y.v, refDotu[T])},
		{name: p + "DOTC", bytes: 2 * es * nf,
			ours:   scalarBatch(func() (waiter, error) { return dotc() }),
			theirs: theirs(func() error { return clblast.ComplexDotc[T](q, n, resBuf, resOff, x.view, y.view) }),
			slices: hostBatch(func() { d.dotc(n, x.host, 1, y.host, 1) }),
			check:  cxCheck(dotc, x.v, y.v, refDotc[T])},
		{name: rp + p + "NRM2", bytes: es * nf,
			ours:   scalarBatch(func() (waiter, error) { return nrm2() }),
			theirs: theirs(func() error { return clblast.ComplexNrm2[T](q, n, resBuf, resOff, x.view) }),
			slices: hostBatch(func() { d.nrm2(n, x.host, 1) }),
			check:  cxCheck(nrm2, x.v, nil, refCxNrm2[T])},
		{name: p + "SCAL", bytes: 2 * es * nf,
			ours:   residentBatch(func() (*clblas.Event, error) { return clblas.Scal(rot, x.v) }),
			theirs: theirs(func() error { return clblast.ComplexScal(q, n, rot, x.view) }),
			slices: hostBatch(func() { d.scal(n, rot, x.host, 1) })},
		// CSSCAL and ZDSCAL scale by a real alpha. The resident API has
		// none for a complex vector (ours resident is Scal with alpha's
		// imaginary part zero), nor has CLBlast: its column is SSCAL or
		// DSCAL on the 2n parts, what the drop-in's Csscal runs on the
		// device for a unit stride.
		{name: p + rp + "SCAL", bytes: 2 * es * nf,
			ours: residentBatch(func() (*clblas.Event, error) { return clblas.Scal(T(-1), x.v) }),
			theirs: theirs(func() error {
				return realScal[T](q, 2*n, -1, clblast.Vec{Buf: x.view.Buf, Off: 2 * x.view.Off, Inc: 1})
			}),
			slices: hostBatch(func() { d.rscal(n, -1, x.host, 1) })},
		{name: "I" + p + "AMAX", bytes: es * nf,
			ours:   scalarBatch(func() (waiter, error) { return clblas.Iamax(x.v) }),
			theirs: theirs(func() error { return clblast.ComplexIamax[T](q, n, resBuf, resOff, x.view) }),
			slices: hostBatch(func() { d.iamax(n, x.host, 1) })},
		{name: rp + p + "ASUM", bytes: es * nf,
			ours:   scalarBatch(func() (waiter, error) { return asum() }),
			theirs: theirs(func() error { return clblast.ComplexAsum[T](q, n, resBuf, resOff, x.view) }),
			slices: hostBatch(func() { d.asum(n, x.host, 1) }),
			check:  cxCheck(asum, x.v, nil, refCxAsum[T])},
		{name: p + "COPY", bytes: 2 * es * nf,
			ours:   residentBatch(func() (*clblas.Event, error) { return clblas.Copy(x.v, y.v) }),
			theirs: theirs(func() error { return clblast.ComplexCopy[T](q, n, x.view, y.view) }),
			slices: hostBatch(func() { d.copy(n, x.host, 1, y.host, 1) })},
		{name: p + "SWAP", bytes: 4 * es * nf,
			ours:   residentBatch(func() (*clblas.Event, error) { return clblas.Swap(x.v, y.v) }),
			theirs: theirs(func() error { return clblast.ComplexSwap[T](q, n, x.view, y.view) }),
			slices: hostBatch(func() { d.swap(n, x.host, 1, y.host, 1) })},
	}
	finishOps(ops, 1, l1Size(n), d.set, func() { x.v.Release(); y.v.Release(); res.Release() })
	return ops, nil
}

// level2ComplexOps builds the complex level 2 routines on n×n matrices.
func level2ComplexOps[T complex64 | complex128](b *bencher, n int) ([]l12op, error) {
	rnd := rand.New(rand.NewPCG(2, uint64(n)))
	// Both parts in [0, 1/(2n)): |a| < 1/n, so that repeated products
	// (TRMV) stay bounded, as level2Ops's.
	host := make([]T, n*n)
	for i := range host {
		host[i] = T(complex(rnd.Float64()/float64(2*n), rnd.Float64()/float64(2*n)))
	}
	a, err := clblas.NewMatrixFrom(b.impl, n, n, host)
	if err != nil {
		return nil, err
	}
	abuf, aoff, err := a.Buffer()
	if err != nil {
		return nil, err
	}
	am := clblast.Mat{Buf: abuf, Off: aoff, Ld: a.Stride()}
	x, y, err := cxVectors[T](b, rnd, n)
	if err != nil {
		return nil, err
	}
	q := b.impl.Runtime().Queue()
	es := float64(elemBytes[T]())
	nn, nf := float64(n)*float64(n), float64(n)
	tri := nf * (nf + 1) / 2
	p, _ := cxPrefix[T]()
	d := &zfuncs[T]{}
	d.set(b.impl)
	theirs := func(f func() error) func(int) error { return theirsBatch(q, f) }
	// The rank updates add up their alpha (HER's is real).
	alpha, beta, ra := T(1), T(0.5), T(complex(1e-9, 1e-9))
	const her = 1e-9
	gemv := func(t blas.Transpose, tr int) l12op {
		return l12op{name: p + "GEMV-" + string(t), bytes: es * (nn + 3*nf),
			ours: residentBatch(func() (*clblas.Event, error) { return clblas.Gemv(t, alpha, a, x.v, beta, y.v) }),
			theirs: theirs(func() error {
				return clblast.ComplexGemv(q, tr, n, n, alpha, am, x.view, beta, y.view)
			}),
			slices: hostBatch(func() { d.gemv(t, n, n, alpha, host, n, x.host, 1, beta, y.host, 1) })}
	}
	ops := []l12op{
		gemv(blas.NoTrans, 0),
		gemv(blas.Trans, 1),
		gemv(blas.ConjTrans, 2),
		{name: p + "GERU", bytes: es * (2*nn + 2*nf),
			ours:   residentBatch(func() (*clblas.Event, error) { return clblas.Ger(ra, x.v, y.v, a) }),
			theirs: theirs(func() error { return clblast.ComplexGeru(q, n, n, ra, x.view, y.view, am) }),
			slices: hostBatch(func() { d.geru(n, n, ra, x.host, 1, y.host, 1, host, n) })},
		{name: p + "GERC", bytes: es * (2*nn + 2*nf),
			ours:   residentBatch(func() (*clblas.Event, error) { return clblas.Gerc(ra, x.v, y.v, a) }),
			theirs: theirs(func() error { return clblast.ComplexGerc(q, n, n, ra, x.view, y.view, am) }),
			slices: hostBatch(func() { d.gerc(n, n, ra, x.host, 1, y.host, 1, host, n) })},
		// HER and HER2 read and write the upper triangle and read x (and
		// y): 2·tri + n (2n).
		{name: p + "HER", bytes: es * (2*tri + nf),
			ours:   residentBatch(func() (*clblas.Event, error) { return clblas.Her(blas.Upper, her, x.v, a) }),
			theirs: theirs(func() error { return clblast.ComplexHer[T](q, true, n, her, x.view, am) }),
			slices: hostBatch(func() { d.her(blas.Upper, n, her, x.host, 1, host, n) })},
		{name: p + "HER2", bytes: es * (2*tri + 2*nf),
			ours:   residentBatch(func() (*clblas.Event, error) { return clblas.Her2(blas.Upper, ra, x.v, y.v, a) }),
			theirs: theirs(func() error { return clblast.ComplexHer2(q, true, n, ra, x.view, y.view, am) }),
			slices: hostBatch(func() { d.her2(blas.Upper, n, ra, x.host, 1, y.host, 1, host, n) })},
		{name: p + "HEMV", bytes: es * (tri + 3*nf),
			ours: residentBatch(func() (*clblas.Event, error) { return clblas.Hemv(blas.Upper, alpha, a, x.v, beta, y.v) }),
			theirs: theirs(func() error {
				return clblast.ComplexHemv(q, true, n, alpha, am, x.view, beta, y.view)
			}),
			slices: hostBatch(func() { d.hemv(blas.Upper, n, alpha, host, n, x.host, 1, beta, y.host, 1) })},
		{name: p + "TRMV", bytes: es * (tri + 2*nf),
			ours: residentBatch(func() (*clblas.Event, error) {
				return clblas.Trmv(blas.Upper, blas.NoTrans, blas.NonUnit, a, x.v)
			}),
			theirs: theirs(func() error { return clblast.ComplexTrmv[T](q, true, 0, false, n, am, x.view) }),
			slices: hostBatch(func() { d.trmv(blas.Upper, blas.NoTrans, blas.NonUnit, n, host, n, x.host, 1) })},
		{name: p + "TRMV-C", bytes: es * (tri + 2*nf),
			ours: residentBatch(func() (*clblas.Event, error) {
				return clblas.Trmv(blas.Upper, blas.ConjTrans, blas.NonUnit, a, x.v)
			}),
			theirs: theirs(func() error { return clblast.ComplexTrmv[T](q, true, 2, false, n, am, x.view) }),
			slices: hostBatch(func() { d.trmv(blas.Upper, blas.ConjTrans, blas.NonUnit, n, host, n, x.host, 1) })},
		// The solves read the stored triangle but its diagonal (unit) and
		// read and write x: level2SolveOps's counts.
		{name: p + "TRSV", bytes: es * (tri - nf + 2*nf),
			ours: residentBatch(func() (*clblas.Event, error) {
				return clblas.Trsv(blas.Lower, blas.NoTrans, blas.Unit, a, x.v)
			})},
		{name: p + "TRSV-C", bytes: es * (tri - nf + 2*nf),
			ours: residentBatch(func() (*clblas.Event, error) {
				return clblas.Trsv(blas.Upper, blas.ConjTrans, blas.Unit, a, x.v)
			})},
	}
	bandOps, releaseBand, err := complexBandOps[T](b, n, rnd, x, y)
	if err != nil {
		return nil, err
	}
	ops = append(ops, bandOps...)
	finishOps(ops, 2, fmt.Sprintf("%d^2", n), d.set, func() { a.Release(); releaseBand(); x.v.Release(); y.v.Release() })
	return ops, nil
}

// complexBandOps builds HBMV on a band of n/4 superdiagonals, TBMV on one
// of n/32, GBMV on n/8 diagonals each side (level2SolveOps's widths) and
// the packed products and updates, resident only.
func complexBandOps[T complex64 | complex128](b *bencher, n int, rnd *rand.Rand, x, y *resVec[T]) ([]l12op, func(), error) {
	nf, es := float64(n), float64(elemBytes[T]())
	p, _ := cxPrefix[T]()
	// inBand is the number of elements of an n×n triangular band of k
	// off-diagonals (the diagonal included).
	inBand := func(k int) float64 { return nf*float64(k+1) - float64(k)*float64(k+1)/2 }
	// band is an n-row band matrix of cols stored columns.
	band := func(cols int) (*clblas.Matrix[T], error) {
		host := make([]T, n*cols)
		for i := range host {
			host[i] = T(complex(rnd.Float64()/float64(2*n), rnd.Float64()/float64(2*n)))
		}
		return clblas.NewMatrixFrom(b.impl, n, cols, host)
	}
	ks, kt, kg := max(n/4, 1), max(n/32, 1), max(n/8, 1)
	sb, err := band(ks + 1)
	if err != nil {
		return nil, nil, err
	}
	tb, err := band(kt + 1)
	if err != nil {
		sb.Release()
		return nil, nil, err
	}
	gb, err := band(2*kg + 1)
	if err != nil {
		sb.Release()
		tb.Release()
		return nil, nil, err
	}
	pk := make([]T, n*(n+1)/2)
	for i := range pk {
		pk[i] = T(complex(rnd.Float64()/float64(2*n), rnd.Float64()/float64(2*n)))
	}
	ap, err := clblas.NewVectorFrom(b.impl, pk)
	if err != nil {
		sb.Release()
		tb.Release()
		gb.Release()
		return nil, nil, err
	}
	// HPR and HPR2 take vectors of their own: the triangular products
	// overwrite x call after call, and with |a| < 1/n it shrinks until it
	// underflows, after which HPR would skip its rows of zeros (gonum's
	// rule) and time less than the update.
	ux, uy, err := cxVectors[T](b, rnd, n)
	if err != nil {
		sb.Release()
		tb.Release()
		gb.Release()
		ap.Release()
		return nil, nil, err
	}
	tri := nf * (nf + 1) / 2
	alpha, beta := T(1), T(0.5)
	ops := []l12op{
		// The packed upper triangle (HPR reads and writes it and reads x:
		// 2·tri + n).
		{name: p + "HPMV", bytes: es * (tri + 3*nf),
			ours: residentBatch(func() (*clblas.Event, error) { return clblas.Hpmv(blas.Upper, alpha, ap, x.v, beta, y.v) })},
		{name: p + "TPMV", bytes: es * (tri + 2*nf),
			ours: residentBatch(func() (*clblas.Event, error) {
				return clblas.Tpmv(blas.Upper, blas.NoTrans, blas.NonUnit, ap, x.v)
			})},
		{name: p + "TPMV-C", bytes: es * (tri + 2*nf),
			ours: residentBatch(func() (*clblas.Event, error) {
				return clblas.Tpmv(blas.Upper, blas.ConjTrans, blas.NonUnit, ap, x.v)
			})},
		{name: p + "HPR", bytes: es * (2*tri + nf),
			ours: residentBatch(func() (*clblas.Event, error) { return clblas.Hpr(blas.Upper, 1e-9, ux.v, ap) })},
		{name: p + "HPR2", bytes: es * (2*tri + 2*nf),
			ours: residentBatch(func() (*clblas.Event, error) {
				return clblas.Hpr2(blas.Upper, T(complex(1e-9, 1e-9)), ux.v, uy.v, ap)
			})},
		{name: p + "HBMV", bytes: es * (inBand(ks) + 3*nf),
			ours: residentBatch(func() (*clblas.Event, error) { return clblas.Hbmv(blas.Upper, ks, alpha, sb, x.v, beta, y.v) })},
		{name: p + "TBMV", bytes: es * (inBand(kt) + 2*nf),
			ours: residentBatch(func() (*clblas.Event, error) {
				return clblas.Tbmv(blas.Lower, blas.NoTrans, blas.NonUnit, kt, tb, x.v)
			})},
		{name: p + "TBMV-C", bytes: es * (inBand(kt) + 2*nf),
			ours: residentBatch(func() (*clblas.Event, error) {
				return clblas.Tbmv(blas.Lower, blas.ConjTrans, blas.NonUnit, kt, tb, x.v)
			})},
		{name: p + "GBMV", bytes: es * (2*inBand(kg) - nf + 3*nf),
			ours: residentBatch(func() (*clblas.Event, error) {
				return clblas.Gbmv(blas.NoTrans, n, n, kg, kg, alpha, gb, x.v, beta, y.v)
			})},
		{name: p + "GBMV-C", bytes: es * (2*inBand(kg) - nf + 3*nf),
			ours: residentBatch(func() (*clblas.Event, error) {
				return clblas.Gbmv(blas.ConjTrans, n, n, kg, kg, alpha, gb, x.v, beta, y.v)
			})},
		{name: p + "TPSV", bytes: es * (tri - nf + 2*nf),
			ours: residentBatch(func() (*clblas.Event, error) { return clblas.Tpsv(blas.Upper, blas.NoTrans, blas.Unit, ap, x.v) })},
		{name: p + "TPSV-C", bytes: es * (tri - nf + 2*nf),
			ours: residentBatch(func() (*clblas.Event, error) { return clblas.Tpsv(blas.Upper, blas.ConjTrans, blas.Unit, ap, x.v) })},
		{name: p + "TBSV", bytes: es * (inBand(kt) - nf + 2*nf),
			ours: residentBatch(func() (*clblas.Event, error) {
				return clblas.Tbsv(blas.Lower, blas.NoTrans, blas.Unit, kt, tb, x.v)
			})},
	}
	return ops, func() {
		sb.Release()
		tb.Release()
		gb.Release()
		ap.Release()
		ux.v.Release()
		uy.v.Release()
	}, nil
}

// realScal is CLBlast's SSCAL or DSCAL, on the parts of a complex T.
func realScal[T complex64 | complex128](q *cl.Queue, n int, alpha float64, x clblast.Vec) error {
	if elemBytes[T]() == 16 {
		return clblast.Scal(q, n, alpha, x)
	}
	return clblast.Scal(q, n, float32(alpha), x)
}

// cxSum is Σ f(x[i], y[i]) in complex128 (y nil: x).
func cxSum[T complex64 | complex128](x, y []T, f func(a, b complex128) complex128) complex128 {
	if y == nil {
		y = x
	}
	var s complex128
	for i := range x {
		s += f(complex128(x[i]), complex128(y[i]))
	}
	return s
}

// The references of the checked complex reductions, on x and y as read
// back.
func refDotu[T complex64 | complex128](x, y []T) complex128 {
	return cxSum(x, y, func(a, b complex128) complex128 { return a * b })
}

func refDotc[T complex64 | complex128](x, y []T) complex128 {
	return cxSum(x, y, func(a, b complex128) complex128 { return cmplx.Conj(a) * b })
}

func refCxNrm2[T complex64 | complex128](x, _ []T) complex128 {
	ss := cxSum(x, nil, func(a, _ complex128) complex128 { return complex(real(a)*real(a)+imag(a)*imag(a), 0) })
	return complex(math.Sqrt(real(ss)), 0)
}

func refCxAsum[T complex64 | complex128](x, _ []T) complex128 {
	return cxSum(x, nil, func(a, _ complex128) complex128 { return complex(math.Abs(real(a))+math.Abs(imag(a)), 0) })
}

// cxCheck checks the complex reduction run against ref(x, y), x and y as
// read back (y may be nil), relative to the precision.
func cxCheck[T complex64 | complex128](run func() (*clblas.Scalar[T], error), x, y *clblas.Vector[T], ref func(x, y []T) complex128) func() error {
	return func() error {
		s, err := run()
		if err != nil {
			return err
		}
		got, err := s.Value(context.Background())
		if err != nil {
			return err
		}
		hx, hy, err := readBoth(x, y)
		if err != nil {
			return err
		}
		want := ref(hx, hy)
		tol := 1e-10
		if elemBytes[T]() == 8 {
			tol = 1e-3
		}
		if d := cmplx.Abs(complex128(got) - want); d > tol*cmplx.Abs(want) || cmplx.IsNaN(complex128(got)) {
			return fmt.Errorf("ours %v, complex128 reference %v", got, want)
		}
		return nil
	}
}
