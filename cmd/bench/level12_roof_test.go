package main

import (
	"bytes"
	"testing"

	"github.com/gocompute/opencl/cl"
)

// TestCopyRoofWritten: the copy roofline's buffers hold what it wrote
// into them before any copy (dst all 2), and a copy moves src's 1s; a
// roofline timed on buffers no command had written ran several times
// slow on PoCL.
func TestCopyRoofWritten(t *testing.T) {
	b := testBencher(t)
	c, err := newCopyRoof(b, 4*1000+2)
	if err != nil {
		t.Fatal(err)
	}
	defer c.release()
	if c.n != 1000 {
		t.Fatalf("n = %d for 4002 bytes, want 1000", c.n)
	}
	read := func(want float32, when string) {
		got := make([]float32, c.n)
		if _, err := cl.ReadBuffer(c.q, c.dst, true, 0, got); err != nil {
			t.Fatal(err)
		}
		for i, v := range got {
			if v != want {
				t.Fatalf("%s: dst[%d] = %v, want %v", when, i, v, want)
			}
		}
	}
	read(2, "before the copies")
	if err := c.run(3); err != nil {
		t.Fatal(err)
	}
	read(1, "after the copies")
}

// TestHostCopyPieces: the host's copy moves every byte, across cores and
// pieces, with a range that is no whole number of pieces.
func TestHostCopyPieces(t *testing.T) {
	h := newHostCopy(3*hostCopyPiece + 12345)
	h.workers = 2 // ranges of one and a half pieces
	if bytes.Equal(h.dst, h.src) {
		t.Fatal("dst equals src before the copy")
	}
	if err := h.run(1); err != nil {
		t.Fatal(err)
	}
	for i := range h.dst {
		if h.dst[i] != h.src[i] {
			t.Fatalf("dst[%d] = %d, src %d", i, h.dst[i], h.src[i])
		}
	}
}
