package clblas

// newDevice opens the device New puts behind the front end. This version has
// no OpenCL engine: it returns the "none" devices, so every call runs on the
// CPU. The OpenCL engine replaces this file.
func newDevice(cfg *config) (deviceFloat64, deviceFloat32, costModel, error) {
	_ = cfg
	return noDevice64{}, noDevice32{}, costModel{}, nil
}
