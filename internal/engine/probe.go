package engine

import (
	"sync"
	"sync/atomic"
)

// Faults is the fault-injection hook (tests only): when a function is
// stored, every step that can fail on a real device asks it, naming its
// site ("alloc", "write", "kernel", …), and fails with what it returns.
type Faults struct {
	atomic.Pointer[func(site string) error]
}

// Inject is the error the stored function gives site, or nil.
func (f *Faults) Inject(site string) error {
	if fn := f.Load(); fn != nil {
		return (*fn)(site)
	}
	return nil
}

// Launches counts successful device calls per routine.
type Launches struct {
	m sync.Map // string → *atomic.Int64
}

// Count adds one call of routine.
func (l *Launches) Count(routine string) {
	v, ok := l.m.Load(routine)
	if !ok {
		v, _ = l.m.LoadOrStore(routine, new(atomic.Int64))
	}
	v.(*atomic.Int64).Add(1)
}

// Of returns how many device calls of routine have succeeded.
func (l *Launches) Of(routine string) int64 {
	if v, ok := l.m.Load(routine); ok {
		return v.(*atomic.Int64).Load()
	}
	return 0
}
