package cllapack

import (
	"fmt"
	"sort"
	"sync"
	"time"

	"gonum.org/v1/gonum/blas"

	"github.com/gocompute/opencl/cl"
)

// profiler attributes the device time of a factorization to the kinds of
// command it enqueues (each lapack.cl kernel by name, GEMMs by their inner
// dimension k, device copies), so that a benchmark can show which kind
// bounds it. It works in one of two ways:
//
//   - wait: the host waits for each command as it is enqueued and charges
//     the wall time since the previous one to it. It works on any queue,
//     and also charges each command its launch and wait latency.
//   - events: a marker follows each command on the in-order queue (which
//     must have been created with cl.QueueProfiling); each command is
//     charged the time between the end of the marker before it and the end
//     of its own, so the factorization runs as pipelined as without the
//     profiler, and the gaps in which the device waits for the host are
//     charged to the command that ends them.
//
// It is off (nil) except in benchmarks and their tests.
type profiler struct {
	q      *cl.Queue
	events bool

	mu    sync.Mutex
	err   error
	last  time.Time
	marks []profMark
	kinds map[string]*profKind
	// line is the events mode's timeline, set by stop.
	line timeline
}

// timeline says, from the markers' timestamps, whether the device or the
// host bounds a pipelined factorization: a marker is queued as soon as
// the command before it has been enqueued, and ends when the device has
// run that command, so the device idles, waiting for the host, for the
// time between one marker's end and the next one's queueing (less that
// command's own enqueueing), and runs behind the host by the time between
// a marker's queueing and its end.
type timeline struct {
	Span time.Duration // from the first marker's end to the last one's
	Idle time.Duration // the device waiting for the host's next command
	Lag  time.Duration // median time a command ran behind its enqueueing
}

// profMark is a marker enqueued after a command of kind (events mode).
type profMark struct {
	kind  string
	flops float64
	host  time.Duration
	ev    *cl.Event
}

// profKind is what a profile holds for one kind of command.
type profKind struct {
	Kind  string
	N     int           // commands
	Time  time.Duration // device time charged to them
	Host  time.Duration // host time spent enqueueing them
	Flops float64       // their flops (GEMMs only)
}

// newProfiler returns a profiler of q's commands, by markers when events
// is set, else by waiting for each.
func newProfiler(q *cl.Queue, events bool) (*profiler, error) {
	if events && q.Properties()&cl.QueueProfiling == 0 {
		return nil, fmt.Errorf("cllapack: profiling by events needs a queue created with cl.QueueProfiling")
	}
	return &profiler{q: q, events: events, kinds: make(map[string]*profKind)}, nil
}

// start waits for the queue and marks the beginning of the profile.
func (p *profiler) start() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.q.Finish(); err != nil {
		return err
	}
	p.last = time.Now()
	if p.events {
		return p.mark("", 0, 0)
	}
	return nil
}

// after records that a command of kind (with flops flops) was just
// enqueued on the queue, its enqueueing having begun at t0.
func (p *profiler) after(kind string, flops float64, t0 time.Time) {
	host := time.Since(t0)
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.err != nil {
		return
	}
	if p.events {
		p.err = p.mark(kind, flops, host)
		return
	}
	if p.err = p.q.Finish(); p.err != nil {
		return
	}
	now := time.Now()
	p.charge(kind, flops, now.Sub(p.last), host)
	p.last = now
}

// mark enqueues a marker after a command of kind. The caller holds p.mu.
func (p *profiler) mark(kind string, flops float64, host time.Duration) error {
	ev, err := p.q.EnqueueMarker()
	if err != nil {
		return fmt.Errorf("cllapack: profile marker: %w", err)
	}
	p.marks = append(p.marks, profMark{kind: kind, flops: flops, host: host, ev: ev})
	return nil
}

// charge adds one command of kind to the profile. The caller holds p.mu.
func (p *profiler) charge(kind string, flops float64, d, host time.Duration) {
	k := p.kinds[kind]
	if k == nil {
		k = &profKind{Kind: kind}
		p.kinds[kind] = k
	}
	k.N++
	k.Time += d
	k.Host += host
	k.Flops += flops
}

// stop waits for the queue, charges what ran after the last command
// recorded to "rest", and returns the profile, longest kind first, and the
// first error met.
func (p *profiler) stop() ([]profKind, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.q.Finish(); err != nil && p.err == nil {
		p.err = err
	}
	if !p.events {
		p.charge("rest", 0, time.Since(p.last), 0)
	}
	var prev, first uint64
	var lags []time.Duration
	p.line = timeline{}
	for i, m := range p.marks {
		t, err := m.ev.Profile()
		if err == nil {
			err = m.ev.Release()
		}
		if err != nil && p.err == nil {
			p.err = fmt.Errorf("cllapack: profile marker: %w", err)
		}
		if i > 0 && p.err == nil {
			p.charge(m.kind, m.flops, time.Duration(t.End-prev), m.host)
			ready := int64(t.Queued) - int64(m.host) // the command's enqueueing began
			if idle := ready - int64(prev); idle > 0 {
				p.line.Idle += time.Duration(idle)
			}
			lags = append(lags, time.Duration(int64(t.End)-int64(t.Queued)))
		} else {
			first = t.End
		}
		prev = t.End
	}
	if len(lags) > 0 {
		sort.Slice(lags, func(i, j int) bool { return lags[i] < lags[j] })
		p.line.Lag = lags[len(lags)/2]
		p.line.Span = time.Duration(prev - first)
	}
	p.marks = nil
	out := make([]profKind, 0, len(p.kinds))
	for _, k := range p.kinds {
		out = append(out, *k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Time > out[j].Time })
	return out, p.err
}

// profileGemm records a GEMM C = op(A)·op(B) with C m×n and inner
// dimension k, when a profiler is on.
func (impl *Implementation) profileGemm(t0 time.Time, tA blas.Transpose, ar, ac, m, n int) {
	if impl.prof == nil {
		return
	}
	k := ac
	if tA != blas.NoTrans {
		k = ar
	}
	// Kinds by shape: the panels' GEMMs have one short side (≤ 128), the
	// trailing updates none; k is exact up to 128 (the block sizes), else
	// "big" (QR's Vᵀ·C, whose k is the panel's height).
	shape, ks := "wide", "big"
	if min(m, n) <= 128 {
		shape = "narrow"
	}
	if k <= 128 {
		ks = fmt.Sprint(k)
	}
	impl.prof.after("gemm/"+shape+"/k="+ks, 2*float64(m)*float64(n)*float64(k), t0)
}

// profileCmd records a command of kind enqueued from t0, when a profiler
// is on.
func (impl *Implementation) profileCmd(t0 time.Time, kind string) {
	if impl.prof != nil {
		impl.prof.after(kind, 0, t0)
	}
}
