package clblas

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// TestGeneralViewRoundTrip uploads a view of a gonum matrix (Stride >
// Cols) and reads it back into another view: exactly the view's elements
// arrive, and nothing around the destination view is touched.
func TestGeneralViewRoundTrip(t *testing.T) {
	impl := newTestImpl(t)
	big := mat.NewDense(4, 4, nil)
	for i := range 16 {
		big.Set(i/4, i%4, float64(i+1))
	}
	view := big.Slice(1, 3, 1, 3).(*mat.Dense) // [6 7; 10 11]
	// The case: the view's data without its stride once uploaded
	// [5 6 7 8]; its length is not rows·cols, so it is an error now.
	if _, err := NewMatrixFrom(impl, 2, 2, view.RawMatrix().Data); !errors.Is(err, ErrShape) {
		t.Fatalf("NewMatrixFrom with a view's data: err = %v, want ErrShape", err)
	}
	m, err := NewMatrixFromGeneral64(impl, view.RawMatrix())
	if err != nil {
		t.Fatal(err)
	}
	defer m.Release()
	packed := make([]float64, 4)
	if err := m.Read(packed); err != nil {
		t.Fatal(err)
	}
	if want := []float64{6, 7, 10, 11}; !slices.Equal(packed, want) {
		t.Fatalf("uploaded %v, want %v", packed, want)
	}
	dst := mat.NewDense(3, 5, nil)
	for i := range 3 {
		for j := range 5 {
			dst.Set(i, j, -1)
		}
	}
	into := dst.Slice(1, 3, 2, 4).(*mat.Dense)
	if err := ReadGeneral64(m, into.RawMatrix()); err != nil {
		t.Fatal(err)
	}
	want := []float64{
		-1, -1, -1, -1, -1,
		-1, -1, 6, 7, -1,
		-1, -1, 10, 11, -1,
	}
	if got := dst.RawMatrix().Data; !slices.Equal(got, want) {
		t.Fatalf("read back %v, want %v", got, want)
	}
	if !mat.Equal(into, view) {
		t.Fatalf("round trip: got %v, want %v", mat.Formatted(into), mat.Formatted(view))
	}
}

// TestGeneral32AndVectors covers the float32 constructors and strided
// vectors both ways, and WriteStrided.
func TestGeneral32AndVectors(t *testing.T) {
	impl := newTestImpl(t)
	a := blas32.General{Rows: 2, Cols: 3, Stride: 5, Data: []float32{1, 2, 3, 98, 99, 4, 5, 6}}
	m, err := NewMatrixFromGeneral32(impl, a)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Release()
	got := make([]float32, 6)
	if err := m.Read(got); err != nil {
		t.Fatal(err)
	}
	if want := []float32{1, 2, 3, 4, 5, 6}; !slices.Equal(got, want) {
		t.Fatalf("uploaded %v, want %v", got, want)
	}
	ev, err := m.WriteStrided([]float32{7, 8, 9, 0, 10, 11, 12}, 4)
	if err != nil {
		t.Fatal(err)
	}
	if err := ev.Wait(); err != nil {
		t.Fatal(err)
	}
	out := blas32.General{Rows: 2, Cols: 3, Stride: 4, Data: []float32{-1, -1, -1, -1, -1, -1, -1}}
	if err := ReadGeneral32(m, out); err != nil {
		t.Fatal(err)
	}
	if want := []float32{7, 8, 9, -1, 10, 11, 12}; !slices.Equal(out.Data, want) {
		t.Fatalf("read back %v, want %v", out.Data, want)
	}

	x := blas64.Vector{N: 3, Inc: 2, Data: []float64{1, -1, 2, -1, 3}}
	v, err := NewVectorFromBlas64(impl, x)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Release()
	y := blas64.Vector{N: 3, Inc: 3, Data: make([]float64, 7)}
	if err := ReadVector64(v, y); err != nil {
		t.Fatal(err)
	}
	if want := []float64{1, 0, 0, 2, 0, 0, 3}; !slices.Equal(y.Data, want) {
		t.Fatalf("vector read back %v, want %v", y.Data, want)
	}
	x32 := blas32.Vector{N: 2, Inc: 1, Data: []float32{5, 6}}
	v32, err := NewVectorFromBlas32(impl, x32)
	if err != nil {
		t.Fatal(err)
	}
	defer v32.Release()
	y32 := blas32.Vector{N: 2, Inc: 2, Data: []float32{0, 9, 0}}
	if err := ReadVector32(v32, y32); err != nil {
		t.Fatal(err)
	}
	if want := []float32{5, 9, 6}; !slices.Equal(y32.Data, want) {
		t.Fatalf("float32 vector read back %v, want %v", y32.Data, want)
	}
}

// TestGonumShapeErrors: wrong lengths, strides and increments are ErrShape
// errors, before anything reaches the device.
func TestGonumShapeErrors(t *testing.T) {
	impl := newTestImpl(t)
	m, err := NewMatrix[float64](impl, 2, 2)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Release()
	for name, f := range map[string]func() error{
		"NewMatrixFrom long":  func() error { _, err := NewMatrixFrom(impl, 2, 2, make([]float64, 5)); return err },
		"NewMatrixFrom short": func() error { _, err := NewMatrixFrom(impl, 2, 2, make([]float64, 3)); return err },
		"stride < cols": func() error {
			_, err := NewMatrixFromGeneral64(impl, blas64.General{Rows: 2, Cols: 3, Stride: 2, Data: make([]float64, 9)})
			return err
		},
		"data too short for stride": func() error {
			_, err := NewMatrixFromGeneral64(impl, blas64.General{Rows: 2, Cols: 2, Stride: 4, Data: make([]float64, 5)})
			return err
		},
		"read into other dims": func() error {
			return ReadGeneral64(m, blas64.General{Rows: 2, Cols: 3, Stride: 3, Data: make([]float64, 6)})
		},
		"read into short data": func() error { return m.ReadStrided(make([]float64, 4), 3) },
		"zero inc": func() error {
			_, err := NewVectorFromBlas64(impl, blas64.Vector{N: 2, Inc: 0, Data: make([]float64, 2)})
			return err
		},
		"negative inc": func() error {
			_, err := NewVectorFromBlas64(impl, blas64.Vector{N: 2, Inc: -1, Data: make([]float64, 2)})
			return err
		},
		"vector data short": func() error {
			_, err := NewVectorFromBlas64(impl, blas64.Vector{N: 3, Inc: 2, Data: make([]float64, 4)})
			return err
		},
	} {
		if err := f(); !errors.Is(err, ErrShape) {
			t.Errorf("%s: err = %v, want ErrShape", name, err)
		}
	}
}

// TestNrm2ToSqrtRecip checks the device-side norm against gonum's, with
// values that overflow a naive sum of squares, and the scalar ops.
func TestNrm2ToSqrtRecip(t *testing.T) {
	impl := newTestImpl(t)
	rnd := rand.New(rand.NewPCG(18, 2))
	for _, tc := range []struct {
		name  string
		scale float64
		n     int
	}{{"plain", 1, 1000}, {"huge", 1e300, 257}, {"tiny", 1e-300, 33}} {
		data := randF64(rnd, tc.n)
		floats.Scale(tc.scale, data)
		x, err := NewVectorFrom(impl, data)
		if err != nil {
			t.Fatal(err)
		}
		s, err := NewVector[float64](impl, 3)
		if err != nil {
			t.Fatal(err)
		}
		nrm, _ := s.View(0, 1, 1)
		root, _ := s.View(1, 1, 1)
		inv, _ := s.View(2, 1, 1)
		if _, err := Nrm2To(x, nrm); err != nil {
			t.Fatal(err)
		}
		if _, err := Sqrt(nrm, root); err != nil {
			t.Fatal(err)
		}
		if _, err := Recip(nrm, inv); err != nil {
			t.Fatal(err)
		}
		got := make([]float64, 3)
		if err := s.Read(got); err != nil {
			t.Fatal(err)
		}
		want := floats.Norm(data, 2)
		if math.IsInf(want, 0) || want == 0 {
			t.Fatalf("%s: reference norm %v", tc.name, want)
		}
		for i, w := range []float64{want, math.Sqrt(want), 1 / want} {
			if !closeRel(got[i], w, 1e-12) {
				t.Errorf("%s: scalar %d = %v, want %v", tc.name, i, got[i], w)
			}
		}
		x.Release()
		s.Release()
	}
}

// TestNrm2To32 checks the float32 norm for a vector whose squares
// overflow float32.
func TestNrm2To32(t *testing.T) {
	impl := newTestImpl(t)
	data := []float32{3e30, 4e30, 0, -12e30}
	x, err := NewVectorFrom(impl, data)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Release()
	res, err := NewVector[float32](impl, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Release()
	if _, err := Nrm2To(x, res); err != nil {
		t.Fatal(err)
	}
	got := make([]float32, 1)
	if err := res.Read(got); err != nil {
		t.Fatal(err)
	}
	if !closeRel(float64(got[0]), 13e30, 1e-6) {
		t.Fatalf("Nrm2To = %v, want 1.3e31", got[0])
	}
}

func closeRel(got, want, tol float64) bool {
	return math.Abs(got-want) <= tol*math.Abs(want)
}
