package gemm

import "fmt"

// The thresholds of the choice. They are named so that the database's
// "selection" text, which states the rules for people reading the JSON,
// can be checked against the code (TestSelectionText).
const (
	// fillNum/fillDen of the compute units is a nearly full wave of
	// work-groups (FillsDevice).
	fillNum, fillDen = 7, 8
	// SkinnyMN: with min(m, n) at most this the "skinny" database entry
	// wins on GPUs and the tensor-core kernel is not used.
	SkinnyMN = 64
)

// Selection returns the text of the database's "selection" entries whose
// rules are numbers in the code: "skinny" whole, and for "gpu" and
// "tensor" the phrases that carry a number.
func Selection() (skinny string, phrases map[string][]string) {
	skinny = fmt.Sprintf("After the choice above: m == 1 or n == 1 -> the gemv kernels of gemm_skinny.cl; "+
		"when the chosen kernel's work-groups are fewer than %d/%d of the CUs and k > max(m,n), k >= %d -> "+
		"split-K into S = min(ceil(2*CUs/work-groups), k/%d, %d) slices (each a multiple of the K step, "+
		"at most %d MiB of scratch) reduced by gemm_splitk_reduce.",
		fillNum, fillDen, 2*SplitKMinK, SplitKMinK, SplitKMaxS, SplitKMaxMem>>20)
	phrases = map[string][]string{
		"gpu": {
			fmt.Sprintf("at least %d/%d of the compute-unit count", fillNum, fillDen),
			fmt.Sprintf("When min(m,n) <= %d prefer the 'skinny' entry", SkinnyMN),
		},
		"tensor": {fmt.Sprintf("when min(m,n) > %d", SkinnyMN)},
	}
	return skinny, phrases
}
