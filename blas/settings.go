package clblas

import (
	"fmt"
	"os"

	eng "github.com/gocompute/opencl/internal/engine"
	"github.com/gocompute/opencl/internal/gemm"
	"github.com/gocompute/opencl/internal/settings"
)

// The settings (internal/settings has the table): New reads every GOCL_*
// variable once, with one grammar; an invalid value is an error naming the
// variable and what it accepts. A With… option takes precedence over its
// variable, which is then not read.

// WithGemmTuning makes GEMM choose its kernels from the tuning database in
// the file path (the JSON cmd/tune -out writes) instead of the built-in
// one; "" means the built-in one. A file that cannot be read or parsed is
// an error from New. It takes precedence over GOCL_GEMM_TUNING.
func WithGemmTuning(path string) Option {
	return func(c *config) { c.setting(settings.GemmTuning, path) }
}

// WithGemmPipeline sets how GEMM moves Go slices to and from a device with
// memory of its own, in GOCL_GEMM_PIPELINE's words: a comma-separated list
// of auto, on, off, tile=N, slab=off, slab=N and timeline=FILE. An invalid
// spec is an error from New. It takes precedence over GOCL_GEMM_PIPELINE.
func WithGemmPipeline(spec string) Option {
	return func(c *config) { c.setting(settings.GemmPipeline, spec) }
}

// WithZeroCopy sets whether level 3 kernels work on the caller's slices in
// place on devices that report memory unified with the host's (on), or
// copy them everywhere (off). Without it the default (GOCL_ZERO_COPY=auto)
// works in place on CPU devices only. It takes precedence over
// GOCL_ZERO_COPY.
func WithZeroCopy(on bool) Option {
	v := "off"
	if on {
		v = "on"
	}
	return func(c *config) { c.setting(settings.ZeroCopy, v) }
}

// WithL2HostShare sets whether GEMV and GER on Go slices, on a device with
// memory of its own, let the host compute rows beside the device while the
// matrix streams to it (on), or send every row to the device (off).
// Without it the default (GOCL_L2_SHARE=auto) shares. It takes precedence
// over GOCL_L2_SHARE.
func WithL2HostShare(on bool) Option {
	v := "off"
	if on {
		v = "auto"
	}
	return func(c *config) { c.setting(settings.L2Share, v) }
}

// WithCacheDir keeps compiled program binaries in dir, an absolute path,
// when New creates the runtime (not with WithRuntime). It takes precedence
// over GOCL_CACHE_DIR.
func WithCacheDir(dir string) Option {
	return func(c *config) { c.setting(settings.CacheDir, dir) }
}

// setting records an option's value for the setting called name.
func (c *config) setting(name, v string) {
	if c.options == nil {
		c.options = map[string]string{}
	}
	c.options[name] = v
}

// readSettings reads the environment (lookup) for every setting no option
// overrides, checks the options' values, and fills in cfg's policy and
// engine options.
func (cfg *config) readSettings(lookup func(string) (string, bool)) error {
	skip := make([]string, 0, len(cfg.options)+2)
	for name := range cfg.options {
		skip = append(skip, name)
	}
	if cfg.policySet {
		skip = append(skip, settings.Offload)
	}
	if cfg.tensorSet {
		skip = append(skip, settings.Tensor)
	}
	env, err := settings.Read(lookup, skip...)
	if err != nil {
		return fmt.Errorf("clblas: %w", err)
	}
	for name, v := range cfg.options {
		s, _ := settings.Lookup(name)
		if err := s.Check(v); err != nil {
			return fmt.Errorf("clblas: the option for %w", err)
		}
		env[name] = v
	}
	return cfg.apply(env)
}

// apply turns checked values into cfg's policy and engine options.
func (cfg *config) apply(env settings.Env) error {
	o, err := eng.EnvOptions(env)
	if err != nil {
		return fmt.Errorf("clblas: %w", err)
	}
	o.Device, o.Runtime = cfg.device, cfg.runtime
	if v := env.Get(settings.Offload); !cfg.policySet && v != "" {
		p, _ := ParsePolicy(v) // checked
		cfg.policy = p
	}
	if cfg.tensorSet {
		o.Tensor = gemm.Tensor(cfg.tensor) // the same values
	}
	cfg.engine = o
	return nil
}

// readSettingsEnv is readSettings on the process's environment.
func (cfg *config) readSettingsEnv() error { return cfg.readSettings(os.LookupEnv) }
