package platform

import (
	"testing"

	"github.com/gocompute/opencl/cl"
)

// TestProfileKind: a device that lists GPU among its types is a GPU, not a
// CPU (Oclgrind reports default|cpu|gpu|accelerator).
func TestProfileKind(t *testing.T) {
	for _, tc := range []struct {
		typ      cl.DeviceType
		cpu, gpu bool
	}{
		{cl.DeviceTypeCPU, true, false},
		{cl.DeviceTypeGPU, false, true},
		{cl.DeviceTypeAccelerator, false, false},
		{cl.DeviceTypeCPU | cl.DeviceTypeAccelerator, true, false},
		{cl.DeviceTypeDefault | cl.DeviceTypeCPU | cl.DeviceTypeGPU | cl.DeviceTypeAccelerator, false, true},
	} {
		p := Profile{Type: tc.typ}
		if p.IsCPU() != tc.cpu || p.IsGPU() != tc.gpu {
			t.Errorf("type %v: IsCPU %v IsGPU %v, want %v %v", tc.typ, p.IsCPU(), p.IsGPU(), tc.cpu, tc.gpu)
		}
	}
}
