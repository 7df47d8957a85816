package hostlu

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/lapack/gonum"
)

// BenchmarkGetf2 times Getf2 and gonum's Dgetf2 on the same m×64 panels
// (LU's host panels on CPU devices are 64 wide).
func BenchmarkGetf2(b *testing.B) {
	for _, m := range []int{256, 1024, 4096} {
		n := 64
		rnd := rand.New(rand.NewPCG(1, 2))
		orig := make([]float64, m*n)
		for i := range orig {
			orig[i] = rnd.NormFloat64()
		}
		a := make([]float64, len(orig))
		ipiv := make([]int, n)
		for _, impl := range []struct {
			name string
			f    func()
		}{
			{"hostlu", func() { Getf2(m, n, a, n, ipiv) }},
			{"gonum", func() { gonum.Implementation{}.Dgetf2(m, n, a, n, ipiv) }},
		} {
			b.Run(fmt.Sprintf("%s/m=%d", impl.name, m), func(b *testing.B) {
				for range b.N {
					copy(a, orig)
					impl.f()
				}
			})
		}
	}
}
