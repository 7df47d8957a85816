package clblas

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/blas"

	eng "github.com/gocompute/opencl/internal/engine"
)

var zgemmSizes = flag.String("zgemm.sizes", "256", "BenchmarkZgemmMethod: comma-separated n (m = n = k)")

// BenchmarkZgemmMethod times resident Zgemm and Cgemm (NN, m = n = k) by
// the 4M and the 3M method on the same operands, in GFLOP/s counting
// 8·n³ real flops, and reports each one's error on a few sampled rows of C
// against a compensated float64 product of the same inputs, relative to
// the largest element of those rows, in units of the parts' roundoff. Two kinds of operands: parts
// uniform in [-½, ½) ("centred") and in [0, 1) ("positive", where the 3M
// method's sums cancel most).
//
//	go test -run XXX -bench ZgemmMethod ./blas -zgemm.sizes 1024,4096,8192
func BenchmarkZgemmMethod(b *testing.B) {
	impl, err := New(WithOffload(Always))
	if err != nil {
		b.Skipf("New: %v", err)
	}
	defer impl.Close()
	for _, f := range strings.Split(*zgemmSizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			b.Fatalf("bad -zgemm.sizes %q", *zgemmSizes)
		}
		for _, kind := range []string{"centred", "positive"} {
			b.Run(fmt.Sprintf("Zgemm/n=%d/%s", n, kind), func(b *testing.B) { zgemmMethods[complex128](b, impl, n, kind) })
			b.Run(fmt.Sprintf("Cgemm/n=%d/%s", n, kind), func(b *testing.B) { zgemmMethods[complex64](b, impl, n, kind) })
		}
	}
}

// zgemmMethods is one sub-benchmark of BenchmarkZgemmMethod.
func zgemmMethods[T complex64 | complex128](b *testing.B, impl *Implementation, n int, kind string) {
	rnd := rand.New(rand.NewPCG(5, uint64(n)))
	shift := 0.5
	if kind == "positive" {
		shift = 0
	}
	a, bb := zSample[T](rnd, n*n, shift), zSample[T](rnd, n*n, shift)
	da, err1 := NewMatrixFrom(impl, n, n, a)
	db, err2 := NewMatrixFrom(impl, n, n, bb)
	dc, err3 := NewMatrix[T](impl, n, n)
	if err1 != nil || err2 != nil || err3 != nil {
		b.Fatal(err1, err2, err3)
	}
	defer da.Release()
	defer db.Release()
	defer dc.Release()
	rows := []int{0, n / 3, n - 1}
	want := zRefRows(a, bb, n, rows)
	defer func() { impl.eng.ZMethod = eng.ZAuto }()
	for _, m := range []struct {
		name string
		m    eng.ZMethod
	}{{"4M", eng.Z4M}, {"3M", eng.Z3M}} {
		impl.eng.ZMethod = m.m
		run := func(reps int) float64 {
			t := time.Now()
			enqueueWait(b, reps, func() (*Event, error) { return Gemm(blas.NoTrans, blas.NoTrans, 1, da, db, 0, dc) })
			return time.Since(t).Seconds()
		}
		run(1) // kernel builds
		best := math.Inf(1)
		for range max(b.N, 3) {
			best = math.Min(best, run(1))
		}
		got := make([]T, n*n)
		if err := dc.Read(got); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(8*float64(n)*float64(n)*float64(n)/best/1e9, m.name+"-GFLOP/s")
		b.ReportMetric(zRowsErr(got, want, n, rows)/zEps[T](), m.name+"-err/eps")
	}
}

// zSample is n complex numbers with parts uniform in [-shift, 1-shift).
func zSample[T complex64 | complex128](rnd *rand.Rand, n int, shift float64) []T {
	s := make([]T, n)
	for i := range s {
		s[i] = T(complex(rnd.Float64()-shift, rnd.Float64()-shift))
	}
	return s
}

// zRefRows is rows of the product of the n×n a and b, each part summed
// with error-free products and compensated (Neumaier) sums in float64.
func zRefRows[T complex64 | complex128](a, b []T, n int, rows []int) [][]complex128 {
	out := make([][]complex128, len(rows))
	for r, i := range rows {
		out[r] = make([]complex128, n)
		for j := range n {
			var re, im neumaier
			for p := range n {
				x, y := complex128(a[i*n+p]), complex128(b[p*n+j])
				re.addProduct(real(x), real(y))
				re.addProduct(-imag(x), imag(y))
				im.addProduct(real(x), imag(y))
				im.addProduct(imag(x), real(y))
			}
			out[r][j] = complex(re.value(), im.value())
		}
	}
	return out
}

// neumaier is a compensated sum.
type neumaier struct{ s, c float64 }

func (z *neumaier) add(v float64) {
	t := z.s + v
	if math.Abs(z.s) >= math.Abs(v) {
		z.c += (z.s - t) + v
	} else {
		z.c += (v - t) + z.s
	}
	z.s = t
}

// addProduct adds x·y exactly rounded once (its error term added too).
func (z *neumaier) addProduct(x, y float64) {
	p := x * y
	z.add(p)
	z.add(math.FMA(x, y, -p))
}

func (z *neumaier) value() float64 { return z.s + z.c }

// zRowsErr is the largest |got − want| over the sampled rows relative to
// their largest |want|.
func zRowsErr[T complex64 | complex128](got []T, want [][]complex128, n int, rows []int) float64 {
	var e, big float64
	for r, i := range rows {
		for j := range n {
			w := want[r][j]
			e = math.Max(e, cmplxAbs(complex128(got[i*n+j])-w))
			big = math.Max(big, cmplxAbs(w))
		}
	}
	return e / big
}

func cmplxAbs(z complex128) float64 { return math.Hypot(real(z), imag(z)) }

// zEps is the unit roundoff of T's parts.
func zEps[T complex64 | complex128]() float64 {
	if _, ok := any(T(0)).(complex64); ok {
		return 0x1p-24
	}
	return 0x1p-53
}
