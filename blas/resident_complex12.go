package clblas

import (
	"errors"
	"math"

	"gonum.org/v1/gonum/blas"

	"github.com/gocompute/opencl/cl"
	eng "github.com/gocompute/opencl/internal/engine"
)

// The device-resident level 1 and 2 operations over every Element: the
// real ones run resident_level1.go's and resident_level2.go's code, the
// complex ones the engine's complex kernels (internal/engine/
// device_complex1.go, device_complex2.go). Dotc, Gerc, Hemv, Her and Her2
// are for complex vectors only. The reductions of a complex vector finish
// on the device; Asum and Nrm2 of one are real, returned as a complex
// Scalar with a zero imaginary part.

// asRealV is v as the real vector type R that T is (nil stays nil).
func asRealV[R float32 | float64, T Element](v *Vector[T]) *Vector[R] {
	r, _ := any(v).(*Vector[R])
	return r
}

// cxScalars calls f32 or f64, by T's part precision, with the parts of the
// complex scalars vs.
func cxScalars[T Element](vs []T, f32 func(p []float32), f64 func(p []float64)) {
	var p32 []float32
	var p64 []float64
	for _, v := range vs {
		switch z := any(v).(type) {
		case complex64:
			p32 = append(p32, real(z), imag(z))
		case complex128:
			p64 = append(p64, real(z), imag(z))
		}
	}
	if p64 != nil {
		f64(p64)
		return
	}
	f32(p32)
}

// cxOf is the complex T with parts re and im.
func cxOf[T Element, R float32 | float64](re, im R) T {
	if v, ok := any(complex(float32(re), float32(im))).(T); ok {
		return v
	}
	return any(complex(float64(re), float64(im))).(T)
}

// Axpy enqueues y = alpha·x + y. For complex vectors alpha == 0 enqueues a
// marker only, as gonum's Zaxpy returns at once.
func Axpy[T Element](alpha T, x, y *Vector[T], wait ...*Event) (*Event, error) {
	switch al := any(alpha).(type) {
	case float32:
		return axpyReal(al, asRealV[float32](x), asRealV[float32](y), wait...)
	case float64:
		return axpyReal(al, asRealV[float64](x), asRealV[float64](y), wait...)
	}
	return twoVecOp("Axpy", x, y, wait, func(c *eng.Call) {
		if alpha == 0 {
			marker(c)
			return
		}
		cxScalars([]T{alpha}, func(p []float32) {
			eng.CxAxpyOnDevice(c, x.n, p[0], p[1], x.st.buf, x.off, x.inc, y.st.buf, y.off, y.inc)
		}, func(p []float64) {
			eng.CxAxpyOnDevice(c, x.n, p[0], p[1], x.st.buf, x.off, x.inc, y.st.buf, y.off, y.inc)
		})
	})
}

// Copy enqueues y = x.
func Copy[T Element](x, y *Vector[T], wait ...*Event) (*Event, error) {
	switch any(x).(type) {
	case *Vector[float32]:
		return copyReal(asRealV[float32](x), asRealV[float32](y), wait...)
	case *Vector[float64]:
		return copyReal(asRealV[float64](x), asRealV[float64](y), wait...)
	}
	return twoVecOp("Copy", x, y, wait, func(c *eng.Call) {
		eng.CxCopyOnDevice(c, x.n, x.st.buf, x.off, x.inc, y.st.buf, y.off, y.inc)
	})
}

// Swap enqueues the exchange of x and y.
func Swap[T Element](x, y *Vector[T], wait ...*Event) (*Event, error) {
	switch any(x).(type) {
	case *Vector[float32]:
		return swapReal(asRealV[float32](x), asRealV[float32](y), wait...)
	case *Vector[float64]:
		return swapReal(asRealV[float64](x), asRealV[float64](y), wait...)
	}
	return twoVecOp("Swap", x, y, wait, func(c *eng.Call) {
		eng.CxSwapOnDevice(c, x.n, x.st.buf, x.off, x.inc, y.st.buf, y.off, y.inc)
	})
}

// Scal enqueues x = alpha·x (alpha == 0 assigns zeros, as gonum does).
func Scal[T Element](alpha T, x *Vector[T], wait ...*Event) (*Event, error) {
	switch al := any(alpha).(type) {
	case float32:
		return scalReal(al, asRealV[float32](x), wait...)
	case float64:
		return scalReal(al, asRealV[float64](x), wait...)
	}
	c, err := start[T]("Scal", wait, x.storage())
	if err != nil {
		return nil, err
	}
	if err := eng.L1Check(x.n); err != nil {
		c.Finish()
		return nil, err
	}
	cxScalars([]T{alpha}, func(p []float32) {
		eng.CxScalOnDevice(c, x.n, p[0], p[1], x.st.buf, x.off, x.inc)
	}, func(p []float64) {
		eng.CxScalOnDevice(c, x.n, p[0], p[1], x.st.buf, x.off, x.inc)
	})
	return finishAsync(c)
}

// Dot enqueues the dot product xᵀ·y of x and y (for complex vectors
// without conjugation, gonum's Zdotu; Dotc conjugates x).
func Dot[T Element](x, y *Vector[T], wait ...*Event) (*Scalar[T], error) {
	switch any(x).(type) {
	case *Vector[float32]:
		s, err := dotReal(asRealV[float32](x), asRealV[float32](y), wait...)
		return any(s).(*Scalar[T]), err
	case *Vector[float64]:
		s, err := dotReal(asRealV[float64](x), asRealV[float64](y), wait...)
		return any(s).(*Scalar[T]), err
	}
	return cxDot("Dot", false, x, y, wait)
}

// Dotc enqueues the dot product xᴴ·y of complex vectors.
func Dotc[T complex64 | complex128](x, y *Vector[T], wait ...*Event) (*Scalar[T], error) {
	return cxDot("Dotc", true, x, y, wait)
}

func cxDot[T Element](op string, conj bool, x, y *Vector[T], wait []*Event) (*Scalar[T], error) {
	c, err := start[T](op, wait, x.storage(), y.storage())
	if err != nil {
		return nil, err
	}
	if err := sameLen(op, x, y); err != nil {
		c.Finish()
		return nil, err
	}
	res := eng.Alloc[T](c, 1)
	var merge func() (T, error)
	zenq[T](func() {
		eng.CxDotOnDevice[float32](c, conj, x.n, x.st.buf, x.off, x.inc, y.st.buf, y.off, y.inc, res, 0)
		p := readBack[float32](c, res, 2, opBytes(x, y))
		merge = func() (T, error) { v := p(); return cxOf[T](v[0], v[1]), nil }
	}, func() {
		eng.CxDotOnDevice[float64](c, conj, x.n, x.st.buf, x.off, x.inc, y.st.buf, y.off, y.inc, res, 0)
		p := readBack[float64](c, res, 2, opBytes(x, y))
		merge = func() (T, error) { v := p(); return cxOf[T](v[0], v[1]), nil }
	})
	return finishScalar(c, merge)
}

// Asum enqueues the sum of the absolute values of x; for a complex x,
// Σ |Re x(i)| + |Im x(i)| (gonum's Dzasum), as a complex Scalar with a zero
// imaginary part.
func Asum[T Element](x *Vector[T], wait ...*Event) (*Scalar[T], error) {
	switch any(x).(type) {
	case *Vector[float32]:
		s, err := asumReal(asRealV[float32](x), wait...)
		return any(s).(*Scalar[T]), err
	case *Vector[float64]:
		s, err := asumReal(asRealV[float64](x), wait...)
		return any(s).(*Scalar[T]), err
	}
	return cxRealReduce("Asum", x, wait, eng.CxAsumOnDevice[float32], eng.CxAsumOnDevice[float64])
}

// Nrm2 enqueues the Euclidean norm of x (overflow-safe); for a complex x
// as a complex Scalar with a zero imaginary part.
func Nrm2[T Element](x *Vector[T], wait ...*Event) (*Scalar[T], error) {
	switch any(x).(type) {
	case *Vector[float32]:
		s, err := nrm2Real(asRealV[float32](x), wait...)
		return any(s).(*Scalar[T]), err
	case *Vector[float64]:
		s, err := nrm2Real(asRealV[float64](x), wait...)
		return any(s).(*Scalar[T]), err
	}
	return cxRealReduce("Nrm2", x, wait, eng.CxNrm2OnDevice[float32], eng.CxNrm2OnDevice[float64])
}

// cxRealReduce runs a complex reduction with a real result.
func cxRealReduce[T Element](op string, x *Vector[T], wait []*Event,
	f32 func(c *eng.Call, n int, x *cl.Buffer, offX, incX int, res *cl.Buffer, offR int),
	f64 func(c *eng.Call, n int, x *cl.Buffer, offX, incX int, res *cl.Buffer, offR int)) (*Scalar[T], error) {
	c, err := start[T](op, wait, x.storage())
	if err != nil {
		return nil, err
	}
	if err := eng.L1Check(x.n); err != nil {
		c.Finish()
		return nil, err
	}
	var merge func() (T, error)
	zenq[T](func() {
		res := eng.Alloc[float32](c, 1)
		f32(c, x.n, x.st.buf, x.off, x.inc, res, 0)
		p := readBack[float32](c, res, 1, opBytes(x))
		merge = func() (T, error) { return cxOf[T](p()[0], 0), nil }
	}, func() {
		res := eng.Alloc[float64](c, 1)
		f64(c, x.n, x.st.buf, x.off, x.inc, res, 0)
		p := readBack[float64](c, res, 1, opBytes(x))
		merge = func() (T, error) { return cxOf[T](p()[0], 0), nil }
	})
	return finishScalar(c, merge)
}

// Iamax enqueues the search for the index of the first element of x with
// the largest absolute value, |Re|+|Im| for a complex x (gonum's Idamax
// and Izamax rules for NaN).
func Iamax[T Element](x *Vector[T], wait ...*Event) (*Scalar[int], error) {
	switch any(x).(type) {
	case *Vector[float32]:
		return iamaxReal(asRealV[float32](x), wait...)
	case *Vector[float64]:
		return iamaxReal(asRealV[float64](x), wait...)
	}
	c, err := start[T]("Iamax", wait, x.storage())
	if err != nil {
		return nil, err
	}
	if err := eng.L1Check(x.n); err != nil {
		c.Finish()
		return nil, err
	}
	res := eng.Alloc[float32](c, 1)
	zenq[T](func() {
		eng.CxIamaxOnDevice[float32](c, x.n, x.st.buf, x.off, x.inc, res, 0)
	}, func() {
		eng.CxIamaxOnDevice[float64](c, x.n, x.st.buf, x.off, x.inc, res, 0)
	})
	p := readBack[float32](c, res, 1, opBytes(x))
	n := x.n
	return finishScalar(c, func() (int, error) {
		i := int(int32(math.Float32bits(p()[0])))
		if i < 0 || i >= n {
			return -1, errors.New("clblas: Iamax: the kernel returned no index")
		}
		return i, nil
	})
}

// Gemv enqueues y = alpha·op(A)·x + beta·y (op(A) = Aᴴ for ConjTrans,
// which for real matrices is Aᵀ).
func Gemv[T Element](tA blas.Transpose, alpha T, a *Matrix[T], x *Vector[T], beta T, y *Vector[T], wait ...*Event) (*Event, error) {
	switch al := any(alpha).(type) {
	case float32:
		return gemvReal(tA, al, asReal[float32](a), asRealV[float32](x), any(beta).(float32), asRealV[float32](y), wait...)
	case float64:
		return gemvReal(tA, al, asReal[float64](a), asRealV[float64](x), any(beta).(float64), asRealV[float64](y), wait...)
	}
	const op = "Gemv"
	if err := errors.Join(checkTrans(op, tA), operands(op, a.storage(), x.storage(), y.storage())); err != nil {
		return nil, err
	}
	nout, nin := a.rows, a.cols
	if tA != blas.NoTrans {
		nout, nin = nin, nout
	}
	if x.n != nin || y.n != nout {
		return nil, shapeErr(op, "op(A) %d×%d, x %d, y %d", nout, nin, x.n, y.n)
	}
	c, err := start[T](op, wait, a.st)
	if err != nil {
		return nil, err
	}
	return cxMV(c, func(ld int) eng.CxMat {
		return eng.CxGeneral(eng.L2Dense, tA, a.rows, a.cols, a.rows-1, a.cols-1, ld)
	}, a, nil, nout, alpha, x, beta, y)
}

// Hemv enqueues y = alpha·A·x + beta·y for the n×n Hermitian A of which the
// ul triangle is read (the imaginary parts of its diagonal are taken as
// zero).
func Hemv[T complex64 | complex128](ul blas.Uplo, alpha T, a *Matrix[T], x *Vector[T], beta T, y *Vector[T], wait ...*Event) (*Event, error) {
	const op = "Hemv"
	c, n, err := startSymMV(op, ul, a, x, y, wait)
	if err != nil {
		return nil, err
	}
	return cxMV(c, func(ld int) eng.CxMat { return eng.CxHerm(eng.L2Dense, ul, n, n-1, ld) }, a, nil, n, alpha, x, beta, y)
}

// cxMV enqueues y = alpha·M·x + beta·y for the complex matrix a (dense or
// band) or ap (packed), M described by desc(lda of its device operand).
func cxMV[T Element](c *eng.Call, desc func(ld int) eng.CxMat, a *Matrix[T], ap *Vector[T], nout int, alpha T, x *Vector[T], beta T, y *Vector[T]) (*Event, error) {
	if err := checkNoOverlap(c.Routine, y.layout(), x.layout(), matOrPacked(a, ap)); err != nil {
		c.Finish()
		return nil, err
	}
	var dm devMat
	if a != nil {
		dm = matIn(c, a)
	} else {
		dm = packedIn(c, ap)
	}
	d := desc(dm.ld)
	cxScalars([]T{alpha, beta}, func(p []float32) {
		eng.CxMVOnDevice(c, d, dm.buf, nout, p[0], p[1], x.st.buf, x.off, x.inc, p[2], p[3], y.st.buf, y.off, y.inc)
	}, func(p []float64) {
		eng.CxMVOnDevice(c, d, dm.buf, nout, p[0], p[1], x.st.buf, x.off, x.inc, p[2], p[3], y.st.buf, y.off, y.inc)
	})
	return finishAsync(c)
}

// Trmv enqueues x = op(A)·x for an n×n triangular A.
func Trmv[T Element](ul blas.Uplo, tA blas.Transpose, d blas.Diag, a *Matrix[T], x *Vector[T], wait ...*Event) (*Event, error) {
	switch any(x).(type) {
	case *Vector[float32]:
		return trmvReal(ul, tA, d, asReal[float32](a), asRealV[float32](x), wait...)
	case *Vector[float64]:
		return trmvReal(ul, tA, d, asReal[float64](a), asRealV[float64](x), wait...)
	}
	return cxTri("Trmv", false, ul, tA, d, -1, a, nil, x, wait)
}

// Trsv enqueues the solve op(A)·x = b in place (x holds b on entry) for an
// n×n triangular A.
func Trsv[T Element](ul blas.Uplo, tA blas.Transpose, d blas.Diag, a *Matrix[T], x *Vector[T], wait ...*Event) (*Event, error) {
	switch any(x).(type) {
	case *Vector[float32]:
		return trsvReal(ul, tA, d, asReal[float32](a), asRealV[float32](x), wait...)
	case *Vector[float64]:
		return trsvReal(ul, tA, d, asReal[float64](a), asRealV[float64](x), wait...)
	}
	return cxTri("Trsv", true, ul, tA, d, -1, a, nil, x, wait)
}

// cxTri is the complex triangular products and solves (solve), on the
// dense (k < 0) or band (k ≥ 0) a, or the packed ap.
func cxTri[T Element](op string, solve bool, ul blas.Uplo, tA blas.Transpose, diag blas.Diag, k int, a *Matrix[T], ap *Vector[T], x *Vector[T], wait []*Event) (*Event, error) {
	if a == nil && ap == nil {
		return nil, opErr(op, "%w", errNilOperand)
	}
	c, err := triStart(op, ul, tA, diag, k, a, ap, x, wait)
	if err != nil {
		return nil, err
	}
	if err := checkNoOverlap(op, x.layout(), matOrPacked(a, ap)); err != nil {
		c.Finish()
		return nil, err
	}
	n := x.n
	var dm devMat
	storage, kk := eng.L2Dense, n-1
	switch {
	case ap != nil:
		dm, storage = packedIn(c, ap), eng.L2Packed
	case k >= 0:
		dm, storage, kk = matIn(c, a), eng.L2Band, k
	default:
		dm = matIn(c, a)
	}
	d := eng.CxTri(storage, ul, tA, diag, n, kk, dm.ld)
	if solve {
		eng.CxSVOnDevice(c, d, dm.buf, x.st.buf, x.off, x.inc)
		return finishAsync(c)
	}
	if eng.TrmvInPlace(c, d.L2Mat) {
		zenq[T](func() {
			eng.CxMVOnDevice(c, d, dm.buf, n, float32(1), 0, x.st.buf, x.off, x.inc, 0, 0, x.st.buf, x.off, x.inc)
		}, func() {
			eng.CxMVOnDevice(c, d, dm.buf, n, float64(1), 0, x.st.buf, x.off, x.inc, 0, 0, x.st.buf, x.off, x.inc)
		})
		return finishAsync(c)
	}
	zenq[T](func() {
		eng.CxTrmvThroughScratch[float32](c, d, dm.buf, n, x.st.buf, x.off, x.inc)
	}, func() {
		eng.CxTrmvThroughScratch[float64](c, d, dm.buf, n, x.st.buf, x.off, x.inc)
	})
	return finishAsync(c)
}

// Ger enqueues A += alpha·x·yᵀ for an m×n A (for complex vectors gonum's
// Zgeru; Gerc conjugates y).
func Ger[T Element](alpha T, x, y *Vector[T], a *Matrix[T], wait ...*Event) (*Event, error) {
	switch al := any(alpha).(type) {
	case float32:
		return gerReal(al, asRealV[float32](x), asRealV[float32](y), asReal[float32](a), wait...)
	case float64:
		return gerReal(al, asRealV[float64](x), asRealV[float64](y), asReal[float64](a), wait...)
	}
	return cxGer("Ger", eng.ZrGeru, alpha, x, y, a, wait)
}

// Gerc enqueues A += alpha·x·yᴴ for an m×n complex A.
func Gerc[T complex64 | complex128](alpha T, x, y *Vector[T], a *Matrix[T], wait ...*Event) (*Event, error) {
	return cxGer("Gerc", eng.ZrGerc, alpha, x, y, a, wait)
}

func cxGer[T Element](op string, mode int, alpha T, x, y *Vector[T], a *Matrix[T], wait []*Event) (*Event, error) {
	if err := operands(op, x.storage(), y.storage(), a.storage()); err != nil {
		return nil, err
	}
	if x.n != a.rows || y.n != a.cols {
		return nil, shapeErr(op, "x %d, y %d, A %d×%d", x.n, y.n, a.rows, a.cols)
	}
	c, err := start[T](op, wait, a.st)
	if err != nil {
		return nil, err
	}
	return cxRank(c, mode, blas.Upper, alpha, x, y, a, nil)
}

// Her enqueues A += alpha·x·xᴴ on the ul triangle of the n×n Hermitian A
// (alpha real); the imaginary parts of A's diagonal are set to zero.
func Her[T complex64 | complex128](ul blas.Uplo, alpha float64, x *Vector[T], a *Matrix[T], wait ...*Event) (*Event, error) {
	c, err := herStart("Her", ul, x, nil, a, nil, wait)
	if err != nil {
		return nil, err
	}
	return cxRank(c, eng.ZrHer, ul, T(complex(alpha, 0)), x, nil, a, nil)
}

// Her2 enqueues A += alpha·x·yᴴ + conj(alpha)·y·xᴴ on the ul triangle of
// the n×n Hermitian A; the imaginary parts of A's diagonal are set to zero.
func Her2[T complex64 | complex128](ul blas.Uplo, alpha T, x, y *Vector[T], a *Matrix[T], wait ...*Event) (*Event, error) {
	if y == nil {
		return nil, opErr("Her2", "%w", errNilOperand)
	}
	c, err := herStart("Her2", ul, x, y, a, nil, wait)
	if err != nil {
		return nil, err
	}
	return cxRank(c, eng.ZrHer2, ul, alpha, x, y, a, nil)
}

// herStart validates a Hermitian rank update of the n×n a (or the packed
// ap) with x (and y).
func herStart[T Element](op string, ul blas.Uplo, x, y *Vector[T], a *Matrix[T], ap *Vector[T], wait []*Event) (*eng.Call, error) {
	sts := []*storage{x.storage()}
	if ap != nil {
		sts = append(sts, ap.storage())
	} else {
		sts = append(sts, a.storage())
	}
	if y != nil {
		sts = append(sts, y.storage())
	}
	if err := errors.Join(checkUplo(op, ul), operands(op, sts...)); err != nil {
		return nil, err
	}
	n := x.n
	if y != nil && y.n != n {
		return nil, shapeErr(op, "x %d, y %d", n, y.n)
	}
	if ap != nil {
		if err := checkPacked(op, ap, n); err != nil {
			return nil, err
		}
	} else if a.rows != n || a.cols != n {
		return nil, shapeErr(op, "x %d, A %d×%d", n, a.rows, a.cols)
	}
	return start[T](op, wait, sts...)
}

// cxRank enqueues the complex update mode (eng.Zr*) of a (or the packed
// ap) with x and y (nil: x), with gonum's arithmetic.
func cxRank[T Element](c *eng.Call, mode int, ul blas.Uplo, alpha T, x, y *Vector[T], a *Matrix[T], ap *Vector[T]) (*Event, error) {
	ins := []layout{x.layout()}
	if y != nil {
		ins = append(ins, y.layout())
	}
	if err := checkNoOverlap(c.Routine, matOrPacked(a, ap), ins...); err != nil {
		c.Finish()
		return nil, err
	}
	var dm devMat
	m, n := x.n, x.n
	if a != nil {
		dm = matIn(c, a)
		m, n = a.rows, a.cols
	} else {
		dm = packedIn(c, ap)
	}
	yb, offY, incY := x.st.buf, x.off, x.inc
	if y != nil {
		yb, offY, incY = y.st.buf, y.off, y.inc
	}
	upper := ul == blas.Upper
	cxScalars([]T{alpha}, func(p []float32) {
		eng.CxRankOnDevice(c, mode, upper, ap != nil, m, n, p[0], p[1], x.st.buf, x.off, x.inc, yb, offY, incY, dm.buf, dm.ld)
	}, func(p []float64) {
		eng.CxRankOnDevice(c, mode, upper, ap != nil, m, n, p[0], p[1], x.st.buf, x.off, x.inc, yb, offY, incY, dm.buf, dm.ld)
	})
	if a != nil {
		matOut(c, a, dm)
	} else {
		packedOut(c, ap, dm)
	}
	return finishAsync(c)
}

// Gbmv enqueues y = alpha·op(A)·x + beta·y for an m×n band matrix A with kL
// sub- and kU super-diagonals in gonum's band storage: a has at least
// min(m, n+kL) rows and exactly kL+kU+1 columns.
func Gbmv[T Element](tA blas.Transpose, m, n, kL, kU int, alpha T, a *Matrix[T], x *Vector[T], beta T, y *Vector[T], wait ...*Event) (*Event, error) {
	switch al := any(alpha).(type) {
	case float32:
		return gbmvReal(tA, m, n, kL, kU, al, asReal[float32](a), asRealV[float32](x), any(beta).(float32), asRealV[float32](y), wait...)
	case float64:
		return gbmvReal(tA, m, n, kL, kU, al, asReal[float64](a), asRealV[float64](x), any(beta).(float64), asRealV[float64](y), wait...)
	}
	const op = "Gbmv"
	if err := errors.Join(checkTrans(op, tA), operands(op, a.storage(), x.storage(), y.storage())); err != nil {
		return nil, err
	}
	if m <= 0 || n <= 0 || kL < 0 || kU < 0 || a.rows < min(m, n+kL) || a.cols != kL+kU+1 {
		return nil, shapeErr(op, "m %d, n %d, kL %d, kU %d, band storage %d×%d", m, n, kL, kU, a.rows, a.cols)
	}
	nout, nin := m, n
	if tA != blas.NoTrans {
		nout, nin = n, m
	}
	if x.n != nin || y.n != nout {
		return nil, shapeErr(op, "op(A) %d×%d, x %d, y %d", nout, nin, x.n, y.n)
	}
	c, err := start[T](op, wait, a.st)
	if err != nil {
		return nil, err
	}
	return cxMV(c, func(ld int) eng.CxMat { return eng.CxGeneral(eng.L2Band, tA, m, n, kL, kU, ld) }, a, nil, nout, alpha, x, beta, y)
}

// Hbmv enqueues y = alpha·A·x + beta·y for an n×n Hermitian band matrix
// with k off-diagonals, whose ul triangle is in gonum's band storage (a is
// n×(k+1)).
func Hbmv[T complex64 | complex128](ul blas.Uplo, k int, alpha T, a *Matrix[T], x *Vector[T], beta T, y *Vector[T], wait ...*Event) (*Event, error) {
	const op = "Hbmv"
	c, n, err := startBandMV(op, ul, k, a, x, y, wait)
	if err != nil {
		return nil, err
	}
	return cxMV(c, func(ld int) eng.CxMat { return eng.CxHerm(eng.L2Band, ul, n, k, ld) }, a, nil, n, alpha, x, beta, y)
}

// Hpmv enqueues y = alpha·A·x + beta·y for an n×n Hermitian matrix whose ul
// triangle is packed in ap (a contiguous vector of n(n+1)/2 elements).
func Hpmv[T complex64 | complex128](ul blas.Uplo, alpha T, ap *Vector[T], x *Vector[T], beta T, y *Vector[T], wait ...*Event) (*Event, error) {
	const op = "Hpmv"
	c, n, err := startPackedMV(op, ul, ap, x, y, wait)
	if err != nil {
		return nil, err
	}
	return cxMV(c, func(int) eng.CxMat { return eng.CxHerm(eng.L2Packed, ul, n, n-1, 0) }, nil, ap, n, alpha, x, beta, y)
}

// Tbmv enqueues x = op(A)·x for an n×n triangular band matrix with k
// off-diagonals in gonum's band storage (a is n×(k+1)).
func Tbmv[T Element](ul blas.Uplo, tA blas.Transpose, d blas.Diag, k int, a *Matrix[T], x *Vector[T], wait ...*Event) (*Event, error) {
	switch any(x).(type) {
	case *Vector[float32]:
		return tbmvReal(ul, tA, d, k, asReal[float32](a), asRealV[float32](x), wait...)
	case *Vector[float64]:
		return tbmvReal(ul, tA, d, k, asReal[float64](a), asRealV[float64](x), wait...)
	}
	if k < 0 {
		return nil, shapeErr("Tbmv", "k %d", k)
	}
	return cxTri("Tbmv", false, ul, tA, d, k, a, nil, x, wait)
}

// Tpmv enqueues x = op(A)·x for an n×n triangular matrix packed in ap.
func Tpmv[T Element](ul blas.Uplo, tA blas.Transpose, d blas.Diag, ap *Vector[T], x *Vector[T], wait ...*Event) (*Event, error) {
	switch any(x).(type) {
	case *Vector[float32]:
		return tpmvReal(ul, tA, d, asRealV[float32](ap), asRealV[float32](x), wait...)
	case *Vector[float64]:
		return tpmvReal(ul, tA, d, asRealV[float64](ap), asRealV[float64](x), wait...)
	}
	return cxTri("Tpmv", false, ul, tA, d, -1, nil, ap, x, wait)
}

// Tbsv enqueues the solve op(A)·x = b in place for an n×n triangular band
// matrix with k off-diagonals in gonum's band storage (a is n×(k+1)).
func Tbsv[T Element](ul blas.Uplo, tA blas.Transpose, d blas.Diag, k int, a *Matrix[T], x *Vector[T], wait ...*Event) (*Event, error) {
	switch any(x).(type) {
	case *Vector[float32]:
		return tbsvReal(ul, tA, d, k, asReal[float32](a), asRealV[float32](x), wait...)
	case *Vector[float64]:
		return tbsvReal(ul, tA, d, k, asReal[float64](a), asRealV[float64](x), wait...)
	}
	if k < 0 {
		return nil, shapeErr("Tbsv", "k %d", k)
	}
	return cxTri("Tbsv", true, ul, tA, d, k, a, nil, x, wait)
}

// Tpsv enqueues the solve op(A)·x = b in place for an n×n triangular
// matrix packed in ap.
func Tpsv[T Element](ul blas.Uplo, tA blas.Transpose, d blas.Diag, ap *Vector[T], x *Vector[T], wait ...*Event) (*Event, error) {
	switch any(x).(type) {
	case *Vector[float32]:
		return tpsvReal(ul, tA, d, asRealV[float32](ap), asRealV[float32](x), wait...)
	case *Vector[float64]:
		return tpsvReal(ul, tA, d, asRealV[float64](ap), asRealV[float64](x), wait...)
	}
	return cxTri("Tpsv", true, ul, tA, d, -1, nil, ap, x, wait)
}

// Hpr enqueues A += alpha·x·xᴴ on the Hermitian matrix whose ul triangle
// is packed in ap (alpha real); the imaginary parts of its diagonal are set
// to zero.
func Hpr[T complex64 | complex128](ul blas.Uplo, alpha float64, x *Vector[T], ap *Vector[T], wait ...*Event) (*Event, error) {
	if ap == nil {
		return nil, opErr("Hpr", "%w", errNilOperand)
	}
	c, err := herStart("Hpr", ul, x, nil, nil, ap, wait)
	if err != nil {
		return nil, err
	}
	return cxRank(c, eng.ZrHpr, ul, T(complex(alpha, 0)), x, nil, nil, ap)
}

// Hpr2 enqueues A += alpha·x·yᴴ + conj(alpha)·y·xᴴ on the Hermitian matrix
// whose ul triangle is packed in ap; the imaginary parts of its diagonal
// are set to zero.
func Hpr2[T complex64 | complex128](ul blas.Uplo, alpha T, x, y *Vector[T], ap *Vector[T], wait ...*Event) (*Event, error) {
	if ap == nil || y == nil {
		return nil, opErr("Hpr2", "%w", errNilOperand)
	}
	c, err := herStart("Hpr2", ul, x, y, nil, ap, wait)
	if err != nil {
		return nil, err
	}
	return cxRank(c, eng.ZrHer2, ul, alpha, x, y, nil, ap)
}
