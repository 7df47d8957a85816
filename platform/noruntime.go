package platform

// noRuntimeError is the error of Select when no OpenCL library could be
// loaded: it is ErrNoDevice and the cl.ErrNoRuntime error that says which
// paths were tried and how to install a runtime.
type noRuntimeError struct{ cause error }

func (e noRuntimeError) Error() string {
	return "platform: no OpenCL device found: " + e.cause.Error()
}

func (e noRuntimeError) Unwrap() []error { return []error{ErrNoDevice, e.cause} }
