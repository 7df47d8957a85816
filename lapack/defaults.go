package cllapack

// deviceDefaults sets the designs measured fastest on the device's kind
// (BENCHMARKS.md, "Device LAPACK, resident"), where they differ from the
// portable ones New starts from. A CPU device (PoCL) keeps those: it
// compiles potf2_inv's register version for minutes, and its one
// work-group kernels are not latency bound.
func (impl *Implementation) deviceDefaults() {
	rt := impl.blas.Runtime()
	if rt == nil || rt.Device().Profile().IsCPU() {
		return
	}
}

// potrfBlock is Potrf's block size.
func (impl *Implementation) potrfBlock() int {
	if impl.potrfNB > 0 {
		return impl.potrfNB
	}
	return impl.nb
}
