package engine

// clDevice64 and clDevice32 are the OpenCL devices behind the front end.
// They share one engine; each precision's methods live beside their
// routines' kernels in device_level1.go, device_level2.go and
// device_level3.go, and delegate to generic functions over float32 and
// float64.
type (
	ClDevice64 struct{ E *Engine }
	ClDevice32 struct{ E *Engine }
)

func (d ClDevice64) Close() error { return d.E.release() }
func (d ClDevice32) Close() error { return d.E.release() }
