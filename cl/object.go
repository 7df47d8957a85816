package cl

import (
	"runtime"
	"sync/atomic"
)

// releasedBit marks an object whose Release has run; the bits below it
// count the calls that are using the handle right now.
const releasedBit = 1 << 62

// object is the lifetime state every reference-counted wrapper embeds:
// whether Release has run, how many calls are using the handle, and the
// backstop cleanup to cancel when Release runs.
//
// Every call that passes the handle to OpenCL brackets the call with
// acquire and done. Release marks the object released at once (later
// calls get ErrReleased) but the driver reference is dropped only when the
// last in-flight call is done, so a Release that races with a call on
// another goroutine can never free a handle under it. The deferred done
// also keeps the owner reachable for the length of the call, so the
// backstop cannot run under it either.
type object struct {
	state   atomic.Int64
	cleanup runtime.Cleanup
	kind    objectKind
	free    func() int32 // drops the driver reference; returns the status
}

// track counts a new live object and attaches the backstop: when owner
// becomes unreachable without Release, release(h) runs on a cleanup
// goroutine. release must return the OpenCL status.
func track[O any, H comparable](o *O, obj *object, kind objectKind, h H, release func(H) int32) {
	obj.kind = kind
	obj.free = func() int32 { return release(h) }
	live[kind].Add(1)
	obj.cleanup = runtime.AddCleanup(o, func(h H) {
		release(h)
		live[kind].Add(-1)
	}, h)
}

// acquire registers a call that is about to use the handle; it fails with
// ErrReleased once Release has run. Every successful acquire must be
// paired with done.
func (o *object) acquire() error {
	for {
		s := o.state.Load()
		if s&releasedBit != 0 {
			return ErrReleased
		}
		if o.state.CompareAndSwap(s, s+1) {
			return nil
		}
	}
}

// done ends a call begun with acquire. The last call to end after Release
// drops the driver reference.
func (o *object) done() {
	if o.state.Add(-1) == releasedBit {
		o.free()
	}
}

// release marks the object released (once; later calls return nil), stops
// the backstop, and drops the driver reference now or, if calls are in
// flight, when the last of them is done.
func (o *object) release(op string) error {
	for {
		s := o.state.Load()
		if s&releasedBit != 0 {
			return nil
		}
		if o.state.CompareAndSwap(s, s|releasedBit) {
			o.cleanup.Stop()
			live[o.kind].Add(-1)
			if s == 0 {
				return check(op, o.free())
			}
			return nil
		}
	}
}

// acquireAll acquires every object, or none: on failure it undoes the
// acquisitions made so far and returns the first error.
func acquireAll(objs ...*object) error {
	for i, o := range objs {
		if err := o.acquire(); err != nil {
			for _, p := range objs[:i] {
				p.done()
			}
			return err
		}
	}
	return nil
}

func doneAll(objs ...*object) {
	for _, o := range objs {
		o.done()
	}
}
