package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"

	clblas "github.com/gocompute/opencl/blas"
	"github.com/gocompute/opencl/platform"
)

// The -accuracy mode: SGEMM's relative Frobenius error against a float64
// reference, for the FMA kernel and the 3xTF32 tensor-core kernel (and
// gonum's float32 Go code), on inputs of several kinds.

// accuracyKinds are the input kinds -accuracy measures, in order.
var accuracyKinds = []string{"uniform", "scaled", "kscaled", "cancel"}

// accuracyGonumMax is the largest n at which gonum's float32 Sgemm is run
// (it is slow).
const accuracyGonumMax = 2048

// accRow is one line of the -accuracy table. The errors are
// ‖C − C₆₄‖_F / ‖C₆₄‖_F; gonum is NaN when it was not measured.
type accRow struct {
	n         int
	kind      string
	fma, tf32 float64
	gonum     float64
	sameBits  bool // the TensorTF32x3 result equals the TensorOff one bit for bit
}

// accuracyInputs returns the n×n float32 A and B of the given kind:
//
//   - uniform: entries uniform in [-1, 1];
//   - scaled: uniform entries times 2^e, e a uniform integer in [-20, 20]
//     drawn per row of A and per column of B (badly scaled outer
//     dimensions; power-of-two scales factor out of every product exactly);
//   - kscaled: the same scales drawn per column of A and per row of B, the
//     inner dimension, so each dot product adds terms spanning 2^±40;
//   - cancel: A uniform with its columns in equal pairs, B uniform with
//     1e4 added to even rows and subtracted from odd ones, so each dot
//     product adds terms of order 1e4 that cancel to a result of order 1.
func accuracyInputs(kind string, n int) (a, b []float32, err error) {
	rnd := rand.New(rand.NewPCG(uint64(n), uint64(len(kind))<<8|uint64(kind[0])))
	u := func() float32 { return float32(2*rnd.Float64() - 1) }
	scale := func() float32 { return float32(math.Ldexp(1, rnd.IntN(41)-20)) }
	a, b = make([]float32, n*n), make([]float32, n*n)
	for i := range a {
		a[i], b[i] = u(), u()
	}
	switch kind {
	case "uniform":
	case "scaled", "kscaled":
		sa, sb := make([]float32, n), make([]float32, n)
		for i := range sa {
			sa[i], sb[i] = scale(), scale()
		}
		for i := range n {
			for j := range n {
				if kind == "scaled" {
					a[i*n+j] *= sa[i] // row i of A
					b[i*n+j] *= sb[j] // column j of B
				} else {
					a[i*n+j] *= sa[j] // column j of A
					b[i*n+j] *= sb[i] // row i of B
				}
			}
		}
	case "cancel":
		for i := range n {
			for p := 1; p < n; p += 2 {
				a[i*n+p] = a[i*n+p-1]
			}
		}
		for p := range n {
			shift := float32(1e4)
			if p%2 == 1 {
				shift = -shift
			}
			if p == n-1 && n%2 == 1 {
				shift = 0 // the unpaired last row
			}
			for j := range n {
				b[p*n+j] += shift
			}
		}
	default:
		return nil, nil, fmt.Errorf("bench: unknown accuracy input kind %q", kind)
	}
	return a, b, nil
}

// deviceSgemm computes C = A·B (n×n) on impl's device with the
// device-resident API.
func deviceSgemm(impl *clblas.Implementation, n int, a, b []float32) ([]float32, error) {
	da, err := clblas.NewMatrixFrom(impl, n, n, a)
	if err != nil {
		return nil, err
	}
	defer da.Release()
	db, err := clblas.NewMatrixFrom(impl, n, n, b)
	if err != nil {
		return nil, err
	}
	defer db.Release()
	dc, err := clblas.NewMatrix[float32](impl, n, n)
	if err != nil {
		return nil, err
	}
	defer dc.Release()
	ev, err := clblas.Gemm(blas.NoTrans, blas.NoTrans, 1, da, db, 0, dc)
	if err != nil {
		return nil, err
	}
	if err := ev.Wait(); err != nil {
		return nil, err
	}
	c := make([]float32, n*n)
	if err := dc.Read(c); err != nil {
		return nil, err
	}
	return c, nil
}

// relErr is ‖c − ref‖_F / ‖ref‖_F.
func relErr(c []float32, ref []float64) float64 {
	var d2, r2 float64
	for i, v := range ref {
		d := float64(c[i]) - v
		d2 += d * d
		r2 += v * v
	}
	return math.Sqrt(d2 / r2)
}

// tensorNote says whether the device can run the tensor-core kernel at
// all (the package's rule: NVIDIA, compute capability ≥ 8.0).
func tensorNote(p platform.Profile) string {
	if p.Vendor == platform.VendorNVIDIA && p.ComputeCapability[0] >= 8 {
		return fmt.Sprintf("tensor cores: yes (NVIDIA CC %d.%d); TensorTF32x3 runs SGEMM as 3xTF32 when min(m, n) > 64 and its tiles fill half the device",
			p.ComputeCapability[0], p.ComputeCapability[1])
	}
	return "tensor cores: no (the tensor path is only on NVIDIA CC ≥ 8.0): TensorTF32x3 runs the FMA kernel, so both device columns are equal"
}

// runAccuracy measures SGEMM's accuracy for each n in sizes and each input
// kind, writes the table to w, and returns its rows.
func runAccuracy(w io.Writer, sizes []int, kinds []string) ([]accRow, error) {
	fma, err := clblas.New(clblas.WithOffload(clblas.Always), clblas.WithTensorCores(clblas.TensorOff))
	if err != nil {
		return nil, err
	}
	defer fma.Close()
	rt := fma.Runtime()
	if rt == nil {
		return nil, errors.New("bench: -accuracy needs an OpenCL device")
	}
	tf32, err := clblas.New(clblas.WithRuntime(rt), clblas.WithOffload(clblas.Always), clblas.WithTensorCores(clblas.TensorTF32x3))
	if err != nil {
		return nil, err
	}
	defer tf32.Close()

	fmt.Fprintf(w, "device: %s\n", fma.DeviceName())
	fmt.Fprintln(w, tensorNote(rt.Device().Profile()))
	fmt.Fprintln(w, "SGEMM C = A·B (NN, alpha 1, beta 0), error ‖C − C₆₄‖_F / ‖C₆₄‖_F; C₆₄: gonum Dgemm on the same float32 inputs")
	fmt.Fprintf(w, "FMA: WithTensorCores(TensorOff); 3xTF32: WithTensorCores(TensorTF32x3); gonum f32: gonum Sgemm (n ≤ %d)\n\n", accuracyGonumMax)
	fmt.Fprintf(w, "%-6s %-8s %10s %10s %10s %11s  %s\n", "n", "input", "FMA", "3xTF32", "gonum f32", "3xTF32/FMA", "3xTF32 bits")

	var rows []accRow
	for _, n := range sizes {
		for _, kind := range kinds {
			a, b, err := accuracyInputs(kind, n)
			if err != nil {
				return rows, err
			}
			a64, b64, ref := make([]float64, n*n), make([]float64, n*n), make([]float64, n*n)
			for i := range a {
				a64[i], b64[i] = float64(a[i]), float64(b[i])
			}
			gonum.Implementation{}.Dgemm(blas.NoTrans, blas.NoTrans, n, n, n, 1, a64, n, b64, n, 0, ref, n)

			cf, err := deviceSgemm(fma, n, a, b)
			if err != nil {
				return rows, fmt.Errorf("bench: FMA SGEMM n=%d: %w", n, err)
			}
			ct, err := deviceSgemm(tf32, n, a, b)
			if err != nil {
				return rows, fmt.Errorf("bench: 3xTF32 SGEMM n=%d: %w", n, err)
			}
			r := accRow{n: n, kind: kind, fma: relErr(cf, ref), tf32: relErr(ct, ref), gonum: math.NaN(), sameBits: true}
			for i := range cf {
				if math.Float32bits(cf[i]) != math.Float32bits(ct[i]) {
					r.sameBits = false
					break
				}
			}
			gn := "-"
			if n <= accuracyGonumMax {
				c := make([]float32, n*n)
				gonum.Implementation{}.Sgemm(blas.NoTrans, blas.NoTrans, n, n, n, 1, a, n, b, n, 0, c, n)
				r.gonum = relErr(c, ref)
				gn = fmt.Sprintf("%.2e", r.gonum)
			}
			bits := "differ (tensor path)"
			if r.sameBits {
				bits = "same as FMA"
			}
			fmt.Fprintf(w, "%-6d %-8s %10.2e %10.2e %10s %11.2f  %s\n", n, kind, r.fma, r.tf32, gn, r.tf32/r.fma, bits)
			rows = append(rows, r)
		}
	}
	return rows, nil
}

// accuracyMain is -accuracy: the table for the square sizes in the
// comma-separated list sizes, on standard output.
func accuracyMain(w io.Writer, sizes string) error {
	var ns []int
	for _, s := range split(sizes) {
		ns = append(ns, atoi(s))
	}
	_, err := runAccuracy(w, ns, accuracyKinds)
	return err
}
