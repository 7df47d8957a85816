package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/gocompute/opencl/internal/engine"
	"github.com/gocompute/opencl/internal/l12tuning"
	"github.com/gocompute/opencl/platform"
)

// The level 1 mode (-kernel level1, or level2: the same search): the
// launch shape of kernels/level1.cl, which GEMV shares, per precision.
//
// A shape has build switches (vector width, unroll, L1_BLOCK, L1_IDX32:
// each a program of its own) and launch sizes (work-group size, groups per
// compute unit of the reductions and of the element-wise kernels, or a
// grid covering the vector), which cost no build. The search:
//
//  1. builds, at the launch sizes of the shape in use (the database's
//     entry, else the derived shape): the switches that change a few
//     routines, one at a time, each kept if those routines gain (float
//     NRM2 summed in double, L1_NRM2_D; the lean NRM2, L1_LEAN_NRM2; the
//     lean IAMAX, L1_LEAN_IAMAX; one-pass reductions; a second pass of a
//     work-item per partial);
//     then blocked loads and 32-bit indices, then every vector width of
//     8 to 64 bytes with every unroll of 1, 2, 4, 8, nearest first; then
//     the switches on the best two of those;
//  2. sizes: for the best few builds, every work-group size of 64 to
//     1024 the device allows, and for each the best group count of the
//     reductions (and GEMV, which takes it) and, apart, of the
//     element-wise kernels (1 to 32 per compute unit, or covering).
//
// Each candidate is checked against gonum first (engine.CheckL1Shape;
// a wrong one is reported and dropped, and if it left the device unable
// to run a copy, the search goes on in a freshly opened engine) and then
// timed: the median of
// -runs batches of back-to-back resident calls, each batch long enough
// to time. A shape's score is the geometric mean, over the routines, of
// its rate over the rate of clEnqueueCopyBuffer moving the same bytes in
// the same run. -budget bounds the whole search: each precision has its
// share, of which the builds take about half; when time runs out the
// best shape so far is kept.

// l1Config is the mode's flags.
type l1Config struct {
	precs   []int
	n, m    int
	ops     []string
	runs    int
	budget  time.Duration
	verbose bool
	report  io.Writer
	// reopen, when set, opens a fresh engine on the device: after a
	// candidate that faulted the device (its context is lost then, and
	// every later command would fail), the search goes on in a new one.
	reopen func() (*engine.Engine, error)
}

// l1Bench is engine.L1Bench of either precision.
type l1Bench interface {
	Run(op string, batch int) error
	RunCopy(op string, batch int) error
	Bytes(op string) float64
	Close() error
}

// l1Tuner tunes one precision.
type l1Tuner struct {
	cfg      l1Config
	e        *engine.Engine
	prec     int
	bench    l1Bench
	check    func() error
	copyRate map[string]float64
	deadline time.Time
	tried    int
	opened   *[]*engine.Engine // engines opened after faults (tuneLevel1 closes them)
}

// l1Result is a timed shape: rates by routine, GB/s.
type l1Result struct {
	sh    engine.L1Shape
	rates map[string]float64
	score float64
}

// tuneLevel1 runs the search for each precision and returns the entries.
// Engines it opens after a fault (cfg.reopen) it closes; e is the
// caller's.
func tuneLevel1(e *engine.Engine, cfg l1Config) ([]l12tuning.Entry, error) {
	start := time.Now()
	var entries []l12tuning.Entry
	var opened []*engine.Engine
	defer func() {
		for _, o := range opened {
			o.Close()
		}
	}()
	for i, prec := range cfg.precs {
		if prec == 64 && !e.Prof.FP64 {
			fmt.Fprintf(cfg.report, "float64: %s has no fp64, skipped\n", e.Prof.Name)
			continue
		}
		share := 365 * 24 * time.Hour // no -budget
		if cfg.budget > 0 {
			// An overrun of the precisions before leaves at least a
			// quarter share.
			share = max((cfg.budget-time.Since(start))/time.Duration(len(cfg.precs)-i), cfg.budget/time.Duration(4*len(cfg.precs)))
		}
		t := &l1Tuner{cfg: cfg, prec: prec, copyRate: map[string]float64{}, deadline: time.Now().Add(share), opened: &opened}
		if err := t.use(e); err != nil {
			return nil, err
		}
		entry, err := t.tune(share)
		t.bench.Close()
		e = t.e
		if err != nil {
			return nil, err
		}
		entries = append(entries, entry)
	}
	return entries, nil
}

// use makes e the tuner's engine, with a bench of its precision on it.
func (t *l1Tuner) use(e *engine.Engine) error {
	t.e = e
	var err error
	if t.prec == 64 {
		t.bench, err = engine.NewL1Bench[float64](e, t.cfg.n, t.cfg.m)
		t.check = func() error { return engine.CheckL1Shape[float64](e) }
	} else {
		t.bench, err = engine.NewL1Bench[float32](e, t.cfg.n, t.cfg.m)
		t.check = func() error { return engine.CheckL1Shape[float32](e) }
	}
	return err
}

// recover is called after a candidate failed: if the device no longer
// runs a copy (a kernel fault loses the context on some drivers), it goes
// on in a fresh engine (cfg.reopen), and reports it.
func (t *l1Tuner) recover() error {
	if t.bench.RunCopy(t.cfg.ops[0], 1) == nil {
		return nil
	}
	if t.cfg.reopen == nil {
		return errors.New("the device failed after a candidate, and cannot be reopened")
	}
	t.bench.Close()
	e, err := t.cfg.reopen()
	if err != nil {
		return fmt.Errorf("reopening the device after a fault: %w", err)
	}
	*t.opened = append(*t.opened, e)
	fmt.Fprintf(t.cfg.report, "  the device faulted: the search goes on in a fresh context\n")
	return t.use(e)
}

// tune searches the shapes of one precision within share.
func (t *l1Tuner) tune(share time.Duration) (l12tuning.Entry, error) {
	p := t.e.Prof
	defer t.e.SetL1Shape(t.prec, engine.L1ShapeFor(p, t.prec))
	fmt.Fprintf(t.cfg.report, "float%d on %s: n = %d, GEMV order %d, routines %s, %v\n",
		t.prec, p.Name, t.cfg.n, t.cfg.m, strings.Join(t.cfg.ops, ","), share.Round(time.Second))
	for _, op := range t.cfg.ops {
		r, err := t.rate(op, true)
		if err != nil {
			return l12tuning.Entry{}, err
		}
		t.copyRate[op] = r
	}
	derived := engine.L1ShapeDerived(p, t.prec)
	current := engine.L1ShapeFor(p, t.prec)
	base, err := t.measure(derived, t.cfg.ops)
	if err != nil {
		return l12tuning.Entry{}, fmt.Errorf("the derived shape %+v: %w", derived, err)
	}
	t.show("derived", base)
	best, inUse := base, base
	if current != derived {
		if r, err := t.measure(current, t.cfg.ops); err == nil {
			t.show("database", r)
			best, inUse = better(best, r), r
		} else if err := t.recover(); err != nil {
			return l12tuning.Entry{}, err
		}
	}
	builds := t.searchBuilds(current, inUse, time.Now().Add(share/2))
	if len(builds) == 0 {
		builds = []l1Result{best}
	}
	for _, b := range builds {
		best = better(best, b)
	}
	for _, b := range builds[:min(3, len(builds))] {
		if r, ok := t.searchSizes(b.sh); ok {
			best = better(best, r)
		}
	}
	// The winner and the shape in use again, in turns, with the copy
	// re-timed: the medians decide between them (a noisy device can make
	// a shape win the search by chance) and are the figures the entry
	// keeps.
	for _, op := range t.cfg.ops {
		if r, err := t.rate(op, true); err == nil {
			t.copyRate[op] = r
		}
	}
	var rounds [2][]l1Result
	for range 3 {
		for i, sh := range []engine.L1Shape{best.sh, current} {
			r, err := t.measure(sh, t.cfg.ops)
			if err != nil {
				return l12tuning.Entry{}, err
			}
			rounds[i] = append(rounds[i], r)
		}
	}
	final, again := t.median(rounds[0]), t.median(rounds[1])
	t.show("in use, final", again)
	t.show("best, final", final)
	fmt.Fprintf(t.cfg.report, "  %d shapes tried\n", t.tried)
	if again.score > final.score {
		fmt.Fprintf(t.cfg.report, "  the shape in use wins the final rounds: its entry is written\n")
		final = again
	}
	return t.entry(final), nil
}

// median is the result with each routine's median rate of rs (all of one
// shape).
func (t *l1Tuner) median(rs []l1Result) l1Result {
	m := l1Result{sh: rs[0].sh, rates: map[string]float64{}}
	for op := range rs[0].rates {
		var v []float64
		for _, r := range rs {
			v = append(v, r.rates[op])
		}
		slices.Sort(v)
		m.rates[op] = v[len(v)/2]
	}
	m.score = t.score(m.rates, t.cfg.ops)
	return m
}

// better is the result with the higher score.
func better(a, b l1Result) l1Result {
	if b.score > a.score {
		return b
	}
	return a
}

// searchBuilds times the builds at the launch sizes of sh (measured as
// shRes) until deadline and returns the results, best first.
func (t *l1Tuner) searchBuilds(sh engine.L1Shape, shRes l1Result, deadline time.Time) []l1Result {
	type build struct {
		vec, unroll                                                int
		block, idx32, nrm2d, leanNrm2, leanIamax, onePass, finWide bool
	}
	key := func(c engine.L1Shape) build {
		return build{c.Vec, c.Unroll, c.Block, c.Idx32, c.Nrm2D, c.LeanNrm2, c.LeanIamax, c.OnePass, c.FinWide}
	}
	tried := map[build]bool{key(sh): true}
	var cands []engine.L1Shape
	add := func(c engine.L1Shape) {
		if !tried[key(c)] {
			tried[key(c)] = true
			cands = append(cands, c)
		}
	}
	switches := func(c engine.L1Shape) {
		for _, sw := range [][2]bool{{!c.Block, c.Idx32}, {c.Block, !c.Idx32}, {!c.Block, !c.Idx32}} {
			v := c
			v.Block, v.Idx32 = sw[0], sw[1]
			add(v)
		}
	}
	var out []l1Result
	// The switches that change a few routines alone are decided here, one
	// at a time, by those routines' rates; each holds for every build
	// after.
	reductions := []string{"dot", "nrm2", "asum", "iamax"}
	for _, sw := range []struct {
		name string
		flip func(*engine.L1Shape) bool
		ops  []string
	}{
		{"nrm2 summed in double", func(s *engine.L1Shape) bool { s.Nrm2D = !s.Nrm2D; return s.Nrm2D }, []string{"nrm2"}},
		{"lean nrm2", func(s *engine.L1Shape) bool { s.LeanNrm2 = !s.LeanNrm2; return s.LeanNrm2 }, []string{"nrm2"}},
		{"lean iamax", func(s *engine.L1Shape) bool { s.LeanIamax = !s.LeanIamax; return s.LeanIamax }, []string{"iamax"}},
		{"one-pass reductions", func(s *engine.L1Shape) bool { s.OnePass = !s.OnePass; return s.OnePass }, reductions},
		{"wide second pass", func(s *engine.L1Shape) bool { s.FinWide = !s.FinWide; return s.FinWide }, reductions},
	} {
		if sw.name == "nrm2 summed in double" && (t.prec != 32 || !t.e.Prof.FP64) {
			continue
		}
		v := sh
		on := sw.flip(&v)
		tried[key(v)] = true
		r := t.runAll([]engine.L1Shape{v}, deadline)
		out = append(out, r...)
		if len(r) == 1 && t.score(r[0].rates, sw.ops) > t.score(shRes.rates, sw.ops) {
			sh, shRes = v, r[0]
		} else {
			on = !on
		}
		fmt.Fprintf(t.cfg.report, "  %s: %v\n", sw.name, on)
	}
	switches(sh)
	es := t.prec / 8
	var grid []engine.L1Shape
	for _, bytes := range []int{8, 16, 32, 64} {
		for _, u := range []int{1, 2, 4, 8} {
			if v := bytes / es; v >= 1 && v <= 16 {
				c := sh
				c.Vec, c.Unroll = v, u
				grid = append(grid, c)
			}
		}
	}
	// Nearest sh first: the budget may end the list.
	dist := func(c engine.L1Shape) float64 {
		return math.Abs(math.Log2(float64(c.Vec)/float64(sh.Vec))) + math.Abs(math.Log2(float64(c.Unroll)/float64(sh.Unroll)))
	}
	sort.SliceStable(grid, func(i, j int) bool { return dist(grid[i]) < dist(grid[j]) })
	for _, c := range grid {
		add(c)
	}
	out = append(out, t.runAll(cands, deadline)...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].score > out[j].score })
	cands = nil
	for _, r := range out[:min(2, len(out))] {
		switches(r.sh)
	}
	out = append(out, t.runAll(cands, deadline)...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].score > out[j].score })
	return out
}

// runAll times each shape of cands on every routine until deadline.
func (t *l1Tuner) runAll(cands []engine.L1Shape, deadline time.Time) []l1Result {
	var out []l1Result
	for i, c := range cands {
		if time.Now().After(deadline) || time.Now().After(t.deadline) {
			fmt.Fprintf(t.cfg.report, "  budget: stopped after %d of %d shapes\n", i, len(cands))
			break
		}
		r, err := t.measure(c, t.cfg.ops)
		if err != nil {
			fmt.Fprintf(t.cfg.report, "  REJECTED %s: %v\n", shapeString(c), firstLine(err.Error()))
			if err := t.recover(); err != nil {
				fmt.Fprintf(t.cfg.report, "  %v\n", err)
				break
			}
			continue
		}
		if t.cfg.verbose {
			t.show("", r)
		}
		out = append(out, r)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].score > out[j].score })
	return out
}

// searchSizes times build sh at every work-group size with the group
// counts of each kind of routine chosen apart, and returns the best.
func (t *l1Tuner) searchSizes(sh engine.L1Shape) (l1Result, bool) {
	cu := max(t.e.Prof.ComputeUnits, 1)
	var red, ew []string
	for _, op := range t.cfg.ops {
		if engine.L1Reduction(op) || strings.HasPrefix(op, "gemv") {
			red = append(red, op)
		} else {
			ew = append(ew, op)
		}
	}
	perCU := []int{1, 2, 4, 8, 16, 32}
	var best l1Result
	found := false
	for _, local := range []int{64, 128, 256, 512, 1024} {
		if p := t.e.Prof.MaxWorkGroupSize; p > 0 && local > p {
			continue
		}
		s := sh
		s.Local = local
		// The reductions' groups (element-wise ones left to follow).
		var bestRed l1Result
		for _, g := range perCU {
			c := s
			c.Groups, c.EwGroups, c.Cover = g*cu, 0, false
			if r, ok := t.try(c, red); ok && r.score > bestRed.score {
				bestRed = r
			}
		}
		if bestRed.score == 0 {
			continue
		}
		s.Groups = bestRed.sh.Groups
		var bestEw l1Result
		for _, g := range append(perCU, 0) {
			c := s
			c.EwGroups, c.Cover = g*cu, g == 0
			if r, ok := t.try(c, ew); ok && r.score > bestEw.score {
				bestEw = r
			}
		}
		if bestEw.score == 0 {
			continue
		}
		r := l1Result{sh: bestEw.sh, rates: map[string]float64{}}
		for op, v := range bestRed.rates {
			r.rates[op] = v
		}
		for op, v := range bestEw.rates {
			r.rates[op] = v
		}
		r.score = t.score(r.rates, t.cfg.ops)
		if t.cfg.verbose {
			t.show(fmt.Sprintf("local %d", local), r)
		}
		if !found || r.score > best.score {
			best, found = r, true
		}
		if time.Now().After(t.deadline) {
			break
		}
	}
	return best, found
}

// try measures c on ops unless the budget is spent.
func (t *l1Tuner) try(c engine.L1Shape, ops []string) (l1Result, bool) {
	if len(ops) == 0 || time.Now().After(t.deadline) {
		return l1Result{}, false
	}
	r, err := t.measure(c, ops)
	if err != nil {
		fmt.Fprintf(t.cfg.report, "  REJECTED %s: %v\n", shapeString(c), firstLine(err.Error()))
		if err := t.recover(); err != nil {
			fmt.Fprintf(t.cfg.report, "  %v\n", err)
			t.deadline = time.Now() // nothing more can be timed
		}
		return l1Result{}, false
	}
	return r, true
}

// measure sets shape sh, checks it and times ops.
func (t *l1Tuner) measure(sh engine.L1Shape, ops []string) (l1Result, error) {
	t.tried++
	if err := t.e.SetL1Shape(t.prec, sh); err != nil {
		return l1Result{}, err
	}
	if err := t.check(); err != nil {
		return l1Result{}, err
	}
	r := l1Result{sh: sh, rates: map[string]float64{}}
	for _, op := range ops {
		v, err := t.rate(op, false)
		if err != nil {
			return l1Result{}, err
		}
		r.rates[op] = v
	}
	r.score = t.score(r.rates, ops)
	return r, nil
}

// score is the geometric mean of the rates of ops over the copy's.
func (t *l1Tuner) score(rates map[string]float64, ops []string) float64 {
	s, k := 0.0, 0
	for _, op := range ops {
		if v, ok := rates[op]; ok && v > 0 && t.copyRate[op] > 0 {
			s += math.Log(v / t.copyRate[op])
			k++
		}
	}
	if k == 0 {
		return 0
	}
	return math.Exp(s / float64(k))
}

// rate times op (or, with copy, the copy of op's bytes) in GB/s: a call
// to warm up, one to size the batches (at least 2 ms each), then the
// median of -runs batches.
func (t *l1Tuner) rate(op string, copy bool) (float64, error) {
	run := t.bench.Run
	if copy {
		run = t.bench.RunCopy
	}
	if err := run(op, 1); err != nil {
		return 0, err
	}
	t0 := time.Now()
	if err := run(op, 1); err != nil {
		return 0, err
	}
	one := time.Since(t0)
	batch := int(min(max(2*time.Millisecond/max(one, time.Microsecond), 1), 200))
	times := make([]float64, 0, t.cfg.runs)
	for range t.cfg.runs {
		t0 := time.Now()
		if err := run(op, batch); err != nil {
			return 0, err
		}
		times = append(times, time.Since(t0).Seconds()/float64(batch))
	}
	slices.Sort(times)
	return t.bench.Bytes(op) / times[len(times)/2] / 1e9, nil
}

// show prints a result: each routine's GB/s and its share of the copy's.
func (t *l1Tuner) show(label string, r l1Result) {
	var b strings.Builder
	fmt.Fprintf(&b, "  %-15s score %.3f %s:", label, r.score, shapeString(r.sh))
	for _, op := range t.cfg.ops {
		if v, ok := r.rates[op]; ok {
			fmt.Fprintf(&b, " %s %.0f (%.0f%%)", op, v, 100*v/t.copyRate[op])
		}
	}
	fmt.Fprintln(t.cfg.report, b.String())
}

func shapeString(s engine.L1Shape) string {
	g := fmt.Sprintf("ew groups %d", s.EwGroups)
	if s.Cover {
		g = "ew cover"
	}
	return fmt.Sprintf("[local %d vec %d unroll %d groups %d %s block %v idx32 %v nrm2d %v lean nrm2 %v lean iamax %v onepass %v finwide %v]",
		s.Local, s.Vec, s.Unroll, s.Groups, g, s.Block, s.Idx32, s.Nrm2D, s.LeanNrm2, s.LeanIamax, s.OnePass, s.FinWide)
}

// entry is the database entry of a measured shape.
func (t *l1Tuner) entry(r l1Result) l12tuning.Entry {
	cu := max(t.e.Prof.ComputeUnits, 1)
	s := r.sh
	e := l12tuning.Entry{Precision: t.prec, Local: s.Local, Vec: s.Vec, Unroll: s.Unroll,
		Groups: max(s.Groups/cu, 1), Cover: s.Cover, Block: s.Block, Idx32: s.Idx32, Nrm2D: s.Nrm2D && t.prec == 32,
		LeanNrm2: s.LeanNrm2, LeanIamax: s.LeanIamax, OnePass: s.OnePass, FinWide: s.FinWide, ReadApartMin: s.ReadApartMin, OneLaunchL2: s.OneLaunchL2, GBps: map[string]float64{},
		Note: fmt.Sprintf("cmd/tune -kernel level1, n = %d, GEMV order %d, median of %d batches; score %.3f of the copy", t.cfg.n, t.cfg.m, t.cfg.runs, r.score)}
	if !s.Cover && s.EwGroups != 0 {
		e.EwGroups = max(s.EwGroups/cu, 1)
	}
	for op, v := range r.rates {
		e.GBps[op] = math.Round(v*10) / 10
	}
	if c, ok := t.copyRate["axpy"]; ok {
		e.GBps["roofline"] = math.Round(c*10) / 10
	}
	return e
}

// level1Defaults are the level 1 mode's sizes for device p where the
// flags leave them 0.
func level1Defaults(p platform.Profile, n, m int) (int, int) {
	if n == 0 {
		n = 1 << 26
		if p.IsCPU() {
			n = 1 << 22
		}
	}
	if m == 0 {
		m = 8192
		if p.IsCPU() {
			m = 2048
		}
	}
	return n, max(m, 0)
}
