package cl

import (
	"fmt"
	"sync"
	"sync/atomic"
	"unsafe"
)

// Kernel is a kernel function of a built program with its arguments.
// Setting arguments and enqueueing must not race with each other on the
// same Kernel: use one Kernel per goroutine (CreateKernel is cheap) or a
// lock.
type Kernel struct {
	h    clKernel
	name string
	obj  object

	mu      sync.Mutex
	bufArgs []*Buffer // the buffer set as each argument, nil for others

	// args remembers the value each argument was last set to, so that
	// setting the same value again (a kernel object reused for the same
	// shapes and buffers, as a pool of them is) costs no driver call.
	args []argValue

	numArgs atomic.Int32 // CL_KERNEL_NUM_ARGS + 1, once known; 0 before
}

// argValue is a remembered kernel argument: its size and bytes (values
// of up to 16 bytes; larger ones are not remembered), or the size of a
// local-memory argument.
type argValue struct {
	set   bool
	local bool
	size  uintptr
	bytes [16]byte
}

// same reports whether argument i was last set to this value (and
// buffer); it is called with k.mu held.
func (k *Kernel) same(i int, v argValue, b *Buffer) bool {
	if i >= len(k.args) || !k.args[i].set || k.args[i] != v {
		return false
	}
	var cur *Buffer
	if i < len(k.bufArgs) {
		cur = k.bufArgs[i]
	}
	return cur == b
}

// remember records argument i's value (not remembered when v.set is
// false) and buffer (nil: not a buffer).
func (k *Kernel) remember(i int, v argValue, b *Buffer) {
	for len(k.args) <= i {
		k.args = append(k.args, argValue{})
	}
	k.args[i] = v
	if b == nil && i >= len(k.bufArgs) {
		return
	}
	for len(k.bufArgs) <= i {
		k.bufArgs = append(k.bufArgs, nil)
	}
	k.bufArgs[i] = b
}

// setArgCalls counts clSetKernelArg calls (tests check the skipping).
var setArgCalls atomic.Int64

// argCopy returns a heap copy of the size bytes at p (nil for nil) to
// hand to clSetKernelArg: p itself never reaches C, so the callers'
// values stay on their stacks, and an argument that is already set
// (the common case of a kernel taken back from a pool) allocates nothing.
func argCopy(size uintptr, p unsafe.Pointer) unsafe.Pointer {
	if p == nil || size == 0 {
		return nil
	}
	b := make([]byte, size)
	copy(b, unsafe.Slice((*byte)(p), size))
	return unsafe.Pointer(&b[0])
}

func argValueOf(size uintptr, p unsafe.Pointer) argValue {
	switch {
	case p == nil:
		return argValue{set: true, local: true, size: size}
	case size <= 16:
		v := argValue{set: true, size: size}
		copy(v.bytes[:], unsafe.Slice((*byte)(p), size))
		return v
	}
	return argValue{} // not remembered
}

// CreateKernel returns the named kernel of a built program.
func (p *Program) CreateKernel(name string) (*Kernel, error) {
	const op = "clCreateKernel"
	if err := p.obj.acquire(); err != nil {
		return nil, err
	}
	defer p.obj.done()
	cname := cstring(name)
	var st int32
	h := clCreateKernel(p.h, &cname[0], &st)
	if err := check(op, st); err != nil {
		return nil, fmt.Errorf("cl: kernel %q%s: %w", name, p.kernelList(err), err)
	}
	k := &Kernel{h: h, name: name}
	track(k, &k.obj, kindKernel, h)
	return k, nil
}

// Name is the kernel function's name.
func (k *Kernel) Name() string { return k.name }

// NumArgs is the number of arguments the kernel takes.
func (k *Kernel) NumArgs() (int, error) {
	if err := k.obj.acquire(); err != nil {
		return 0, err
	}
	defer k.obj.done()
	var n uint32
	st := clGetKernelInfo(k.h, clKernelNumArgs, unsafe.Sizeof(n), unsafe.Pointer(&n), nil)
	return int(n), check("clGetKernelInfo", st)
}

// setArg sets argument i to size bytes at p (nil: local memory of that
// size), and records b as the buffer it names (nil: none). The kernel
// keeps b reachable, so the backstop cannot release a buffer that only a
// kernel argument still names, and enqueueing checks that it has not been
// released. A value equal to the one already set is not passed again.
func (k *Kernel) setArg(i int, size uintptr, p unsafe.Pointer, b *Buffer) error {
	if i < 0 {
		return fmt.Errorf("cl: kernel %s argument %d: %w", k.name, i, &Error{Op: "clSetKernelArg", Code: InvalidArgIndex})
	}
	if err := k.obj.acquire(); err != nil {
		return err
	}
	defer k.obj.done()
	v := argValueOf(size, p)
	k.mu.Lock()
	defer k.mu.Unlock()
	if v.set && k.same(i, v, b) {
		return nil
	}
	setArgCalls.Add(1)
	st := clSetKernelArg(k.h, uint32(i), size, argCopy(size, p))
	if err := check("clSetKernelArg", st); err != nil {
		// The argument keeps its old value (and buffer), but it is no
		// longer known to equal anything.
		if i < len(k.args) {
			k.args[i] = argValue{}
		}
		return fmt.Errorf("cl: kernel %s argument %d: %w", k.name, i, err)
	}
	k.remember(i, v, b)
	return nil
}

// acquireBufArgs acquires every buffer set as an argument, for the length
// of an enqueue, appending them to objs (the caller's array, so that a
// launch allocates no slice); a released one is an error.
func (k *Kernel) acquireBufArgs(objs []*object) ([]*object, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	for i, b := range k.bufArgs {
		if b == nil {
			continue
		}
		if err := b.obj.acquire(); err != nil {
			doneAll(objs...)
			return nil, fmt.Errorf("cl: kernel %s argument %d: buffer: %w", k.name, i, err)
		}
		objs = append(objs, &b.obj)
	}
	return objs, nil
}

// SetArg sets scalar argument i to v; T must match the kernel parameter's
// OpenCL type (float32 for float, int32 for int, …).
func SetArg[T Scalar](k *Kernel, i int, v T) error {
	return k.setArg(i, unsafe.Sizeof(v), unsafe.Pointer(&v), nil)
}

// SetArgBuffer sets argument i to a buffer (a __global or __constant
// pointer parameter); a nil *Buffer sets it to NULL. The kernel keeps the
// buffer reachable while it is an argument; releasing it makes later
// enqueues of the kernel fail with ErrReleased (a command already enqueued
// still runs: the driver holds the memory until then).
func (k *Kernel) SetArgBuffer(i int, b *Buffer) error {
	if b == nil {
		var h clMem
		return k.setArg(i, unsafe.Sizeof(h), unsafe.Pointer(&h), nil)
	}
	if err := b.obj.acquire(); err != nil {
		return fmt.Errorf("cl: kernel %s argument %d: %w", k.name, i, err)
	}
	defer b.obj.done()
	h := b.h
	return k.setArg(i, unsafe.Sizeof(h), unsafe.Pointer(&h), b)
}

// SetArgLocal sets argument i (a __local pointer parameter) to size bytes
// of local memory.
func (k *Kernel) SetArgLocal(i int, size int) error {
	if size <= 0 {
		return fmt.Errorf("cl: kernel %s argument %d: local size %d: %w", k.name, i, size, &Error{Op: "clSetKernelArg", Code: InvalidArgSize})
	}
	return k.setArg(i, uintptr(size), nil, nil)
}

// SetArgBytes sets argument i to raw bytes, for struct or vector
// arguments. The size must match the parameter's.
func (k *Kernel) SetArgBytes(i int, b []byte) error {
	if len(b) == 0 {
		return k.setArg(i, 0, nil, nil)
	}
	return k.setArg(i, uintptr(len(b)), unsafe.Pointer(&b[0]), nil)
}

// Local is an argument to SetArgs that reserves local memory of that many
// bytes.
type Local int

// SetArgs sets the kernel's arguments in order. Each value is a *Buffer, a
// Local, a []byte (raw bytes, as SetArgBytes) or a fixed-size scalar (int8
// … uint64, float32, float64); Go's int and uint are rejected, with an
// error wrapping CL_INVALID_ARG_VALUE, because OpenCL has no type of their
// size.
func (k *Kernel) SetArgs(args ...any) error {
	if k.sameArgs(args) {
		return nil
	}
	if err := k.checkArgCount(len(args), true); err != nil {
		return err
	}
	for i, a := range args {
		var err error
		switch v := a.(type) {
		case *Buffer:
			err = k.SetArgBuffer(i, v)
		case bufferArg:
			err = k.SetArgBuffer(i, v.clBuffer())
		case Local:
			err = k.SetArgLocal(i, int(v))
		case []byte:
			err = k.SetArgBytes(i, v)
		case int8:
			err = SetArg(k, i, v)
		case uint8:
			err = SetArg(k, i, v)
		case int16:
			err = SetArg(k, i, v)
		case uint16:
			err = SetArg(k, i, v)
		case int32:
			err = SetArg(k, i, v)
		case uint32:
			err = SetArg(k, i, v)
		case int64:
			err = SetArg(k, i, v)
		case uint64:
			err = SetArg(k, i, v)
		case float32:
			err = SetArg(k, i, v)
		case float64:
			err = SetArg(k, i, v)
		default:
			return fmt.Errorf("cl: kernel %s argument %d: unsupported Go type %T (use int32/int64, float32/float64, *Buffer or Local): %w", k.name, i, a, &Error{Op: "clSetKernelArg", Code: InvalidArgValue})
		}
		if err != nil {
			return k.explainArg(err, a)
		}
	}
	return k.checkArgCount(len(args), false)
}

// WorkGroupInfo describes how a kernel can run on one device.
type WorkGroupInfo struct {
	WorkGroupSize                  int    // largest work-group for this kernel
	CompileWorkGroupSize           [3]int // reqd_work_group_size, or zeros
	LocalMemSize                   int64  // local memory the kernel uses, bytes
	PreferredWorkGroupSizeMultiple int    // the warp/wavefront/SIMD width
	PrivateMemSize                 int64  // private memory per work-item, bytes
}

// WorkGroupInfo queries the kernel's limits on device d.
func (k *Kernel) WorkGroupInfo(d *Device) (WorkGroupInfo, error) {
	const op = "clGetKernelWorkGroupInfo"
	if d == nil {
		return WorkGroupInfo{}, &Error{Op: op, Code: InvalidDevice}
	}
	if err := k.obj.acquire(); err != nil {
		return WorkGroupInfo{}, err
	}
	defer k.obj.done()
	var info WorkGroupInfo
	var wg, mult uintptr
	var cwg [3]uintptr
	var lm, pm uint64
	for _, q := range []struct {
		param uint32
		size  uintptr
		p     unsafe.Pointer
	}{
		{clKernelWorkGroupSize, unsafe.Sizeof(wg), unsafe.Pointer(&wg)},
		{clKernelCompileWorkGroupSize, unsafe.Sizeof(cwg), unsafe.Pointer(&cwg[0])},
		{clKernelLocalMemSize, unsafe.Sizeof(lm), unsafe.Pointer(&lm)},
		{clKernelPreferredWorkGroupSizeMultiple, unsafe.Sizeof(mult), unsafe.Pointer(&mult)},
		{clKernelPrivateMemSize, unsafe.Sizeof(pm), unsafe.Pointer(&pm)},
	} {
		if err := check(op, clGetKernelWorkGroupInfo(k.h, d.id, q.param, q.size, q.p, nil)); err != nil {
			return WorkGroupInfo{}, err
		}
	}
	info.WorkGroupSize = int(wg)
	info.CompileWorkGroupSize = [3]int{int(cwg[0]), int(cwg[1]), int(cwg[2])}
	info.LocalMemSize = int64(lm)
	info.PreferredWorkGroupSizeMultiple = int(mult)
	info.PrivateMemSize = int64(pm)
	return info, nil
}

// ReferenceCount is the driver's reference count of the kernel.
func (k *Kernel) ReferenceCount() (int, error) {
	if err := k.obj.acquire(); err != nil {
		return 0, err
	}
	defer k.obj.done()
	var n uint32
	st := clGetKernelInfo(k.h, clKernelReferenceCount, unsafe.Sizeof(n), unsafe.Pointer(&n), nil)
	return int(n), check("clGetKernelInfo", st)
}

// Release releases the kernel. It is safe to call more than once.
func (k *Kernel) Release() error {
	if k == nil {
		return nil
	}
	return k.obj.release("clReleaseKernel")
}
