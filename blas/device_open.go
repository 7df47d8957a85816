package clblas

import eng "github.com/gocompute/opencl/internal/engine"

// newDevice opens the device New puts behind the front end: the device of
// WithDevice/WithRuntime, or platform.Default().
func newDevice(cfg *config) (*eng.Engine, deviceFloat64, deviceFloat32, costModel, error) {
	o := cfg.engine
	o.Logger = cfg.logger
	e, err := eng.OpenEngine(o)
	if err != nil {
		return nil, nil, nil, costModel{}, err
	}
	var d64 deviceFloat64 = noDevice64{}
	if e.Prof.FP64 {
		d64 = eng.ClDevice64{E: e}
	}
	return e, d64, eng.ClDevice32{E: e}, engineCost(e), nil
}

var (
	_ deviceFloat64 = eng.ClDevice64{}
	_ deviceFloat32 = eng.ClDevice32{}
)

// engineCost is the offload policy's cost model of engine e's device.
func engineCost(e *eng.Engine) costModel { return costModel{present: true, Cost: e.Cost()} }
