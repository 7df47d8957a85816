package main

import (
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"time"

	"gonum.org/v1/gonum/blas"

	clblas "github.com/gocompute/opencl/blas"
	"github.com/gocompute/opencl/platform"
)

// The -devices report: GEMM from Go slices on each device alone, then on
// all of them together (one Implementation over the devices, whose level 3
// calls are split into tiles of C), with each device's share of the rows
// (or columns) of C.
//
//	go run ./cmd/bench -devices all -sizes 4096,8192 -prec 64,32
//	GOCL_DEVICE=nvidia,cpu go run ./cmd/bench -devices env -sizes 8192
//	go run ./cmd/bench -devices gpu:* -sizes 16384 -prec 64 -pinned   # from HostSlices

// devicesMain runs the -devices report for the devices spec names
// (platform.SelectAll's grammar; "env" reads GOCL_DEVICE).
func devicesMain(w io.Writer, spec string, sizes []shape, precs []string, reps int, minTime time.Duration, pinned bool) error {
	var devs []*platform.Device
	var err error
	if spec == "env" {
		devs, err = platform.DefaultAll()
	} else {
		devs, err = platform.SelectAll(spec)
	}
	if err != nil {
		return err
	}
	from := "Go slices"
	if pinned {
		from = "HostSlices (pinned memory made on each Implementation)"
	}
	fmt.Fprintf(w, "date: %s, GEMM NN from %s\n", time.Now().UTC().Format("2006-01-02"), from)
	for i, d := range devs {
		fmt.Fprintf(w, "device %d: %s\n", i, d)
	}
	fmt.Fprintln(w)
	var impls []*clblas.Implementation
	defer func() {
		for _, impl := range impls {
			impl.Close()
		}
	}()
	for _, d := range devs {
		impl, err := clblas.New(clblas.WithDevices(d), clblas.WithOffload(clblas.Always))
		if err != nil {
			return err
		}
		impls = append(impls, impl)
	}
	together, err := clblas.New(clblas.WithDevices(devs...), clblas.WithOffload(clblas.Always))
	if err != nil {
		return err
	}
	impls = append(impls, together)

	fmt.Fprintf(w, "%-5s %-12s", "prec", "m×n×k")
	for i := range devs {
		fmt.Fprintf(w, " %12s", fmt.Sprintf("dev %d alone", i))
	}
	fmt.Fprintf(w, " %12s %8s  %s\n", "together", "vs best", "share of C per device (tiles)")
	for _, p := range precs {
		for _, s := range sizes {
			var line string
			switch p {
			case "64":
				line = devicesLine[float64](impls, s, reps, minTime, pinned)
			case "32":
				line = devicesLine[float32](impls, s, reps, minTime, pinned)
			default:
				return fmt.Errorf("bad precision %q", p)
			}
			fmt.Fprintf(w, "%-5s %-12v %s\n", p, s, line)
		}
	}
	return nil
}

// devicesLine times GEMM (NN, α = 1, β = 0) of shape s from Go slices on
// each Implementation of impls (the last is the one over every device) and
// formats the GFLOP/s, the ratio of together to the best alone, and each
// device's share of C in the together runs.
func devicesLine[T float32 | float64](impls []*clblas.Implementation, s shape, reps int, minTime time.Duration, pinned bool) string {
	rnd := rand.New(rand.NewPCG(8, 9))
	a0, b0, c0 := random[T](rnd, s.m*s.k), random[T](rnd, s.k*s.n), make([]T, s.m*s.n)
	flops := 2 * float64(s.m) * float64(s.n) * float64(s.k)
	bn := &bencher{reps: reps, minTime: minTime}
	var sb strings.Builder
	best := 0.0
	var rate float64
	together := impls[len(impls)-1]
	var before []clblas.DeviceStats
	for i, impl := range impls {
		a, b, c, release, err := operands(impl, pinned, a0, b0, c0)
		if err != nil {
			return fmt.Sprintf(" %v", err)
		}
		run := func(batch int) error {
			for range batch {
				gemmSlices(impl, blas.NoTrans, blas.NoTrans, s, a, s.k, b, s.n, c)
			}
			return nil
		}
		if impl == together {
			before = together.DeviceStats()
		}
		rate = bn.median(flops, run)
		release()
		if i < len(impls)-1 {
			best = max(best, rate)
			fmt.Fprintf(&sb, " %12s", gf(rate))
		}
	}
	ratio := "-"
	if best > 0 {
		ratio = fmt.Sprintf("%.2fx", rate/best)
	}
	fmt.Fprintf(&sb, " %12s %8s ", gf(rate), ratio)
	after := together.DeviceStats()
	var units int64
	for i := range after {
		units += after[i].Units - before[i].Units
	}
	for i := range after {
		du, dt := after[i].Units-before[i].Units, after[i].Tiles-before[i].Tiles
		share := 0.0
		if units > 0 {
			share = 100 * float64(du) / float64(units)
		}
		fmt.Fprintf(&sb, " dev %d %.1f%% (%d)", i, share, dt)
		if f := after[i].Failed - before[i].Failed; f > 0 {
			fmt.Fprintf(&sb, " FAILED %d", f)
		}
	}
	if units == 0 {
		sb.WriteString(" (not split: on the primary alone)")
	}
	return sb.String()
}

// operands returns a, b and c themselves, or with pinned copies of them in
// HostSlices made on impl, and what releases those.
func operands[T float32 | float64](impl *clblas.Implementation, pinned bool, a, b, c []T) ([]T, []T, []T, func(), error) {
	if !pinned {
		return a, b, c, func() {}, nil
	}
	var hs []*clblas.HostSlice[T]
	release := func() {
		for _, h := range hs {
			h.Release()
		}
	}
	out := make([][]T, 3)
	for i, x := range [][]T{a, b, c} {
		h, err := clblas.NewHostSlice[T](impl, len(x))
		if err != nil {
			release()
			return nil, nil, nil, nil, err
		}
		hs = append(hs, h)
		out[i] = h.Data()
		copy(out[i], x)
	}
	return out[0], out[1], out[2], release, nil
}
