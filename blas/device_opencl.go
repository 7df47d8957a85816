package clblas

// clDevice64 and clDevice32 are the OpenCL devices behind the front end.
// They share one engine; each precision's methods live beside their
// routines' kernels in device_level1.go, device_level2.go and
// device_level3.go, and delegate to generic functions over float32 and
// float64.
type (
	clDevice64 struct{ e *engine }
	clDevice32 struct{ e *engine }
)

var (
	_ deviceFloat64 = clDevice64{}
	_ deviceFloat32 = clDevice32{}
)

func (d clDevice64) Close() error { return d.e.release() }
func (d clDevice32) Close() error { return d.e.release() }
