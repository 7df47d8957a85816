package engine

import (
	"log/slog"

	"github.com/gocompute/opencl/internal/gemm"
	"github.com/gocompute/opencl/internal/settings"
	"github.com/gocompute/opencl/platform"
)

// Options are the engine's own options: the device and the settings in
// force, with the front end's options and the environment already
// resolved (clblas.New fills them in).
type Options struct {
	// Device or Runtime is the device to open; with neither, Spec (the
	// GOCL_DEVICE grammar) chooses one.
	Device   *platform.Device
	Runtime  *platform.Runtime
	Spec     string
	CacheDir string // the program cache's folder; "" for the default

	Tensor   gemm.Tensor       // GEMM's tensor-core mode
	Pipe     settings.Pipeline // the staged GEMM's mode
	ZeroCopy ZeroCopy          // whether device buffers alias Go memory
	ZMethod  ZMethod           // complex GEMM's method (GOCL_COMPLEX_GEMM)
	Tuning   *gemm.DB          // GEMM's tuning database; nil for the embedded one
	Logger   *slog.Logger
	// NoL2Share keeps the host from computing rows of GEMV and GER on Go
	// slices beside the device (GOCL_L2_SHARE=off; l2_share.go).
	NoL2Share bool
}

// ZeroCopy says when kernels read and write Go memory in place instead of
// copies (GOCL_ZERO_COPY): ZeroCopyAuto on CPU devices, ZeroCopyOn also on
// devices that report memory unified with the host's, ZeroCopyOff never.
type ZeroCopy int

// Values of ZeroCopy.
const (
	ZeroCopyAuto ZeroCopy = iota
	ZeroCopyOn
	ZeroCopyOff
)

// ParseZeroCopy parses a GOCL_ZERO_COPY value (settings.ParseSwitch).
func ParseZeroCopy(v string) (ZeroCopy, error) {
	w, err := settings.ParseSwitch(v)
	switch w {
	case "on":
		return ZeroCopyOn, nil
	case "off":
		return ZeroCopyOff, nil
	}
	return ZeroCopyAuto, err
}

// Shared reports whether host slices go to the kernels of a device p
// describes with no copy: by default on CPU devices, whose memory is the
// host's; with ZeroCopyOn also on other devices that report memory
// unified with the host's (integrated GPUs: not measured yet, so not the
// default); never with ZeroCopyOff.
func (z ZeroCopy) Shared(p platform.Profile) bool {
	switch z {
	case ZeroCopyOff:
		return false
	case ZeroCopyOn:
		return p.IsCPU() || p.HostUnifiedMemory
	}
	return p.IsCPU()
}
