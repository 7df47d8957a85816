package cl

import "unsafe"

// sameArgs reports whether every argument of args is already set to that
// value (and buffer), so that SetArgs has nothing to do: the common case
// of a kernel object taken back from a pool and launched again on the same
// operands. It takes the kernel's lock once instead of once per argument.
// Anything it does not compare (a released object, a count that is not
// known yet, raw bytes, a type SetArgs rejects) reports false, and SetArgs
// takes its full path, with its checks and errors.
func (k *Kernel) sameArgs(args []any) bool {
	if n := k.numArgs.Load(); n == 0 || int(n-1) != len(args) {
		return false
	}
	if k.obj.state.Load()&releasedBit != 0 {
		return false
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if len(k.args) < len(args) {
		return false
	}
	for i, a := range args {
		var v argValue
		var b *Buffer
		switch x := a.(type) {
		case *Buffer:
			b = x
		case bufferArg:
			b = x.clBuffer()
		case Local:
			v = argValue{set: true, local: true, size: uintptr(x)}
		case int32:
			v = scalarArg(x)
		case uint32:
			v = scalarArg(x)
		case int64:
			v = scalarArg(x)
		case uint64:
			v = scalarArg(x)
		case float32:
			v = scalarArg(x)
		case float64:
			v = scalarArg(x)
		default:
			return false
		}
		if b != nil {
			if b.obj.state.Load()&releasedBit != 0 {
				return false
			}
			v = argValueOf(unsafe.Sizeof(b.h), unsafe.Pointer(&b.h))
		} else if _, isBuf := a.(*Buffer); isBuf {
			return false // a nil buffer: the full path sets NULL
		}
		if !k.same(i, v, b) {
			return false
		}
	}
	return true
}

// scalarArg is the remembered value of a scalar argument (setArg's).
func scalarArg[T Scalar](v T) argValue {
	return argValueOf(unsafe.Sizeof(v), unsafe.Pointer(&v))
}
