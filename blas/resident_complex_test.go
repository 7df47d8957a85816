package clblas

import (
	"math/rand/v2"
	"testing"
)

// randC128 returns n complex128 values with parts in [-1, 1).
func randC128(rnd *rand.Rand, n int) []complex128 {
	x := make([]complex128, n)
	for i := range x {
		x[i] = complex(2*rnd.Float64()-1, 2*rnd.Float64()-1)
	}
	return x
}

// TestResidentComplexStorage round-trips complex matrices and vectors
// (with views, strides and increments) through device memory: a complex
// element must stay its two parts, in order, wherever it goes.
func TestResidentComplexStorage(t *testing.T) {
	t.Run("complex128", func(t *testing.T) { residentComplexStorage[complex128](t) })
	t.Run("complex64", func(t *testing.T) { residentComplexStorage[complex64](t) })
}

func residentComplexStorage[T complex64 | complex128](t *testing.T) {
	impl := newTestImpl(t)
	rnd := rand.New(rand.NewPCG(17, 3))
	const r, c = 5, 7
	data := make([]T, r*c)
	for i, v := range randC128(rnd, r*c) {
		data[i] = T(v)
	}
	m, err := NewMatrixFrom(impl, r, c, data)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Release()
	got := make([]T, r*c)
	if err := m.Read(got); err != nil {
		t.Fatal(err)
	}
	for i := range got {
		if got[i] != data[i] {
			t.Fatalf("matrix element %d: got %v, want %v", i, got[i], data[i])
		}
	}
	// A column is a strided vector view: Read gathers it on the device,
	// Write scatters into it.
	col, err := m.Col(3)
	if err != nil {
		t.Fatal(err)
	}
	cv := make([]T, r)
	if err := col.Read(cv); err != nil {
		t.Fatal(err)
	}
	for i := range cv {
		if cv[i] != data[i*c+3] {
			t.Fatalf("column element %d: got %v, want %v", i, cv[i], data[i*c+3])
		}
	}
	for i := range cv {
		cv[i] = T(complex(float64(i), -float64(i)-0.5))
		data[i*c+3] = cv[i]
	}
	ev, err := col.Write(cv)
	if err != nil {
		t.Fatal(err)
	}
	if err := ev.Wait(); err != nil {
		t.Fatal(err)
	}
	sub, err := m.View(1, 2, 3, 4)
	if err != nil {
		t.Fatal(err)
	}
	sg := make([]T, 12)
	if err := sub.Read(sg); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		for j := range 4 {
			if want := data[(1+i)*c+2+j]; sg[i*4+j] != want {
				t.Fatalf("view element (%d, %d): got %v, want %v", i, j, sg[i*4+j], want)
			}
		}
	}
	v, err := NewVector[T](impl, 4)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Release()
	vz := []T{1, 1, 1, 1}
	if err := v.Read(vz); err != nil {
		t.Fatal(err)
	}
	for i, x := range vz {
		if x != 0 {
			t.Fatalf("NewVector element %d = %v, want 0", i, x)
		}
	}
}
