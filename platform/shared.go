package platform

import (
	"fmt"

	"github.com/gocompute/opencl/cl"
)

// handOut returns the reference to the runtime's program p (cache key key)
// that Program gives its callers: one per program, made again if a caller
// has released it. The runtime's own reference is never handed out, so no
// caller can release the program from under the cache.
func (r *Runtime) handOut(key string, p *cl.Program) (*cl.Program, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil, ErrClosed
	}
	if s := r.shared[key]; s != nil && !s.Released() {
		return s, nil
	}
	s, err := p.Retain()
	if err != nil {
		return nil, fmt.Errorf("platform: program reference: %w", err)
	}
	if r.shared == nil {
		r.shared = map[string]*cl.Program{}
	}
	r.shared[key] = s
	return s, nil
}

// Kernel returns a new kernel named name of the program built from sources
// with options (see Program). The kernel is the caller's: Release it when
// done. It keeps what it needs of the program alive by itself, so the
// program is never handed out. A wrong name lists the program's kernels.
func (r *Runtime) Kernel(sources []string, options, name string) (*cl.Kernel, error) {
	p, err := r.Program(sources, options)
	if err != nil {
		return nil, err
	}
	return p.CreateKernel(name)
}
