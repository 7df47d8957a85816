package gemm

import "testing"

// TestMMASmall: on the H200, a C whose database tensor tile leaves more
// than half the compute units idle but whose small tile does not gets the
// small tensor-core tile (complex GEMM's 512×1024 real product, in both
// precisions); a C too small for either keeps the FMA kernel, a large one
// the database's tile; a device without room for the tile or without
// tensor cores never gets it.
func TestMMASmall(t *testing.T) {
	for _, prec := range []int{32, 64} {
		cfg := Choose(Builtin(), profH200, prec, 512, 1024, 1024, TensorAuto)
		if cfg.Kernel != KernelMMA || cfg.MMAMWG != 64 || cfg.MMANWG != 64 || cfg.WM != 32 || cfg.WN != 32 {
			t.Errorf("prec %d 512×1024×1024: %s %d×%d (warps %d×%d), want gemm_mma 64×64 (32×32)", prec, cfg.Kernel, cfg.MMAMWG, cfg.MMANWG, cfg.WM, cfg.WN)
		}
		if wg := cfg.WorkGroups(512, 1024); wg != 128 {
			t.Errorf("prec %d: %d work-groups, want 128", prec, wg)
		}
		if want := map[int]int{32: 2, 64: 0}[prec]; cfg.WarpsK != want {
			t.Errorf("prec %d: %d K groups of warps, want %d", prec, cfg.WarpsK, want)
		}
		large := Choose(Builtin(), profH200, prec, 4096, 4096, 4096, TensorAuto)
		if cfg.Stages != large.Stages || cfg.MMAKWG != large.MMAKWG || cfg.CPVec != large.CPVec || cfg.SplitRaw != large.SplitRaw {
			t.Errorf("prec %d: the small tile changed more than the tile", prec)
		}
		if cfg := Choose(Builtin(), profH200, prec, 512, 512, 512, TensorAuto); cfg.Kernel == KernelMMA {
			t.Errorf("prec %d 512³: %s %d×%d, want the FMA kernel", prec, cfg.Kernel, cfg.MMAMWG, cfg.MMANWG)
		}
		if cfg := Choose(Builtin(), profH200, prec, 4096, 4096, 4096, TensorAuto); cfg.Kernel != KernelMMA || cfg.MMAMWG != 128 {
			t.Errorf("prec %d 4096³: %s %d×%d, want the database's tensor tile", prec, cfg.Kernel, cfg.MMAMWG, cfg.MMANWG)
		}
		noTC := profH200
		noTC.ComputeCapability = [2]int{7, 5}
		if cfg := Choose(Builtin(), noTC, prec, 512, 1024, 1024, TensorAuto); cfg.Kernel == KernelMMA {
			t.Errorf("prec %d: gemm_mma without tensor cores", prec)
		}
		small := profH200
		small.LocalMemBytes = 8 << 10
		if _, ok := MMASmall(small, prec, MMADefaults(Base(prec, 8), prec)); ok {
			t.Errorf("prec %d: the small tile chosen with 8 KiB of local memory", prec)
		}
		base := MMADefaults(Base(prec, 8), prec)
		s, ok := MMASmall(profH200, prec, base)
		if !ok {
			t.Fatalf("prec %d: no small tile for the defaults", prec)
		}
		if _, ok := MMASmall(profH200, prec, s); ok {
			t.Errorf("prec %d: a tile smaller than the small one", prec)
		}
	}
}

// TestMMAExpand: on the H200 a float complex product whose real product
// makes at most 1.5 work-groups a compute unit on its choice (512: the
// small tile; 768: the database's tile) gets the expanding tile, 64×64
// with 64×32 warps in two K groups; a larger one (1024, 2048), a double
// one, and a device without tensor cores do not.
func TestMMAExpand(t *testing.T) {
	for _, n := range []int{512, 768} {
		cfg := Choose(Builtin(), profH200, 32, n, 2*n, 2*n, TensorAuto)
		x, ok := MMAExpand(profH200, 32, cfg, n, 2*n)
		if !ok || x.MMAMWG != 64 || x.MMANWG != 64 || x.WM != 64 || x.WN != 32 || x.WarpsK != 2 || x.MMAThreads() != 128 {
			t.Errorf("n = %d: %v %s, want the 64×64 tile of 64×32 warps in 2 K groups", n, ok, x.Name())
		}
		if x.MMAKWG != cfg.MMAKWG || x.Stages != cfg.Stages || !x.CPVec || x.SplitRaw != cfg.SplitRaw {
			t.Errorf("n = %d: the expanding tile changed more than the tile", n)
		}
	}
	for _, n := range []int{1024, 2048} {
		large := Choose(Builtin(), profH200, 32, n, 2*n, 2*n, TensorAuto)
		if _, ok := MMAExpand(profH200, 32, large, n, 2*n); ok {
			t.Errorf("n = %d: the expanding tile for a C of %d work-groups", n, large.WorkGroups(n, 2*n))
		}
	}
	double := Choose(Builtin(), profH200, 64, 512, 1024, 1024, TensorAuto)
	if _, ok := MMAExpand(profH200, 64, double, 512, 1024); ok {
		t.Error("double: the expanding tile")
	}
	noTC := profH200
	noTC.ComputeCapability = [2]int{7, 5}
	if _, ok := MMAExpand(noTC, 32, Choose(Builtin(), noTC, 32, 512, 1024, 1024, TensorAuto), 512, 1024); ok {
		t.Error("the expanding tile without tensor cores")
	}
}
