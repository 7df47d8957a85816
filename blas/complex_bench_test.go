package clblas

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
)

// BenchmarkComplexL12 times complex level 1 and 2 calls on Go slices
// under each offload policy: never (gonum), auto (what a user gets; it
// must stay within a few percent of never) and always (the device path,
// transfers included). SetBytes counts the operands' bytes, so MB/s
// compares like with like.
//
//	go test -run '^$' -bench BenchmarkComplexL12 -benchtime 20x ./blas
func BenchmarkComplexL12(b *testing.B) {
	newTestImpl(b) // skips without a device
	n1, n2 := 1<<20, 2048
	if testEngine(b).Prof.IsCPU() {
		n1, n2 = 1<<16, 512
	}
	rnd := rand.New(rand.NewPCG(1, 2))
	z := func(l int) []complex128 {
		v := make([]complex128, l)
		for i := range v {
			v[i] = complex(rnd.Float64(), rnd.Float64())
		}
		return v
	}
	x1, y1 := z(n1), z(n1)
	a, x, y := z(n2*n2), z(n2), z(n2)
	for i := range n2 {
		a[i*n2+i] += complex(float64(n2), 0)
	}
	a32, x32, y32 := make([]complex64, len(a)), make([]complex64, n2), make([]complex64, n2)
	for i := range a {
		a32[i] = complex64(a[i])
	}
	cases := []struct {
		name  string
		bytes int
		run   func(impl *Implementation)
	}{
		{fmt.Sprintf("Zaxpy/%d", n1), 48 * n1, func(impl *Implementation) { impl.Zaxpy(n1, 0.5i, x1, 1, y1, 1) }},
		{fmt.Sprintf("Zdotc/%d", n1), 32 * n1, func(impl *Implementation) { impl.Zdotc(n1, x1, 1, y1, 1) }},
		{fmt.Sprintf("Dznrm2/%d", n1), 16 * n1, func(impl *Implementation) { impl.Dznrm2(n1, x1, 1) }},
		{fmt.Sprintf("Zgemv-N/%d", n2), 16 * n2 * n2, func(impl *Implementation) {
			impl.Zgemv(blas.NoTrans, n2, n2, 1, a, n2, x, 1, 0.5, y, 1)
		}},
		{fmt.Sprintf("Zgemv-C/%d", n2), 16 * n2 * n2, func(impl *Implementation) {
			impl.Zgemv(blas.ConjTrans, n2, n2, 1, a, n2, x, 1, 0.5, y, 1)
		}},
		{fmt.Sprintf("Cgemv-N/%d", n2), 8 * n2 * n2, func(impl *Implementation) {
			impl.Cgemv(blas.NoTrans, n2, n2, 1, a32, n2, x32, 1, 0.5, y32, 1)
		}},
		{fmt.Sprintf("Zhemv/%d", n2), 8 * n2 * n2, func(impl *Implementation) {
			impl.Zhemv(blas.Upper, n2, 1, a, n2, x, 1, 0.5, y, 1)
		}},
		{fmt.Sprintf("Zher2/%d", n2), 16 * n2 * n2, func(impl *Implementation) {
			impl.Zher2(blas.Lower, n2, 1e-9, x, 1, y, 1, a, n2)
		}},
		{fmt.Sprintf("Ztrsv/%d", n2), 8 * n2 * n2, func(impl *Implementation) {
			copy(y, x)
			impl.Ztrsv(blas.Upper, blas.ConjTrans, blas.NonUnit, n2, a, n2, y, 1)
		}},
	}
	for _, p := range []Policy{Never, Auto, Always} {
		impl, err := New(WithOffload(p))
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { impl.Close() })
		for _, c := range cases {
			b.Run(c.name+"/"+p.String(), func(b *testing.B) {
				b.SetBytes(int64(c.bytes))
				c.run(impl) // warm: kernels built, pools filled
				b.ResetTimer()
				for range b.N {
					c.run(impl)
				}
			})
		}
	}
}
