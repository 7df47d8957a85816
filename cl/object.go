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
	h       uintptr // the handle, whose release releaseOf[kind] does
}

// releaseOf drops the driver reference of a handle of each kind and
// returns the status. A table rather than a closure per object: the small
// resident operations create an event per call and pay for every
// allocation.
var releaseOf = [numKinds]func(uintptr) int32{
	kindContext: func(h uintptr) int32 { return clReleaseContext(clContext(h)) },
	kindQueue:   func(h uintptr) int32 { return clReleaseCommandQueue(clCommandQueue(h)) },
	kindProgram: func(h uintptr) int32 { return clReleaseProgram(clProgram(h)) },
	kindKernel:  func(h uintptr) int32 { return clReleaseKernel(clKernel(h)) },
	kindBuffer:  func(h uintptr) int32 { return clReleaseMemObject(clMem(h)) },
	kindEvent:   func(h uintptr) int32 { return clReleaseEvent(clEvent(h)) },
}

// handleRef is what the backstop of an object needs: its handle and kind.
type handleRef struct {
	h    uintptr
	kind objectKind
}

// backstop releases the handle of an object that became unreachable
// without Release.
func backstop(r handleRef) {
	releaseOf[r.kind](r.h)
	live[r.kind].Add(-1)
}

// track counts a new live object of kind (one releaseOf knows) and
// attaches the backstop: when owner becomes unreachable without Release,
// its handle is released on a cleanup goroutine.
func track[O any, H ~uintptr](o *O, obj *object, kind objectKind, h H) {
	obj.kind, obj.h = kind, uintptr(h)
	live[kind].Add(1)
	obj.cleanup = runtime.AddCleanup(o, backstop, handleRef{uintptr(h), kind})
}

// free drops the driver reference.
func (o *object) free() int32 { return releaseOf[o.kind](o.h) }

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
