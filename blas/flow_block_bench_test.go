package clblas

import (
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/blas"
)

var (
	flowBlockSizes  = flag.String("flowbt.n", "2048,8192", "BenchmarkFlowBlockT: matrix orders, comma-separated")
	flowBlockWidths = flag.String("flowbt.widths", "256,512,1024", "BenchmarkFlowBlockT: block widths (Engine.FlowBlockT), comma-separated")
)

// BenchmarkFlowBlockT times the CPU devices' flow solves with op(A) = Aᵀ
// (complex: Aᴴ) in blocks of each width of -flowbt.widths
// (Engine.FlowBlockT), the widths alternating call by call so that a
// shared machine's drift falls on all; it reports each width's median
// time and the first width's median over each one's (above 1: faster than
// the first). TRSV takes the lower triangle, TPSV the upper packed one;
// x is put back before every call, outside the timing.
func BenchmarkFlowBlockT(b *testing.B) {
	impl := newTestImpl(b)
	e := impl.eng
	if !e.Prof.IsCPU() {
		b.Skipf("the flow solves are CPU devices'; %s is not one", e.Prof.Name)
	}
	defer func() { e.FlowBlockT = 0 }()
	widths, err := parseCounts(*flowBlockWidths)
	if err != nil {
		b.Fatalf("-flowbt.widths: %v", err)
	}
	ns, err := parseCounts(*flowBlockSizes)
	if err != nil {
		b.Fatalf("-flowbt.n: %v", err)
	}
	for _, n := range ns {
		flowBlockPrec[float32](b, impl, "S", n, widths)
		flowBlockPrec[complex64](b, impl, "C", n, widths)
		if e.Prof.FP64 {
			flowBlockPrec[float64](b, impl, "D", n, widths)
			flowBlockPrec[complex128](b, impl, "Z", n, widths)
		}
	}
}

// parseCounts reads a comma-separated list of positive integers.
func parseCounts(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.Atoi(f)
		if err != nil || v < 1 {
			return nil, fmt.Errorf("%q is not a positive integer", f)
		}
		out = append(out, v)
	}
	return out, nil
}

func flowBlockPrec[T Element](b *testing.B, impl *Implementation, prefix string, n int, widths []int) {
	rnd := rand.New(rand.NewPCG(1, 2))
	elem := func() T { return elemOf[T](rnd.Float64()/float64(n), rnd.Float64()/float64(n)) }
	host := make([]T, n*n)
	for i := range host {
		host[i] = elem()
	}
	packed := make([]T, n*(n+1)/2)
	for i := range packed {
		packed[i] = elem()
	}
	for i := range n {
		// Unit diagonals keep every solve's x of the order of b.
		host[i*n+i] = 1
		packed[i*n-i*(i-1)/2] = 1
	}
	a, err1 := NewMatrixFrom(impl, n, n, host)
	ap, err2 := NewVectorFrom(impl, packed)
	b0, err3 := NewVectorFrom(impl, host[:n])
	x, err4 := NewVectorFrom(impl, host[n:2*n])
	if err := errors.Join(err1, err2, err3, err4); err != nil {
		b.Fatal(err)
	}
	defer a.Release()
	defer ap.Release()
	defer b0.Release()
	defer x.Release()
	tA := blas.Trans
	if isComplexElem(T(0)) {
		tA = blas.ConjTrans
	}
	ops := []struct {
		name string
		call func() (*Event, error)
	}{
		{"TRSV", func() (*Event, error) { return Trsv(blas.Lower, tA, blas.NonUnit, a, x) }},
		{"TPSV", func() (*Event, error) { return Tpsv(blas.Upper, tA, blas.NonUnit, ap, x) }},
	}
	for _, op := range ops {
		b.Run(fmt.Sprintf("%s%s-%c/n=%d", prefix, op.name, tA, n), func(b *testing.B) {
			ms := make([][]float64, len(widths))
			for i := 0; i < b.N; i++ {
				for v, w := range widths {
					impl.eng.FlowBlockT = w
					ev, err := Copy(b0, x)
					if err == nil {
						err = ev.Wait()
					}
					t0 := time.Now()
					if err == nil {
						ev, err = op.call()
					}
					if err == nil {
						err = ev.Wait()
					}
					if err != nil {
						b.Fatal(err)
					}
					ms[v] = append(ms[v], float64(time.Since(t0).Microseconds())/1e3)
				}
			}
			first := median(ms[0])
			for v, w := range widths {
				m := median(ms[v])
				b.ReportMetric(m, fmt.Sprintf("w%d-ms", w))
				if v > 0 {
					b.ReportMetric(first/m, fmt.Sprintf("w%d/w%d", widths[0], w))
				}
			}
		})
	}
}

// elemOf is re as a T, or re + i·im for complex T.
func elemOf[T Element](re, im float64) T {
	var v any
	switch any(T(0)).(type) {
	case float32:
		v = float32(re)
	case float64:
		v = re
	case complex64:
		v = complex(float32(re), float32(im))
	default:
		v = complex(re, im)
	}
	return v.(T)
}
