package engine

import (
	"fmt"
	"log/slog"
	"os"

	"github.com/gocompute/opencl/internal/gemm"
	"github.com/gocompute/opencl/internal/settings"
	"github.com/gocompute/opencl/platform"
)

// EnvOptions are the engine options that the settings in env (read and
// checked by settings.Read) give; clblas.New lays its own options over
// them, and the tools take them as they are.
func EnvOptions(env settings.Env) (Options, error) {
	var o Options
	o.Spec = env.Get(settings.Device)
	o.CacheDir = env.Get(settings.CacheDir)
	o.Tensor, _ = gemm.ParseTensor(env.Get(settings.Tensor))           // checked
	o.Pipe, _ = settings.ParsePipeline(env.Get(settings.GemmPipeline)) // checked
	o.ZeroCopy, _ = ParseZeroCopy(env.Get(settings.ZeroCopy))          // checked
	o.ZMethod, _ = ParseZMethod(env.Get(settings.ComplexGemm))         // checked
	share, _ := settings.ParseL2Share(env.Get(settings.L2Share))       // checked
	o.NoL2Share = share == "off"
	path := env.Get(settings.GemmTuning)
	db, err := gemm.Read(path)
	if err != nil {
		s, _ := settings.Lookup(settings.GemmTuning)
		return o, &settings.Error{Name: s.Name, Value: path, Values: s.Values, Err: err}
	}
	o.Tuning = db
	return o, nil
}

// OpenEnv opens an engine on dev with the process's GOCL_* settings, for
// the tools (cmd/tune), which have no front end; Close releases it.
func OpenEnv(dev *platform.Device) (*Engine, error) {
	env, err := settings.Read(os.LookupEnv)
	if err != nil {
		return nil, fmt.Errorf("clblas: %w", err)
	}
	o, err := EnvOptions(env)
	if err != nil {
		return nil, fmt.Errorf("clblas: %w", err)
	}
	o.Device, o.Logger = dev, slog.Default()
	e, err := newEngine(o)
	if err != nil {
		return nil, err
	}
	e.refs.Store(1)
	return e, nil
}

// Close drops one hold on the engine (OpenEnv's only one; each precision
// of the front end holds one), closing it with the last.
func (e *Engine) Close() error { return e.release() }
