package multi

import (
	"cmp"
	"math"
	"slices"
	"sync"
	"time"
)

// Device is what the scheduler is told about one device before the call.
type Device struct {
	// Rate is the estimated number of units per second (> 0).
	Rate float64
	// Overhead is the estimated fixed cost of one tile.
	Overhead time.Duration
	// MinUnits is the smallest tile worth sending (at least 1).
	MinUnits int
	// Measured says Rate was measured (an earlier call): the device then
	// takes its whole share at once instead of a first smaller tile.
	Measured bool
}

// Tile is the half-open range of units [Lo, Hi).
type Tile struct{ Lo, Hi int }

// Len is the number of units in t.
func (t Tile) Len() int { return t.Hi - t.Lo }

// Action is TryNext's answer.
type Action int

const (
	// Take: run the tile returned with it.
	Take Action = iota
	// Wait: nothing for this device now; ask again after another device
	// reports (a failure may hand work back, or another device's report
	// may change the prediction).
	Wait
	// Stop: nothing more for this device in this call.
	Stop
)

// Stats is what one device did in a call.
type Stats struct {
	Tiles, Units int
	Failed       bool
	// Rate is the final estimate of the device's units per second.
	Rate float64
	// Finish is the predicted end (on the scheduler's clock) of the last
	// tile the device took, as predicted when it took it; 0 if none.
	Finish time.Duration
}

// Scheduler hands out the units [0, units) of one call. Its methods are
// safe for concurrent use.
type Scheduler struct {
	mu       sync.Mutex
	cond     *sync.Cond
	units    int
	align    int
	next     int    // first unit not handed out yet
	back     []Tile // handed back by failed devices; handed out first
	inflight int
	devs     []devState
	now      func() time.Duration
	// makespan is the latest predicted end of any tile taken so far.
	makespan time.Duration
}

type devState struct {
	Device
	declined bool // the rule kept it from taking; out of the shares until a failure
	busy     bool
	until    time.Duration // predicted end of its current or last tile
	failed   bool
	tiles    int
	units    int
	finish   time.Duration
}

// New returns a scheduler for units units over devs. Tiles are multiples
// of align units (except the last one of the range). now is the clock
// (nil: time since New); tests pass a simulated one.
func New(units, align int, devs []Device, now func() time.Duration) *Scheduler {
	if now == nil {
		start := time.Now()
		now = func() time.Duration { return time.Since(start) }
	}
	s := &Scheduler{units: units, align: max(align, 1), now: now, devs: make([]devState, len(devs))}
	s.cond = sync.NewCond(&s.mu)
	for i, d := range devs {
		if !(d.Rate > 0) {
			d.Rate = math.SmallestNonzeroFloat64
		}
		d.MinUnits = max(d.MinUnits, 1)
		s.devs[i] = devState{Device: d}
	}
	return s
}

// seconds converts a number of seconds to a Duration.
func seconds(x float64) time.Duration {
	if x > float64(math.MaxInt64/2)/1e9 {
		return math.MaxInt64 / 2
	}
	return time.Duration(x * 1e9)
}

// remaining is the number of units not handed out.
func (s *Scheduler) remaining() int {
	r := s.units - s.next
	for _, t := range s.back {
		r += t.Len()
	}
	return r
}

// fastest is the device that is not failed with the highest rate, or -1.
func (s *Scheduler) fastest() int {
	f := -1
	for i := range s.devs {
		if !s.devs[i].failed && (f < 0 || s.devs[i].Rate > s.devs[f].Rate) {
			f = i
		}
	}
	return f
}

// aloneEnd is when device f would finish r units by itself, starting when
// its current tile ends.
func (s *Scheduler) aloneEnd(f, r int, now time.Duration) time.Duration {
	fs := &s.devs[f]
	start := now
	if fs.busy {
		start = max(now, fs.until)
	}
	return start + fs.Overhead + seconds(float64(r)/fs.Rate)
}

// start is when device i can begin a new tile's work: after its current
// tile and a tile's fixed cost.
func (s *Scheduler) start(i int, now time.Duration) time.Duration {
	st := now
	if s.devs[i].busy {
		st = max(now, s.devs[i].until)
	}
	return st + s.devs[i].Overhead
}

// unmeasuredDiscount is how much slower than its estimate a device not yet
// measured may turn out, as far as the fastest device's share assumes.
const unmeasuredDiscount = 4

// share is device d's part of r units when they are divided so that every
// device in play (not failed, not declined) ends at the same time, each
// starting when it is free (water filling).
func (s *Scheduler) share(d, r int, now time.Duration) float64 {
	type lane struct {
		start time.Duration
		rate  float64
	}
	var lanes []lane
	fastest := s.fastest() == d
	for i := range s.devs {
		if i == d || !s.devs[i].failed && !s.devs[i].declined {
			rate := s.devs[i].Rate
			if fastest && i != d && !s.devs[i].Measured {
				// The fastest device leaves the others only what they can
				// surely do: should they be slower than their estimate,
				// what they leave would cost it a second tile.
				rate /= unmeasuredDiscount
			}
			lanes = append(lanes, lane{s.start(i, now), rate})
		}
	}
	slices.SortFunc(lanes, func(a, b lane) int { return cmp.Compare(a.start, b.start) })
	// The common end T solves Σ max(0, T-start_i)·rate_i = r.
	var sumRate, sumRS float64
	T := 0.0
	for i, l := range lanes {
		sumRate += l.rate
		sumRS += l.rate * l.start.Seconds()
		T = (float64(r) + sumRS) / sumRate
		if i+1 == len(lanes) || T <= lanes[i+1].start.Seconds() {
			break
		}
	}
	return max(0, (T-s.start(d, now).Seconds())*s.devs[d].Rate)
}

// size is the tile device d asks for out of r remaining units: its share
// (see share), a quarter of it until its rate is measured and half of it
// for a device other than the fastest (so the end of the call balances),
// at least MinUnits, aligned; all of r when less than align would be left.
func (s *Scheduler) size(d, r int, now time.Duration, fastest bool) int {
	ds := &s.devs[d]
	sh := s.share(d, r, now)
	div := 1.0
	switch {
	case !ds.Measured:
		div = 4
	case !fastest:
		div = 2
	}
	n := int(math.Ceil(sh / div))
	n = min(max(n, ds.MinUnits), int(math.Ceil(sh)))
	n = max(n, 1)
	n = (n + s.align - 1) / s.align * s.align
	if r-n < s.align {
		n = r
	}
	return min(n, r)
}

// TryNext is Next without blocking: Take with the tile to run, or Wait or
// Stop.
func (s *Scheduler) TryNext(d int) (Tile, Action) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tryNext(d)
}

func (s *Scheduler) tryNext(d int) (Tile, Action) {
	ds := &s.devs[d]
	if ds.failed {
		return Tile{}, Stop
	}
	r := s.remaining()
	if r == 0 {
		if s.inflight > 0 {
			return Tile{}, Wait
		}
		return Tile{}, Stop
	}
	now := s.now()
	f := s.fastest()
	if f == d && s.othersEndFirst(d, r, now) {
		return Tile{}, Wait
	}
	n := s.size(d, r, now, f == d)
	if f != d {
		// The fastest device alone would end all r units at deadline; this
		// device takes only what it ends by then.
		budget := s.aloneEnd(f, r, now) - now - ds.Overhead
		lim := int(math.Floor(budget.Seconds() * ds.Rate))
		if lim < n {
			n = lim / s.align * s.align
			if n < min(ds.MinUnits, r) {
				ds.declined = true
				return Tile{}, Wait
			}
		}
	}
	t := s.cut(n)
	ds.declined = false
	ds.busy = true
	ds.until = now + ds.Overhead + seconds(float64(t.Len())/ds.Rate)
	ds.finish = ds.until
	ds.tiles++
	s.inflight++
	s.makespan = max(s.makespan, ds.until)
	return t, Take
}

// othersEndFirst reports whether a device other than d, measured and busy
// now, would finish all r units after its current tile before d would
// finish them starting now: d (the fastest) then waits for it rather than
// pay a tile's fixed cost for what is left. Only a busy device counts, so
// that its report wakes d again.
func (s *Scheduler) othersEndFirst(d, r int, now time.Duration) bool {
	mine := now + s.devs[d].Overhead + seconds(float64(r)/s.devs[d].Rate)
	for i := range s.devs {
		o := &s.devs[i]
		if i == d || o.failed || !o.busy || !o.Measured {
			continue
		}
		if s.start(i, now)+seconds(float64(r)/o.Rate) < mine {
			return true
		}
	}
	return false
}

// cut removes a tile of at most n units from what is left: from a handed
// back tile first, else from the untouched range.
func (s *Scheduler) cut(n int) Tile {
	if len(s.back) > 0 {
		t := s.back[0]
		if t.Len() <= n {
			s.back = s.back[1:]
			return t
		}
		s.back[0].Lo += n
		return Tile{t.Lo, t.Lo + n}
	}
	t := Tile{s.next, min(s.next+n, s.units)}
	s.next = t.Hi
	return t
}

// Next returns the next tile for device d, waiting while TryNext says
// Wait; ok is false when there is nothing more for d.
func (s *Scheduler) Next(d int) (t Tile, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for {
		t, a := s.tryNext(d)
		switch a {
		case Take:
			return t, true
		case Stop:
			return Tile{}, false
		}
		s.cond.Wait()
	}
}

// Done reports that device d finished t in elapsed; the device's rate
// becomes what it measured (averaged with the earlier measurements).
func (s *Scheduler) Done(d int, t Tile, elapsed time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ds := &s.devs[d]
	ds.busy = false
	ds.units += t.Len()
	s.inflight--
	// A tile whose time is mostly the fixed cost says little of the rate.
	work := elapsed - ds.Overhead
	if work > elapsed/4 && t.Len() > 0 {
		r := float64(t.Len()) / work.Seconds()
		if ds.Measured {
			r = (r + ds.Rate) / 2
		}
		ds.Rate = r
	}
	ds.Measured = true
	s.cond.Broadcast()
}

// Fail reports that device d failed on t after finishing its first done
// units; the rest goes back to be handed out again, and d takes no more.
func (s *Scheduler) Fail(d int, t Tile, done int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ds := &s.devs[d]
	ds.busy, ds.failed = false, true
	done = min(max(done, 0), t.Len())
	ds.units += done
	s.inflight--
	if done < t.Len() {
		s.back = append(s.back, Tile{t.Lo + done, t.Hi})
	}
	for i := range s.devs {
		s.devs[i].declined = false // the fastest may have changed
	}
	s.cond.Broadcast()
}

// Leftover returns the units no device finished; call it once every
// worker has stopped.
func (s *Scheduler) Leftover() []Tile {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := append([]Tile(nil), s.back...)
	if s.next < s.units {
		out = append(out, Tile{s.next, s.units})
	}
	return out
}

// Stats returns what each device did, in the order of New's devs.
func (s *Scheduler) Stats() []Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Stats, len(s.devs))
	for i, d := range s.devs {
		out[i] = Stats{Tiles: d.tiles, Units: d.units, Failed: d.failed, Rate: d.Rate, Finish: d.finish}
	}
	return out
}

// Makespan is the latest end the scheduler predicted for any tile it
// handed out.
func (s *Scheduler) Makespan() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.makespan
}
