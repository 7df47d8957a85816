package multi

import (
	"math"
	"slices"
	"sync"
	"testing"
	"time"
)

// simDev is a simulated device: its true speed, and what the scheduler is
// told at the start.
type simDev struct {
	rate     float64       // true units per second
	overhead time.Duration // true fixed cost per tile
	est      Device        // the scheduler's starting estimate
	failAt   int           // fail during this tile (1-based; 0: never)
}

// simResult is one simulated call.
type simResult struct {
	end      time.Duration // when the last tile ended
	stats    []Stats
	tiles    []Tile // every tile finished, by any device
	leftover []Tile
	makespan time.Duration // the scheduler's prediction
}

// simulate runs one call of units units on devs under a simulated clock:
// each idle device asks TryNext; a taken tile ends after its true time.
func simulate(t *testing.T, units, align int, devs []simDev) simResult {
	t.Helper()
	var now time.Duration
	est := make([]Device, len(devs))
	for i, d := range devs {
		est[i] = d.est
	}
	s := New(units, align, est, func() time.Duration { return now })
	type running struct {
		tile  Tile
		start time.Duration
		end   time.Duration
	}
	run := make([]*running, len(devs))
	stopped := make([]bool, len(devs))
	taken := make([]int, len(devs))
	var res simResult
	for steps := 0; ; steps++ {
		if steps > 100000 {
			t.Fatal("the simulation does not end")
		}
		// Every idle device asks for work.
		for i := range devs {
			if run[i] != nil || stopped[i] {
				continue
			}
			tile, a := s.TryNext(i)
			switch a {
			case Take:
				if tile.Len() <= 0 {
					t.Fatalf("device %d took the empty tile %v", i, tile)
				}
				taken[i]++
				d := devs[i]
				run[i] = &running{tile: tile, start: now, end: now + d.overhead + seconds(float64(tile.Len())/d.rate)}
			case Stop:
				stopped[i] = true
			}
		}
		// Advance to the next tile end.
		next := -1
		for i, r := range run {
			if r != nil && (next < 0 || r.end < run[next].end) {
				next = i
			}
		}
		if next < 0 {
			break // nothing runs: every device stopped or waits for nothing
		}
		r := run[next]
		now = r.end
		run[next] = nil
		if devs[next].failAt == taken[next] {
			half := r.tile.Len() / 2
			s.Fail(next, r.tile, half)
			res.tiles = append(res.tiles, Tile{r.tile.Lo, r.tile.Lo + half})
			continue
		}
		s.Done(next, r.tile, r.end-r.start)
		res.tiles = append(res.tiles, r.tile)
		res.end = max(res.end, r.end)
	}
	for i := range devs {
		if !stopped[i] && devs[i].failAt == 0 {
			t.Fatalf("device %d neither stopped nor failed", i)
		}
	}
	res.stats = s.Stats()
	res.leftover = s.Leftover()
	res.makespan = s.Makespan()
	return res
}

// covered checks that tiles and leftover cover [0, units) exactly once.
func covered(t *testing.T, units int, parts ...[]Tile) {
	t.Helper()
	var all []Tile
	for _, p := range parts {
		all = append(all, p...)
	}
	slices.SortFunc(all, func(a, b Tile) int { return a.Lo - b.Lo })
	at := 0
	for _, x := range all {
		if x.Len() == 0 {
			continue
		}
		if x.Lo != at {
			t.Fatalf("tiles %v do not cover [0, %d) exactly once (gap or overlap at %d)", all, units, at)
		}
		at = x.Hi
	}
	if at != units {
		t.Fatalf("tiles %v end at %d, want %d", all, at, units)
	}
}

// dev is a simulated device whose estimate is exact.
func dev(rate float64, overhead time.Duration, minUnits int) simDev {
	return simDev{rate: rate, overhead: overhead, est: Device{Rate: rate, Overhead: overhead, MinUnits: minUnits, Measured: true}}
}

// misjudged is dev with a starting estimate of factor times its rate.
func misjudged(rate, factor float64, overhead time.Duration, minUnits int) simDev {
	d := dev(rate, overhead, minUnits)
	d.est.Rate = rate * factor
	d.est.Measured = false
	return d
}

func TestShares(t *testing.T) {
	const ms = time.Millisecond
	for _, tc := range []struct {
		name  string
		units int
		devs  []simDev
		// minShare and maxShare bound each device's share of the units.
		minShare, maxShare []float64
		// slack is how much later than the fastest device alone the call
		// may end (misjudged devices learn their rate from a first tile).
		slack float64
	}{
		{"equal", 8192, []simDev{dev(1000, ms, 64), dev(1000, ms, 64)}, []float64{0.4, 0.4}, []float64{0.6, 0.6}, 0},
		{"3:1", 8192, []simDev{dev(3000, ms, 64), dev(1000, ms, 64)}, []float64{0.65, 0.15}, []float64{0.85, 0.35}, 0},
		{"1:3, fastest second", 8192, []simDev{dev(1000, ms, 64), dev(3000, ms, 64)}, []float64{0.15, 0.65}, []float64{0.35, 0.85}, 0},
		{"100:1", 8192, []simDev{dev(100000, ms, 64), dev(1000, ms, 64)}, []float64{0.95, 0}, []float64{1, 0.05}, 0},
		{"slow with a large overhead takes nothing", 1024, []simDev{dev(10000, ms, 64), dev(5000, 500*ms, 64)}, []float64{1, 0}, []float64{1, 0}, 0},
		{"three devices", 9000, []simDev{dev(4000, ms, 8), dev(2000, ms, 8), dev(1000, ms, 8)}, []float64{0.45, 0.2, 0.05}, []float64{0.7, 0.4, 0.25}, 0},
		{"estimates 4× too fast on the slow one", 8192, []simDev{dev(4000, ms, 64), misjudged(1000, 4, ms, 64)}, []float64{0.6, 0.05}, []float64{0.95, 0.4}, 0.15},
		{"estimates 4× too slow on the fast one", 8192, []simDev{misjudged(4000, 0.25, ms, 64), dev(1000, ms, 64)}, []float64{0.6, 0.05}, []float64{0.95, 0.4}, 0.15},
		{"tiny", 3, []simDev{dev(1000, ms, 1), dev(1000, ms, 1)}, []float64{0, 0}, []float64{1, 1}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := simulate(t, tc.units, 8, tc.devs)
			covered(t, tc.units, res.tiles)
			if len(res.leftover) != 0 {
				t.Fatalf("leftover %v with no failure", res.leftover)
			}
			// The fastest device alone: the whole call as one tile.
			f := 0
			for i, d := range tc.devs {
				if d.rate > tc.devs[f].rate {
					f = i
				}
			}
			fd := tc.devs[f]
			alone := fd.overhead + seconds(float64(tc.units)/fd.rate)
			if float64(res.end) > float64(alone)*(1+tc.slack)+1 {
				t.Errorf("together end at %v, later than the fastest device alone (%v, slack %v)", res.end, alone, tc.slack)
			}
			if tc.slack == 0 && res.makespan > alone {
				t.Errorf("predicted end %v, later than the fastest device alone %v", res.makespan, alone)
			}
			for i, st := range res.stats {
				share := float64(st.Units) / float64(tc.units)
				if share < tc.minShare[i] || share > tc.maxShare[i] {
					t.Errorf("device %d (rate %v) did %d of %d units (%.2f), want a share in [%v, %v]; stats %+v",
						i, tc.devs[i].rate, st.Units, tc.units, share, tc.minShare[i], tc.maxShare[i], res.stats)
				}
			}
			t.Logf("end %v (alone %v), stats %+v", res.end, alone, res.stats)
		})
	}
}

func TestFailureHandsBack(t *testing.T) {
	const ms = time.Millisecond
	// The fast device fails half way through its tile: the slow one must finish
	// the rest, whatever the rule said before.
	devs := []simDev{dev(4000, ms, 64), dev(1000, ms, 64)}
	devs[0].failAt = 1
	res := simulate(t, 8192, 8, devs)
	covered(t, 8192, res.tiles, res.leftover)
	if len(res.leftover) != 0 {
		t.Errorf("leftover %v: the device that did not fail should have finished it", res.leftover)
	}
	if !res.stats[0].Failed || res.stats[1].Failed {
		t.Errorf("stats %+v, want device 0 failed and device 1 not", res.stats)
	}
	if res.stats[1].Units < 8192/2 {
		t.Errorf("the surviving device did %d units, want the bulk", res.stats[1].Units)
	}

	// Every device fails: what is left goes to the caller.
	devs = []simDev{dev(1000, ms, 64), dev(1000, ms, 64)}
	devs[0].failAt, devs[1].failAt = 1, 1
	res = simulate(t, 4096, 8, devs)
	covered(t, 4096, res.tiles, res.leftover)
	if len(res.leftover) == 0 {
		t.Error("no leftover after every device failed")
	}
}

// TestConcurrent runs real goroutines against Next, for the race detector
// and the waiting logic: every unit is done once, and each worker stops.
func TestConcurrent(t *testing.T) {
	const units = 5000
	s := New(units, 4, []Device{{Rate: 1e6, MinUnits: 16}, {Rate: 5e5, MinUnits: 16}, {Rate: 1e5, MinUnits: 16}}, nil)
	var mu sync.Mutex
	var done []Tile
	var wg sync.WaitGroup
	for d := 0; d < 3; d++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; ; n++ {
				tile, ok := s.Next(d)
				if !ok {
					return
				}
				if d == 1 && n == 1 {
					s.Fail(d, tile, 3)
					mu.Lock()
					done = append(done, Tile{tile.Lo, tile.Lo + 3})
					mu.Unlock()
					return
				}
				time.Sleep(time.Duration(tile.Len()) * time.Microsecond * time.Duration(d+1))
				s.Done(d, tile, time.Duration(tile.Len())*time.Microsecond*time.Duration(d+1))
				mu.Lock()
				done = append(done, tile)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	covered(t, units, done, s.Leftover())
	if l := s.Leftover(); len(l) != 0 {
		t.Errorf("leftover %v", l)
	}
}

func TestSecondsSaturates(t *testing.T) {
	if d := seconds(math.Inf(1)); d <= 0 {
		t.Errorf("seconds(+Inf) = %v", d)
	}
}
