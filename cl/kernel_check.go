package cl

import (
	"errors"
	"fmt"
	"strings"
)

// Checks that turn a driver's bare error code into one that names what is
// wrong: the kernels a program has, the arguments a kernel takes.

// kernelList is ", the program has a; b" for a CL_INVALID_KERNEL_NAME
// error, so that a misspelt name shows the right one; "" otherwise.
func (p *Program) kernelList(err error) string {
	if !errors.Is(err, InvalidKernelName) {
		return ""
	}
	names, nerr := p.KernelNames()
	if nerr != nil || len(names) == 0 {
		return ""
	}
	return " (the program has " + strings.Join(names, ", ") + ")"
}

// numArgsCached is NumArgs, asked of the driver once per kernel.
func (k *Kernel) numArgsCached() (int, error) {
	if n := k.numArgs.Load(); n > 0 {
		return int(n - 1), nil
	}
	n, err := k.NumArgs()
	if err != nil {
		return 0, err
	}
	k.numArgs.Store(int32(n + 1))
	return n, nil
}

// checkArgCount fails, wrapping CL_INVALID_KERNEL_ARGS, when n arguments
// are more (tooMany) or fewer (!tooMany) than the kernel takes. SetArgs
// checks for too many before it sets any, and for too few after the
// arguments it has are set, so that a bad argument is named first. A
// kernel whose count cannot be had is not checked here (the driver still
// is at enqueue).
func (k *Kernel) checkArgCount(n int, tooMany bool) error {
	want, err := k.numArgsCached()
	if err != nil || n == want || (n > want) != tooMany {
		return nil
	}
	var which string
	switch {
	case n == want-1:
		which = fmt.Sprintf("argument %d is missing", n)
	case n < want:
		which = fmt.Sprintf("arguments %d to %d are missing", n, want-1)
	case n == want+1:
		which = fmt.Sprintf("argument %d does not exist", want)
	default:
		which = fmt.Sprintf("arguments %d to %d do not exist", want, n-1)
	}
	return fmt.Errorf("cl: kernel %s takes %d arguments, got %d (%s): %w",
		k.name, want, n, which, &Error{Op: "clSetKernelArg", Code: InvalidKernelArgs})
}

// explainArg adds the Go type of the value given to an argument whose
// size the driver refused (a float64 for a float parameter, say): the
// driver's CL_INVALID_ARG_SIZE names neither.
func (k *Kernel) explainArg(err error, a any) error {
	if !errors.Is(err, InvalidArgSize) {
		return err
	}
	return fmt.Errorf("%w (the value given is a Go %T)", err, a)
}

// bufferArg is a typed view of a buffer (an *Array[T]): SetArgs passes its
// buffer.
type bufferArg interface{ clBuffer() *Buffer }
