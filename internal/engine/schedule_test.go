package engine

import (
	"slices"
	"testing"
)

// TestSlabOrder: every panel and chunk is uploaded once, in order, B's
// first chunk first, and the share of B's rows uploaded never runs ahead
// of A's by more than one chunk (nor behind by more than one panel).
func TestSlabOrder(t *testing.T) {
	for _, c := range []struct{ hs, kns []int }{
		{[]int{512, 512, 512, 512}, []int{2048, 2048, 2048, 2048}},
		{[]int{1024, 1024, 1024, 512, 512}, []int{3000, 3000, 2192}},
		{[]int{100}, []int{7, 7, 7}},
		{[]int{30, 30, 30}, []int{12}},
	} {
		order := SlabOrder(c.hs, c.kns)
		if len(order) != len(c.hs)+len(c.kns) || order[0].A {
			t.Errorf("%v: order %v", c, order)
			continue
		}
		m, k := 0, 0
		for _, h := range c.hs {
			m += h
		}
		for _, kn := range c.kns {
			k += kn
		}
		ra, cb, ha, kb := 0, 0, 0, 0
		for _, st := range order {
			if st.A {
				if st.Idx != ra {
					t.Errorf("%v: panel %d after %d panels", c, st.Idx, ra)
				}
				// A runs ahead only while B's share is ahead of it.
				if cb < len(c.kns) && kb*m <= ha*k {
					t.Errorf("%v: panel %d while B's share %d/%d ≤ A's %d/%d", c, st.Idx, kb, k, ha, m)
				}
				ha += c.hs[ra]
				ra++
			} else {
				if st.Idx != cb {
					t.Errorf("%v: chunk %d after %d chunks", c, st.Idx, cb)
				}
				if ra < len(c.hs) && kb*m > ha*k {
					t.Errorf("%v: chunk %d while B's share %d/%d > A's %d/%d", c, st.Idx, kb, k, ha, m)
				}
				kb += c.kns[cb]
				cb++
			}
		}
	}
	// The chunks of k: as equal as can be, covering k once.
	for _, c := range [][2]int{{8192, 4}, {23, 3}, {2, 3}, {1, 1}, {4097, 2}} {
		cs := SlabChunks(c[0], c[1])
		at := 0
		for _, ch := range cs {
			if ch[0] != at || ch[1] <= 0 || ch[1] > (c[0]+c[1]-1)/c[1] {
				t.Errorf("SlabChunks(%d, %d) = %v", c[0], c[1], cs)
				break
			}
			at += ch[1]
		}
		if at != c[0] || len(cs) > c[1] {
			t.Errorf("SlabChunks(%d, %d) = %v", c[0], c[1], cs)
		}
	}
}

// TestPackUnpack checks the parallel packing and unpacking copies on
// blocks large enough to be split over several goroutines.
func TestPackUnpack(t *testing.T) {
	const rows, cols, ld = 1100, 1000, 1013
	src := make([]float64, rows*ld)
	for i := range src {
		src[i] = float64(i)
	}
	for _, blk := range [][4]int{{0, rows, 0, cols}, {5, 700, 13, 900}, {0, rows, 0, ld}} {
		r0, nr, c0, nc := blk[0], blk[1], blk[2], blk[3]
		if nc == ld {
			// Contiguous: the leading dimension is the block's width.
			dst := make([]float64, nr*nc)
			Pack(dst, src, ld, r0, nr, c0, nc)
			for i := range dst {
				if dst[i] != src[r0*ld+i] {
					t.Fatalf("contiguous pack: element %d = %v", i, dst[i])
				}
			}
			continue
		}
		dst := make([]float64, nr*nc)
		Pack(dst, src, ld, r0, nr, c0, nc)
		for r := range nr {
			for c := range nc {
				if dst[r*nc+c] != src[(r0+r)*ld+c0+c] {
					t.Fatalf("pack %v: element (%d, %d) = %v", blk, r, c, dst[r*nc+c])
				}
			}
		}
	}
	// unpackTiles inverts the staged layout of C.
	const m, n, ldc, nt = 1030, 1020, 1025, 300
	panels := [][2]int{{0, 256}, {256, 256}, {512, 300}, {812, 100}, {912, 118}}
	packed := make([]float64, m*n)
	for _, rr := range panels {
		r0, mi := rr[0], rr[1]
		for c0 := 0; c0 < n; c0 += nt {
			nj := min(nt, n-c0)
			for r := range mi {
				for c := range nj {
					packed[r0*n+mi*c0+r*nj+c] = float64((r0+r)*n + c0 + c)
				}
			}
		}
	}
	dst := make([]float64, (m-1)*ldc+n)
	for i := range dst {
		dst[i] = padSentinel
	}
	UnpackTiles(dst, packed, n, ldc, panels, nt)
	for i, v := range dst {
		r, c := i/ldc, i%ldc
		want := float64(r*n + c)
		if c >= n {
			want = padSentinel
		}
		if v != want {
			t.Fatalf("unpack: element (%d, %d) = %v, want %v", r, c, v, want)
		}
	}
}

// TestRowPanels: the panels cover the rows in order, none is taller than
// the tile, and with several panels the last is at most half a tile.
func TestRowPanels(t *testing.T) {
	for _, c := range [][2]int{{8192, 2048}, {4096, 1024}, {1000, 1000}, {1030, 256}, {5000, 2048}, {2100, 2048}, {4096, 4096}, {4352, 2048}} {
		m, mt := c[0], c[1]
		ps := RowPanels(m, mt)
		next := 0
		for _, p := range ps {
			if p[0] != next || p[1] <= 0 || p[1] > mt {
				t.Fatalf("RowPanels(%d, %d) = %v", m, mt, ps)
			}
			next += p[1]
		}
		if next != m {
			t.Fatalf("RowPanels(%d, %d) = %v: covers %d rows", m, mt, ps, next)
		}
		if last := ps[len(ps)-1][1]; len(ps) > 1 && mt >= 512 && last > max(256, mt/2/256*256) {
			t.Errorf("RowPanels(%d, %d) = %v: last panel %d rows", m, mt, ps, last)
		}
	}
	if got := RowPanels(8192, 2048); len(got) != 5 || got[3] != [2]int{6144, 1024} {
		t.Errorf("RowPanels(8192, 2048) = %v", got)
	}
}

// TestTileOrder: every tile is visited once; each tile comes after the
// visits that first use its row and column panels, panels are first used
// in the order A₀ B₀ A₁ B₁… while their sizes are equal, and each new panel
// is followed by every tile it completes.
func TestTileOrder(t *testing.T) {
	for _, c := range []struct{ hs, ws []int }{
		{[]int{2048, 2048, 2048, 1024, 1024}, []int{2048, 2048, 2048, 2048}},
		{[]int{5}, []int{1, 2, 3}},
		{[]int{1, 2, 3}, []int{5}},
		{[]int{256, 256, 256}, []int{256, 256, 256, 256, 256, 100}},
		{[]int{1}, []int{1}},
	} {
		order := TileOrder(c.hs, c.ws)
		seen := map[[2]int]bool{}
		ra, cb := 0, 0 // panels first used so far
		for _, ij := range order {
			i, j := ij[0], ij[1]
			if seen[ij] || i >= len(c.hs) || j >= len(c.ws) {
				t.Fatalf("%v×%v: order %v repeats or leaves the grid at %v", c.hs, c.ws, order, ij)
			}
			if (i == ra || j == cb) && len(seen) != ra*cb {
				t.Fatalf("%v×%v: order %v starts a panel at %v before finishing the tiles of the last", c.hs, c.ws, order, ij)
			}
			seen[ij] = true
			switch {
			case i == ra && j < cb: // a new A panel, with the B panels up
				ra++
			case j == cb && i < ra: // a new B panel
				cb++
			case i == ra && j == cb && ra == 0: // A₀ and B₀
				ra, cb = 1, 1
			case i < ra && j < cb:
			default:
				t.Fatalf("%v×%v: order %v visits %v before its panels' turn", c.hs, c.ws, order, ij)
			}
		}
		if len(order) != len(c.hs)*len(c.ws) {
			t.Fatalf("%v×%v: %d tiles visited", c.hs, c.ws, len(order))
		}
	}
	// DGEMM 8192 on the H200's tiles: A₀ B₀, then A₁, B₁, A₂, B₂, A₃, B₃,
	// A₄ in turn (the first tile to use each panel).
	got := TileOrder([]int{2048, 2048, 2048, 1024, 1024}, []int{2048, 2048, 2048, 2048})
	want := [][2]int{{0, 0}, {1, 0}, {0, 1}, {1, 1}, {2, 0}, {2, 1}, {0, 2}, {1, 2}, {2, 2},
		{3, 0}, {3, 1}, {3, 2}, {0, 3}, {1, 3}, {2, 3}, {3, 3}, {4, 0}, {4, 1}, {4, 2}, {4, 3}}
	if !slices.Equal(got, want) {
		t.Errorf("TileOrder for DGEMM 8192 = %v, want %v", got, want)
	}
}

// TestDeviceTimeline: the timeline of a pipelined call from its commands'
// spans: fill, drain and the idle times of the bus and of the kernels,
// with overlapping transfers counted once.
func TestDeviceTimeline(t *testing.T) {
	// Uploads 0–10 and 10–20, downloads 25–30 and 28–35 (overlapping
	// each other) and 40–45; kernels 12–22 and 22–38. Span 0–45: the bus
	// is idle 20–25 and 35–40, the kernels 0–12 and 38–45; the first
	// kernel starts at 12, the last upload ends at 20.
	ups := []Interval{{10, 20}, {0, 10}}
	kerns := []Interval{{12, 22}, {22, 38}}
	downs := []Interval{{25, 30}, {28, 35}, {40, 45}}
	got := DeviceTimeline(ups, kerns, downs)
	want := Timeline{Span: 45, Fill: 12, Drain: 25, BusIdle: 10, CompIdle: 19}
	if got != want {
		t.Errorf("DeviceTimeline = %+v, want %+v", got, want)
	}
	// No uploads (k = 0): the span starts at the first command.
	got = DeviceTimeline(nil, []Interval{{5, 9}}, []Interval{{9, 12}})
	want = Timeline{Span: 7, Fill: 0, Drain: 0, BusIdle: 4, CompIdle: 3}
	if got != want {
		t.Errorf("DeviceTimeline without uploads = %+v, want %+v", got, want)
	}
	if got := DeviceTimeline(nil, nil, nil); got != (Timeline{}) {
		t.Errorf("empty DeviceTimeline = %+v", got)
	}
}

// padSentinel fills the padding of a matrix, which copies must not touch.
const padSentinel = -12345.5
