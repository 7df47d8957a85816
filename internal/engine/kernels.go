package engine

import (
	"errors"
	"strconv"
	"strings"
	"sync"

	"github.com/gocompute/opencl/cl"
)

// KernelSpec names a kernel object: its source file (a kernels.Program
// name), kernel name and build options, and the key of its pool. Building
// the options string takes longer than a small kernel runs, so the GEMM
// path keeps its specs and other callers build one per call.
type KernelSpec struct {
	File, Name, Opts string
	key              string // pool key: file, options, name
}

// NewKernelSpec renders the build options for file's kernel name with
// PRECISION=prec and the given extra defines ("NAME", "NAME=VALUE"); an
// entry starting with "-" is passed as a build option as it is.
func NewKernelSpec(prec int, file, name string, defines ...string) *KernelSpec {
	var sb strings.Builder
	sb.WriteString("-DPRECISION=")
	sb.WriteString(strconv.Itoa(prec))
	for _, d := range defines {
		if strings.HasPrefix(d, "-") { // a build option ("-cl-opt-disable")
			sb.WriteString(" ")
		} else {
			sb.WriteString(" -D")
		}
		sb.WriteString(d)
	}
	opts := sb.String()
	return &KernelSpec{File: file, Name: name, Opts: opts, key: file + "\x00" + opts + "\x00" + name}
}

// SpecCache keeps the specs of kernels built without extra defines, by
// precision, file and name, so that a call does not render its build
// options and pool key again (the small resident operations pay for every
// allocation). The zero value is empty and ready.
type SpecCache struct{ m, l1 sync.Map }

type specKey struct {
	prec       int
	file, name string
}

// Get returns the spec NewKernelSpec(prec, file, name) gives.
func (sc *SpecCache) Get(prec int, file, name string) *KernelSpec {
	k := specKey{prec, file, name}
	if s, ok := sc.m.Load(k); ok {
		return s.(*KernelSpec)
	}
	s, _ := sc.m.LoadOrStore(k, NewKernelSpec(prec, file, name))
	return s.(*KernelSpec)
}

type l1SpecKey struct {
	prec int
	name string
	sh   L1Shape
}

// L1 returns the spec of level1.cl's kernel name for shape sh (L1Kernel).
func (sc *SpecCache) L1(prec int, name string, sh L1Shape) *KernelSpec {
	k := l1SpecKey{prec, name, sh}
	if s, ok := sc.l1.Load(k); ok {
		return s.(*KernelSpec)
	}
	s, _ := sc.l1.LoadOrStore(k, NewKernelSpec(prec, L1File, name, sh.Defines()...))
	return s.(*KernelSpec)
}

// Key is the spec's pool key.
func (s *KernelSpec) Key() string { return s.key }

// kernelsPerKey bounds the free kernel objects kept per spec: about the
// number of calls of one kernel that run at once.
const kernelsPerKey = 8

// KernelPool keeps free kernel objects by spec key (a kernel object holds
// its arguments, so each call in flight needs its own). The zero value is
// an empty, open pool.
type KernelPool struct {
	mu     sync.Mutex
	free   map[string][]*cl.Kernel
	closed bool
}

// Take returns a free kernel object for key, or nil.
func (p *KernelPool) Take(key string) *cl.Kernel {
	p.mu.Lock()
	defer p.mu.Unlock()
	ks := p.free[key]
	if len(ks) == 0 {
		return nil
	}
	p.free[key] = ks[:len(ks)-1]
	return ks[len(ks)-1]
}

// Put returns k to the pool, or releases it when the pool is closed or
// holds enough for key.
func (p *KernelPool) Put(key string, k *cl.Kernel) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed || len(p.free[key]) >= kernelsPerKey {
		k.Release()
		return
	}
	if p.free == nil {
		p.free = map[string][]*cl.Kernel{}
	}
	p.free[key] = append(p.free[key], k)
}

// Drain releases the free kernel objects; the pool stays open.
func (p *KernelPool) Drain() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	var errs []error
	for _, ks := range p.free {
		for _, k := range ks {
			errs = append(errs, k.Release())
		}
	}
	p.free = nil
	return errors.Join(errs...)
}

// Close releases the free kernel objects and makes Put release from now
// on.
func (p *KernelPool) Close() error {
	err := p.Drain()
	p.mu.Lock()
	p.closed = true
	p.mu.Unlock()
	return err
}
