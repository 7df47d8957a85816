package clblas

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/gocompute/opencl/internal/fuzzrand"
)

// The fuzz targets. FuzzDropIn calls one routine of blas.Float64 or
// blas.Float32 on the device (Always) with arguments drawn from the
// fuzzer's bytes: sizes 0–70, increments ±1..±3, padded leading
// dimensions, every enum value, α and β among 0, ±1, NaN, ±Inf and others,
// and data with NaN, ±Inf and zeros mixed in. The operands lie among
// canaries (canary_test.go), and the answers must be gonum's (float32 and
// float64 tolerances, NaN where gonum has NaN). FuzzResident does the same
// for the device-resident API (fuzz_resident_test.go).
//
// scripts/test.sh runs each target for a bounded time; the seed corpora
// are in testdata/fuzz, and every crasher found stays there.

// newFuzzRand draws a call's arguments from the fuzzer's bytes, a byte a
// draw (internal/fuzzrand).
func newFuzzRand(data []byte) *rand.Rand { return fuzzrand.New(data, 19) }

// fuzzCase is one method of blas.Float64 or blas.Float32 with its
// argument maker.
type fuzzCase struct {
	method string
	run    func(t *testing.T, impl, ref *Implementation, rnd *rand.Rand, specials bool)
}

func fuzzCaseOf[T canaryFloat](method string, args func(*canaryGen[T]) []any) fuzzCase {
	return fuzzCase{method: method, run: func(t *testing.T, impl, ref *Implementation, rnd *rand.Rand, specials bool) {
		t.Helper()
		g := &canaryGen[T]{rnd: rnd, specials: specials}
		a := args(g)
		canaryCall(t, impl, ref, method, a, g.ops, "fuzz "+method+shortArgs(a))
	}}
}

// fuzzCases lists every slice routine of both precisions, in a fixed order
// (the corpus refers to them by index).
func fuzzCases() []fuzzCase {
	var cs []fuzzCase
	for _, r := range canaryRoutines() {
		if r.a64 != nil {
			cs = append(cs, fuzzCaseOf(r.m64, r.a64))
		}
		if r.a32 != nil {
			cs = append(cs, fuzzCaseOf(r.m32, r.a32))
		}
	}
	return cs
}

var fuzzRef struct {
	once sync.Once
	impl *Implementation
	err  error
}

// fuzzReference is gonum's Go code behind the front end (with the guards
// for gonum v0.17.0's known faults), the reference of the fuzz targets.
func fuzzReference(t *testing.T) *Implementation {
	fuzzRef.once.Do(func() {
		fuzzRef.impl, fuzzRef.err = New(WithOffload(Never), withDevices(nil, nil, costModel{}))
	})
	if fuzzRef.err != nil {
		t.Fatal(fuzzRef.err)
	}
	return fuzzRef.impl
}

func FuzzDropIn(f *testing.F) {
	// The seeds, one per routine with finite data and one with specials,
	// are testdata/fuzz/FuzzDropIn/seed-NN-<routine>-*, NN being the
	// routine's index in fuzzCases.
	cases := fuzzCases()
	f.Fuzz(func(t *testing.T, routine uint8, specials bool, data []byte) {
		impl := newTestImpl(t)
		c := cases[int(routine)%len(cases)]
		c.run(t, impl, fuzzReference(t), newFuzzRand(data), specials)
	})
}

// TestFuzzSeedsNamed keeps the seed files' names true: seed-NN-<routine>-*
// must hold routine index NN, and every routine must have seeds.
func TestFuzzSeedsNamed(t *testing.T) {
	cases := fuzzCases()
	files, err := filepath.Glob(filepath.Join("testdata", "fuzz", "FuzzDropIn", "seed-*"))
	if err != nil {
		t.Fatal(err)
	}
	seeded := map[string]bool{}
	for _, f := range files {
		parts := strings.SplitN(filepath.Base(f), "-", 4)
		i, err := strconv.Atoi(parts[1])
		if err != nil || i >= len(cases) || cases[i].method != parts[2] {
			t.Errorf("%s: index %s does not name %s", f, parts[1], parts[2])
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if want := fmt.Sprintf("byte('\\x%02x')", i); !strings.Contains(string(b), want) {
			t.Errorf("%s does not hold %s", f, want)
		}
		seeded[parts[2]] = true
	}
	for _, c := range cases {
		if !seeded[c.method] {
			t.Errorf("no seed for %s", c.method)
		}
	}
}
