package engine

import "strings"

// The parts of a reduction, and the stream ceilings, for L1Bench (the
// measurements that tell a reduction's fixed cost from its streaming):
//
//	"dot:part"  the first pass alone (two-pass kernels whatever the
//	            shape), likewise nrm2, asum and iamax
//	"dot:read"  the whole reduction and the read of its result into a
//	            pinned result slot, as Dot's Scalar does
//	"read"      asum's first pass: a stream of loads with one add per
//	            element, the kernel ceiling of a pure read
//	"write"     scal with alpha = 0 on the copy's destination (x and y
//	            keep their values): a stream of stores of zeros, the
//	            kernel ceiling of a pure write
//
// Each moves the bytes of its routine (Bytes).

// l1BaseOp is the routine whose bytes op moves.
func l1BaseOp(op string) string {
	if base, _, ok := strings.Cut(op, ":"); ok {
		return base
	}
	return op
}

// enqueuePart enqueues op if it is one of the parts above (slots collects
// the result slots to free after the batch) and reports whether it was.
func (b *L1Bench[T]) enqueuePart(c *Call, op string, slots *[]*Slot) bool {
	n, x := b.n, b.x
	base, part, _ := strings.Cut(op, ":")
	switch {
	case op == "read":
		l1FirstPass[T](c, "asum_part", n, 1, 1, L1At(x, 0, 1)...)
	case op == "write":
		ScalOnDevice(c, n, T(0), b.cpDst, 0, 1)
	case part == "part":
		switch base {
		case "dot":
			l1FirstPass[T](c, "dot_part", n, 1, 1, append(L1At(x, 0, 1), L1At(b.y, 0, 1)...)...)
		case "nrm2":
			l1FirstPass[T](c, "nrm2_part", n, 3, 3, L1At(x, 0, 1)...)
		case "asum":
			l1FirstPass[T](c, "asum_part", n, 1, 1, L1At(x, 0, 1)...)
		case "iamax":
			iamaxFirstPass[T](c, "iamax_part", n, L1At(x, 0, 1)...)
		default:
			return false
		}
	case part == "read":
		b.enqueue(c, base)
		if s := ReadSlot[T](c, b.res, 1, int(b.Bytes(base))); s != nil {
			*slots = append(*slots, s)
		}
	default:
		return false
	}
	return true
}
