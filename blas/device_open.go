package clblas

import eng "github.com/gocompute/opencl/internal/engine"

// newDevice opens the device New puts behind the front end: the device of
// WithDevice/WithRuntime, or platform.Default().
func newDevice(cfg *config) (*eng.Engine, device[float64], device[float32], costModel, error) {
	o := cfg.engine
	o.Logger = cfg.logger
	e, err := eng.OpenEngine(o)
	if err != nil {
		return nil, nil, nil, costModel{}, err
	}
	var d64 device[float64]
	if e.Prof.FP64 {
		d64 = eng.Device[float64]{E: e}
	}
	return e, d64, eng.Device[float32]{E: e}, engineCost(e), nil
}

var (
	_ device[float64] = eng.Device[float64]{}
	_ device[float32] = eng.Device[float32]{}
)

// engineCost is the offload policy's cost model of engine e's device.
func engineCost(e *eng.Engine) costModel { return costModel{present: true, Cost: e.Cost()} }
