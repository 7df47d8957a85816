package gemm

// The small tensor-core tile. gemm_mma's database tiles (128×64) cover a C
// of a few hundred rows in fewer work-groups than half a large GPU's
// compute units, and the choice then falls back to the FMA kernel, whose
// small tiles keep more of the device busy but run at its FMA rate. A
// shape like complex GEMM's m×2n×2k real product at m = n = 512
// (512×1024 on the H200's 132 units: 64 groups of 128×64) is such a case.
// A 64×64 tile of four 32×32 warp tiles makes four times as many groups
// with the same K step, stages and copies, so it fills the device where
// the large tile fills half of it or less.
//
// One work-group a compute unit then leaves each of its schedulers one
// warp, too few to hide the latency of the 3xTF32 sub-steps. In float the
// small tile therefore has two K groups of warps (WARPS_K): eight warps
// a group, each K tile's sub-steps shared between the groups, their sums
// added before C is written (BENCHMARKS.md, "Figures behind the code's
// choices").

// Small tensor-core tile sides, and its K groups in float.
const (
	mmaSmallWG     = 64
	mmaSmallWarp   = 32
	mmaSmallWarpsK = 2
)

// MMASmall returns cfg (a gemm_mma choice) with the small tile, and
// whether that tile is smaller than cfg's and valid on device p in every
// transpose combination.
func MMASmall(p Device, prec int, cfg Config) (Config, bool) {
	if cfg.MMAMWG <= mmaSmallWG && cfg.MMANWG <= mmaSmallWG {
		return Config{}, false
	}
	s := cfg
	s.MMAMWG, s.MMANWG = mmaSmallWG, mmaSmallWG
	s.WM, s.WN = min(cfg.WM, mmaSmallWarp), min(cfg.WN, mmaSmallWarp)
	if k := s; prec == 32 {
		k.WarpsK = mmaSmallWarpsK
		if validEveryTrans(p, prec, k) {
			s = k
		}
	}
	if !validEveryTrans(p, prec, s) {
		return Config{}, false
	}
	if p.LocalMemBytes > 0 && s.MMALocalBytes(prec) > p.LocalMemBytes {
		return Config{}, false
	}
	return s, true
}

// The tile for float complex products whose kernel expands the complex B
// itself (ZEXP_B): 64×64 work-groups of two 64×32 warps in two K groups.
// With the expansion it measured faster on the H200 than the small tile
// on a packed B at 512 and than the database's tile at 768, whose C makes
// a wave and a tenth of work-groups, but slower than that tile at 1024
// (two waves less eight groups); on a packed B it is slower than the
// small tile (BENCHMARKS.md, "Figures behind the code's choices").
const (
	mmaExpandWM     = 64
	mmaExpandWarpsK = 2
)

// MMAExpand returns the tile for a float complex GEMM's m×n real product
// (n = 2·the complex n) whose kernel expands the complex B, given the
// choice cfg for that product, and whether to use it: for precision 32,
// when cfg is gemm_mma with at most one and a half work-groups a compute
// unit, and the tile is valid on p.
func MMAExpand(p Device, prec int, cfg Config, m, n int) (Config, bool) {
	if prec != 32 || cfg.Kernel != KernelMMA || !cfg.CPVec || 2*cfg.WorkGroups(m, n) > 3*max(p.ComputeUnits, 1) {
		return Config{}, false
	}
	x := cfg
	x.MMAMWG, x.MMANWG = mmaSmallWG, mmaSmallWG
	x.WM, x.WN = mmaExpandWM, min(cfg.WN, mmaSmallWarp)
	x.WarpsK, x.PipeFrag = mmaExpandWarpsK, false
	if Valid(p, prec, false, false, x) != nil { // the expansion is NN only
		return Config{}, false
	}
	return x, true
}

// validEveryTrans reports whether cfg is valid on p in every transpose
// combination.
func validEveryTrans(p Device, prec int, cfg Config) bool {
	for _, ta := range []bool{false, true} {
		for _, tb := range []bool{false, true} {
			if Valid(p, prec, ta, tb, cfg) != nil {
				return false
			}
		}
	}
	return true
}
