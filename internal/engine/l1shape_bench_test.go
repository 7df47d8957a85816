package engine

import (
	"flag"
	"fmt"
	"testing"
)

var (
	l1BenchN = flag.Int("l1.n", 1<<22, "BenchmarkL1Shape: vector length")
	l1BenchM = flag.Int("l1.m", 2048, "BenchmarkL1Shape: GEMV's matrix order")
)

// BenchmarkL1Shape times each routine of L1Bench with the derived shape
// and with the tuning database's (L1ShapeFor), one after the other, in
// GB/s (the bytes a call must move over its time):
//
//	go test -run XXX -bench L1Shape -l1.n 4194304 ./internal/engine
func BenchmarkL1Shape(b *testing.B) {
	e := testEngine(b)
	for _, prec := range []int{32, 64} {
		if prec == 64 && !e.Prof.FP64 {
			continue
		}
		var bench interface {
			Run(string, int) error
			Bytes(string) float64
			Close() error
		}
		var err error
		if prec == 64 {
			bench, err = NewL1Bench[float64](e, *l1BenchN, *l1BenchM)
		} else {
			bench, err = NewL1Bench[float32](e, *l1BenchN, *l1BenchM)
		}
		if err != nil {
			b.Fatal(err)
		}
		shapes := map[string]L1Shape{"derived": L1ShapeDerived(e.Prof, prec), "database": L1ShapeFor(e.Prof, prec)}
		for _, op := range L1Ops {
			for _, name := range []string{"derived", "database"} {
				b.Run(fmt.Sprintf("f%d/%s/%s", prec, op, name), func(b *testing.B) {
					if err := e.SetL1Shape(prec, shapes[name]); err != nil {
						b.Fatal(err)
					}
					if err := bench.Run(op, 1); err != nil {
						b.Fatal(err)
					}
					b.ResetTimer()
					if err := bench.Run(op, b.N); err != nil {
						b.Fatal(err)
					}
					b.ReportMetric(bench.Bytes(op)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GB/s")
				})
			}
		}
		bench.Close()
		if err := e.SetL1Shape(prec, L1ShapeFor(e.Prof, prec)); err != nil {
			b.Fatal(err)
		}
	}
}
