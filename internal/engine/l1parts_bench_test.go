package engine

import (
	"flag"
	"fmt"
	"strconv"
	"strings"
	"testing"
)

var (
	l1PartsSizes  = flag.String("l1.sizes", "4194304", "BenchmarkL1Parts: vector lengths, comma-separated")
	l1PartsOps    = flag.String("l1.ops", "asum:part,asum,asum:read,nrm2:part,nrm2,nrm2:read,iamax:part,iamax,iamax:read,dot:part,dot,dot:read,read,write,axpy,swap,cp:axpy", "BenchmarkL1Parts: routines and parts (l1bench_parts.go; cp:OP is the copy of OP's bytes)")
	l1PartsShapes = flag.String("l1.shapes", "db", "BenchmarkL1Parts: shapes, comma-separated: db or derived, then +key or +key=value changes (leannrm2, leaniamax, onepass, finwide, apart (apart=N: from N bytes of operands), nrm2d, block, idx32, cover: switches, -key turns one off; local, vec, unroll, groups and ew: per compute unit, ew=0 for a covering grid)")
	l1PartsPrecs  = flag.String("l1.precs", "32,64", "BenchmarkL1Parts: precisions")
)

// BenchmarkL1Parts times level 1 routines, the parts of the reductions
// and the stream ceilings (L1Bench's ops) in each precision, at each
// length and under each shape the flags list, in GB/s (the bytes of the
// routine over its time) and µs per call; back-to-back calls, as the
// tuner times them. Telling the fixed cost of a call from its streaming
// takes two lengths, e.g.
//
//	go test -run XXX -bench L1Parts ./internal/engine -args -l1.sizes 33554432,67108864 -l1.shapes db,db+onepass+finwide
func BenchmarkL1Parts(b *testing.B) {
	e := testEngine(b)
	for _, ps := range strings.Split(*l1PartsPrecs, ",") {
		prec, err := strconv.Atoi(ps)
		if err != nil || (prec != 32 && prec != 64) {
			b.Fatalf("-l1.precs: %q", ps)
		}
		if prec == 64 && !e.Prof.FP64 {
			continue
		}
		for _, ns := range strings.Split(*l1PartsSizes, ",") {
			n, err := strconv.Atoi(ns)
			if err != nil {
				b.Fatalf("-l1.sizes: %v", err)
			}
			var bench interface {
				Run(string, int) error
				RunCopy(string, int) error
				Bytes(string) float64
				Close() error
			}
			if prec == 64 {
				bench, err = NewL1Bench[float64](e, n, 0)
			} else {
				bench, err = NewL1Bench[float32](e, n, 0)
			}
			if err != nil {
				b.Fatal(err)
			}
			for _, spec := range strings.Split(*l1PartsShapes, ",") {
				sh, err := parseL1Shape(e, prec, spec)
				if err != nil {
					b.Fatal(err)
				}
				for _, op := range strings.Split(*l1PartsOps, ",") {
					run, label := bench.Run, op
					if cp, ok := strings.CutPrefix(op, "cp:"); ok {
						run, op, label = bench.RunCopy, cp, "copy-of-"+cp
					}
					if bench.Bytes(op) == 0 {
						b.Fatalf("-l1.ops: no routine %q", op)
					}
					name := fmt.Sprintf("f%d/n=%d/%s/%s", prec, n, spec, label)
					b.Run(name, func(b *testing.B) {
						if err := e.SetL1Shape(prec, sh); err != nil {
							b.Fatal(err)
						}
						if err := run(op, 2); err != nil {
							b.Fatal(err)
						}
						b.ResetTimer()
						if err := run(op, b.N); err != nil {
							b.Fatal(err)
						}
						sec := b.Elapsed().Seconds() / float64(b.N)
						b.ReportMetric(bench.Bytes(op)/sec/1e9, "GB/s")
						b.ReportMetric(sec*1e6, "µs/call")
					})
				}
			}
			bench.Close()
		}
		if err := e.SetL1Shape(prec, L1ShapeFor(e.Prof, prec)); err != nil {
			b.Fatal(err)
		}
	}
}

// parseL1Shape is the shape spec names (BenchmarkL1Parts's -l1.shapes).
func parseL1Shape(e *Engine, prec int, spec string) (L1Shape, error) {
	parts := strings.Split(spec, "+")
	var sh L1Shape
	switch parts[0] {
	case "db":
		sh = L1ShapeFor(e.Prof, prec)
	case "derived":
		sh = L1ShapeDerived(e.Prof, prec)
	default:
		return sh, fmt.Errorf("shape %q: want db or derived first", spec)
	}
	cu := max(e.Prof.ComputeUnits, 1)
	for _, kv := range parts[1:] {
		k, v, hasV := strings.Cut(kv, "=")
		on := true
		if k2, ok := strings.CutPrefix(k, "-"); ok {
			k, on = k2, false
		}
		num := 0
		if hasV {
			var err error
			if num, err = strconv.Atoi(v); err != nil {
				return sh, fmt.Errorf("shape %q: %q: %v", spec, kv, err)
			}
			on = num != 0
		}
		switch k {
		case "leannrm2":
			sh.LeanNrm2 = on
		case "leaniamax":
			sh.LeanIamax = on
		case "onepass":
			sh.OnePass = on
		case "finwide":
			sh.FinWide = on
		case "apart":
			// apart: every reduction's read; apart=N: from N bytes.
			sh.ReadApartMin = 0
			if on {
				sh.ReadApartMin = max(num, 1)
			}
		case "nrm2d":
			sh.Nrm2D = on
		case "block":
			sh.Block = on
		case "idx32":
			sh.Idx32 = on
		case "cover":
			sh.Cover = on
		case "local":
			sh.Local = num
		case "vec":
			sh.Vec = num
		case "unroll":
			sh.Unroll = num
		case "groups":
			sh.Groups = num * cu
		case "ew":
			sh.EwGroups, sh.Cover = num*cu, num == 0
		default:
			return sh, fmt.Errorf("shape %q: no key %q", spec, k)
		}
	}
	return sh, sh.Valid(e.Prof)
}
