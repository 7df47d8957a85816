package cl

import (
	"runtime"
	"sync/atomic"
)

// object is the lifetime state every reference-counted wrapper embeds:
// whether Release has run, and the backstop cleanup to cancel when it does.
type object struct {
	released atomic.Bool
	cleanup  runtime.Cleanup
	kind     objectKind
}

// track counts a new live object and attaches the backstop: when owner
// becomes unreachable without Release, release(h) runs on a cleanup
// goroutine.
func track[O any, H any](o *O, obj *object, kind objectKind, h H, release func(H)) {
	obj.kind = kind
	live[kind].Add(1)
	obj.cleanup = runtime.AddCleanup(o, func(h H) {
		release(h)
		live[kind].Add(-1)
	}, h)
}

// begin reports whether this call is the one that releases the object; it
// cancels the cleanup and uncounts the object. Later calls return false.
func (o *object) begin() bool {
	if !o.released.CompareAndSwap(false, true) {
		return false
	}
	o.cleanup.Stop()
	live[o.kind].Add(-1)
	return true
}

func (o *object) alive() error {
	if o.released.Load() {
		return ErrReleased
	}
	return nil
}
