package clblas

import (
	"errors"

	"gonum.org/v1/gonum/blas"

	eng "github.com/gocompute/opencl/internal/engine"
)

// The device-resident level 3 operations over every Element: the real
// ones run resident_level3.go's code, the complex ones the engine's
// complex routines (internal/engine/zlevel3.go), which take matrix offsets
// and so need no staged copies of views. Hemm, Herk and Her2k are for
// complex matrices only.

// Symm enqueues C = alpha·A·B + beta·C (side Left) or C = alpha·B·A +
// beta·C (Right) for a symmetric A of which the ul triangle is read.
func Symm[T Element](s blas.Side, ul blas.Uplo, alpha T, a, b *Matrix[T], beta T, c *Matrix[T], wait ...*Event) (*Event, error) {
	switch al := any(alpha).(type) {
	case float32:
		return symmReal(s, ul, al, asReal[float32](a), asReal[float32](b), any(beta).(float32), asReal[float32](c), wait...)
	case float64:
		return symmReal(s, ul, al, asReal[float64](a), asReal[float64](b), any(beta).(float64), asReal[float64](c), wait...)
	}
	return zsymm("Symm", false, s, ul, alpha, a, b, beta, c, wait)
}

// Hemm enqueues C = alpha·A·B + beta·C (side Left) or C = alpha·B·A +
// beta·C (Right) for a Hermitian A of which the ul triangle is read (the
// imaginary parts of its diagonal are taken as zero).
func Hemm[T complex64 | complex128](s blas.Side, ul blas.Uplo, alpha T, a, b *Matrix[T], beta T, c *Matrix[T], wait ...*Event) (*Event, error) {
	return zsymm("Hemm", true, s, ul, alpha, a, b, beta, c, wait)
}

// Syrk enqueues the ul triangle of C = alpha·A·Aᵀ + beta·C (NoTrans) or
// C = alpha·Aᵀ·A + beta·C (Trans; for real matrices ConjTrans too).
func Syrk[T Element](ul blas.Uplo, t blas.Transpose, alpha T, a *Matrix[T], beta T, c *Matrix[T], wait ...*Event) (*Event, error) {
	switch al := any(alpha).(type) {
	case float32:
		return syrkReal(ul, t, al, asReal[float32](a), any(beta).(float32), asReal[float32](c), wait...)
	case float64:
		return syrkReal(ul, t, al, asReal[float64](a), any(beta).(float64), asReal[float64](c), wait...)
	}
	return zrank("Syrk", false, ul, t, alpha, a, nil, beta, c, wait)
}

// Herk enqueues the ul triangle of C = alpha·A·Aᴴ + beta·C (NoTrans) or
// C = alpha·Aᴴ·A + beta·C (ConjTrans), alpha and beta real; C's diagonal
// comes out real.
func Herk[T complex64 | complex128](ul blas.Uplo, t blas.Transpose, alpha float64, a *Matrix[T], beta float64, c *Matrix[T], wait ...*Event) (*Event, error) {
	return zrank("Herk", true, ul, t, T(complex(alpha, 0)), a, nil, T(complex(beta, 0)), c, wait)
}

// Syr2k enqueues the ul triangle of C = alpha·(A·Bᵀ + B·Aᵀ) + beta·C
// (NoTrans) or C = alpha·(Aᵀ·B + Bᵀ·A) + beta·C.
func Syr2k[T Element](ul blas.Uplo, t blas.Transpose, alpha T, a, b *Matrix[T], beta T, c *Matrix[T], wait ...*Event) (*Event, error) {
	switch al := any(alpha).(type) {
	case float32:
		return syr2kReal(ul, t, al, asReal[float32](a), asReal[float32](b), any(beta).(float32), asReal[float32](c), wait...)
	case float64:
		return syr2kReal(ul, t, al, asReal[float64](a), asReal[float64](b), any(beta).(float64), asReal[float64](c), wait...)
	}
	return zrank("Syr2k", false, ul, t, alpha, a, b, beta, c, wait)
}

// Her2k enqueues the ul triangle of C = alpha·A·Bᴴ + conj(alpha)·B·Aᴴ +
// beta·C (NoTrans) or C = alpha·Aᴴ·B + conj(alpha)·Bᴴ·A + beta·C
// (ConjTrans), beta real; C's diagonal comes out real.
func Her2k[T complex64 | complex128](ul blas.Uplo, t blas.Transpose, alpha T, a, b *Matrix[T], beta float64, c *Matrix[T], wait ...*Event) (*Event, error) {
	return zrank("Her2k", true, ul, t, alpha, a, b, T(complex(beta, 0)), c, wait)
}

// Trmm enqueues B = alpha·op(A)·B (side Left) or B = alpha·B·op(A) for a
// triangular A; op(A) is A, Aᵀ or Aᴴ (ConjTrans, which for real matrices
// is Aᵀ).
func Trmm[T Element](s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, alpha T, a, b *Matrix[T], wait ...*Event) (*Event, error) {
	switch al := any(alpha).(type) {
	case float32:
		return trmmReal(s, ul, tA, d, al, asReal[float32](a), asReal[float32](b), wait...)
	case float64:
		return trmmReal(s, ul, tA, d, al, asReal[float64](a), asReal[float64](b), wait...)
	}
	return ztri("Trmm", false, s, ul, tA, d, alpha, a, b, wait)
}

// Trsm enqueues the solve op(A)·X = alpha·B (side Left) or X·op(A) =
// alpha·B for a triangular A; X overwrites B.
func Trsm[T Element](s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, alpha T, a, b *Matrix[T], wait ...*Event) (*Event, error) {
	switch al := any(alpha).(type) {
	case float32:
		return trsmReal(s, ul, tA, d, al, asReal[float32](a), asReal[float32](b), wait...)
	case float64:
		return trsmReal(s, ul, tA, d, al, asReal[float64](a), asReal[float64](b), wait...)
	}
	return ztri("Trsm", true, s, ul, tA, d, alpha, a, b, wait)
}

// asReal is m as the real matrix type R that T is (nil stays nil).
func asReal[R float32 | float64, T Element](m *Matrix[T]) *Matrix[R] {
	r, _ := any(m).(*Matrix[R])
	return r
}

// c128 is the complex v as a complex128.
func c128[T Element](v T) complex128 {
	switch x := any(v).(type) {
	case complex64:
		return complex128(x)
	case complex128:
		return x
	}
	panic("clblas: c128 of a real type")
}

// zm is m as a complex engine operand.
func zm[T Element](m *Matrix[T]) eng.ZMat { return eng.ZMatAt(m.st.buf, m.off, m.stride) }

// zenq runs f with T's part precision: single for complex64, double for
// complex128 (f32 or f64).
func zenq[T Element](f32, f64 func()) {
	if eng.PrecisionOf[T]() == 64 {
		f64()
		return
	}
	f32()
}

func zsymm[T Element](op string, herm bool, s blas.Side, ul blas.Uplo, alpha T, a, b *Matrix[T], beta T, c *Matrix[T], wait []*Event) (*Event, error) {
	if err := errors.Join(checkSide(op, s), checkUplo(op, ul), operands(op, a.storage(), b.storage(), c.storage())); err != nil {
		return nil, err
	}
	m, n := c.rows, c.cols
	ka := n
	if s == blas.Left {
		ka = m
	}
	if a.rows != ka || a.cols != ka || b.rows != m || b.cols != n {
		return nil, shapeErr(op, "A %d×%d, B %d×%d, C %d×%d", a.rows, a.cols, b.rows, b.cols, m, n)
	}
	if err := checkNoOverlap(op, c.layout(), a.layout(), b.layout()); err != nil {
		return nil, err
	}
	call, err := start[T](op, wait, a.st)
	if err != nil {
		return nil, err
	}
	left, upper, al, be := s == blas.Left, ul == blas.Upper, c128(alpha), c128(beta)
	zenq[T](func() {
		eng.ZsymmOnDevice[float32](call, left, upper, herm, m, n, al, be, zm(a), zm(b), zm(c))
	}, func() {
		eng.ZsymmOnDevice[float64](call, left, upper, herm, m, n, al, be, zm(a), zm(b), zm(c))
	})
	return finishAsync(call)
}

// zrank is the complex Syrk and Herk (b nil), Syr2k and Her2k (herm).
func zrank[T Element](op string, herm bool, ul blas.Uplo, t blas.Transpose, alpha T, a, b *Matrix[T], beta T, c *Matrix[T], wait []*Event) (*Event, error) {
	// Syrk and Syr2k take NoTrans or Trans, Herk and Her2k NoTrans or
	// ConjTrans.
	tErr := checkTrans(op, t)
	if tErr == nil && t != blas.NoTrans && (t == blas.ConjTrans) != herm {
		tErr = opErr(op, "transpose %c: %w", t, ErrInvalidArg)
	}
	sts := []*storage{a.storage(), c.storage()}
	if b != nil {
		sts = append(sts, b.storage())
	}
	if err := errors.Join(checkUplo(op, ul), tErr, operands(op, sts...)); err != nil {
		return nil, err
	}
	n, k, err := rankKShape(op, t, a, c)
	if err != nil {
		return nil, err
	}
	ins := []layout{a.layout()}
	if b != nil {
		if b.rows != a.rows || b.cols != a.cols {
			return nil, shapeErr(op, "A %d×%d, B %d×%d", a.rows, a.cols, b.rows, b.cols)
		}
		ins = append(ins, b.layout())
	}
	if err := checkNoOverlap(op, c.layout(), ins...); err != nil {
		return nil, err
	}
	call, err := start[T](op, wait, a.st)
	if err != nil {
		return nil, err
	}
	var bm *eng.ZMat
	if b != nil {
		z := zm(b)
		bm = &z
	}
	upper, al, be := ul == blas.Upper, c128(alpha), c128(beta)
	zenq[T](func() {
		eng.ZrankOnDevice[float32](call, upper, herm, t, n, k, al, be, zm(a), bm, zm(c))
	}, func() {
		eng.ZrankOnDevice[float64](call, upper, herm, t, n, k, al, be, zm(a), bm, zm(c))
	})
	return finishAsync(call)
}

// ztri is the complex Trmm and Trsm (solve).
func ztri[T Element](op string, solve bool, s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, alpha T, a, b *Matrix[T], wait []*Event) (*Event, error) {
	call, err := triMatStart(op, s, ul, tA, d, a, b, wait)
	if err != nil {
		return nil, err
	}
	left, upper, unit, al := s == blas.Left, ul == blas.Upper, d == blas.Unit, c128(alpha)
	m, n := b.rows, b.cols
	run := func(trmm func(), trsm func()) {
		if solve {
			trsm()
		} else {
			trmm()
		}
	}
	zenq[T](func() {
		run(func() { eng.ZtrmmOnDevice[float32](call, left, upper, unit, tA, m, n, al, zm(a), zm(b)) },
			func() {
				eng.ZtrsmOnDevice[float32](call, left, upper, unit, tA, m, n, al, zm(a), zm(b), eng.TrsmBlock(call.E))
			})
	}, func() {
		run(func() { eng.ZtrmmOnDevice[float64](call, left, upper, unit, tA, m, n, al, zm(a), zm(b)) },
			func() {
				eng.ZtrsmOnDevice[float64](call, left, upper, unit, tA, m, n, al, zm(a), zm(b), eng.TrsmBlock(call.E))
			})
	})
	return finishAsync(call)
}
