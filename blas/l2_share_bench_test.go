package clblas

import (
	"flag"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/blas"

	eng "github.com/gocompute/opencl/internal/engine"
)

// BenchmarkL2Variants measures DGEMV N and T and DGER from Go slices on
// the device through each variant of the stream in one run, beside A in a
// HostSlice (DMA alone) and gonum, in GB/s of A's n² elements (DGER moves
// them both ways and counts them once); host is the
// fraction of A's rows the host computed itself (Engine.L2Share,
// l2_share.go):
//
//   - stream: every row on the device (GOCL_L2_SHARE=off), GOMAXPROCS-1
//     copying goroutines, 1 MiB pieces;
//   - all-procs: GOMAXPROCS copying goroutines;
//   - piece=4M: 4 MiB pieces;
//   - share=k: the host computes rows from the bottom whenever a
//     goroutine has nothing to copy, k goroutines before copying
//     (GOCL_L2_SHARE=auto's default is share=GOMAXPROCS/4);
//   - write-only: staging memory the host only writes
//     (PinnedPool.WriteOnly).
//
// On a CPU device the stream is forced (as BenchmarkL2StreamCut).
//
//	go test -run XXX -bench L2Variants ./blas/
func BenchmarkL2Variants(b *testing.B) {
	impl := newTestImpl(b)
	e := impl.eng
	zc := e.ZeroCopy
	e.ZeroCopy = eng.ZeroCopyOff
	defer func(share int) { e.L2Piece, e.L2Workers, e.L2Share, e.ZeroCopy = 0, 0, share, zc }(e.L2Share)
	procs := runtime.GOMAXPROCS(0)
	type variant struct {
		name                  string
		piece, workers, share int
		hostSlice, gonumSide  bool
		writeOnly             bool
	}
	variants := []variant{
		{name: "stream"}, {name: "all-procs", workers: procs}, {name: "piece=4M", piece: 4 << 20},
		{name: "share=0", share: 1}, {name: "share=2", share: 3},
		{name: fmt.Sprintf("share=%d", procs/4), share: procs/4 + 1},
		{name: fmt.Sprintf("share=%d", procs/2), share: procs/2 + 1},
		{name: "write-only", writeOnly: true}, {name: "write-only+share=2", writeOnly: true, share: 3},
		{name: "hostslice", hostSlice: true}, {name: "gonum", gonumSide: true},
	}
	for _, n := range l2VariantSizes(b) {
		a, x, y := l2BenchOperands(n)
		hs, err := NewHostSlice[float64](impl, n*n)
		if err != nil {
			b.Fatal(err)
		}
		copy(hs.Data(), a)
		for _, op := range []string{"N", "T", "Ger"} {
			for _, v := range variants {
				if op == "Ger" && v.writeOnly {
					continue // GER reads its staging memory back
				}
				b.Run(fmt.Sprintf("%s/n=%d/%s", op, n, v.name), func(b *testing.B) {
					e.L2Piece, e.L2Workers, e.L2Share = v.piece, v.workers, v.share
					if v.writeOnly {
						// Fresh staging buffers for host writes only, for this
						// variant alone.
						e.Pinned.Drain()
						e.Pinned.WriteOnly.Store(true)
						defer func() {
							e.Pinned.WriteOnly.Store(false)
							e.Pinned.Drain()
						}()
					}
					var f blas.Float64 = impl
					src := a
					switch {
					case v.hostSlice:
						src = hs.Data()
					case v.gonumSide:
						f = gonumRef{}
					}
					call := func() {
						switch op {
						case "Ger":
							f.Dger(n, n, 1e-12, x, 1, y, 1, src, n)
						case "T":
							f.Dgemv(blas.Trans, n, n, 1, src, n, x, 1, 0, y, 1)
						default:
							f.Dgemv(blas.NoTrans, n, n, 1, src, n, x, 1, 0, y, 1)
						}
					}
					call()
					rows := e.L2HostRows.Load()
					benchL2(b, n, call)
					b.ReportMetric(float64(e.L2HostRows.Load()-rows)/float64(n*b.N), "host")
				})
			}
		}
		if err := hs.Release(); err != nil {
			b.Fatal(err)
		}
	}
}

var l2VariantN = flag.String("l2v.n", "1024,4096", "BenchmarkL2Variants: comma-separated orders n")

// l2VariantSizes are BenchmarkL2Variants' orders (-l2v.n).
func l2VariantSizes(b *testing.B) []int {
	var ns []int
	for _, f := range strings.Split(*l2VariantN, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			b.Fatalf("bad -l2v.n %q", *l2VariantN)
		}
		ns = append(ns, n)
	}
	return ns
}
