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

// Small tensor-core tile sides.
const (
	mmaSmallWG   = 64
	mmaSmallWarp = 32
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
	for _, ta := range []bool{false, true} {
		for _, tb := range []bool{false, true} {
			if Valid(p, prec, ta, tb, s) != nil {
				return Config{}, false
			}
		}
	}
	if p.LocalMemBytes > 0 && s.MMALocalBytes(prec) > p.LocalMemBytes {
		return Config{}, false
	}
	return s, true
}
