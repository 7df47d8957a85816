package engine

import (
	"sync"

	"github.com/gocompute/opencl/internal/gemm"
)

// GemmShape identifies a GEMM problem for the choice cache.
type GemmShape struct {
	Prec, M, N, K int
	Mode          gemm.Tensor
}

// maxChoices bounds the shapes a GemmChoices keeps.
const maxChoices = 4096

// GemmChoices is gemm.Choose memoised per shape: the choice walks the
// tuning database, which would otherwise cost more host time than a small
// GEMM's kernel. At most maxChoices shapes are kept. The zero value is
// empty and ready.
type GemmChoices struct {
	mu sync.RWMutex
	m  map[GemmShape]gemm.Config
}

// Get returns the configuration gemm.Choose picks with db for device d
// and shape s.
func (c *GemmChoices) Get(db *gemm.DB, d gemm.Device, s GemmShape) gemm.Config {
	c.mu.RLock()
	cfg, ok := c.m[s]
	c.mu.RUnlock()
	if ok {
		return cfg
	}
	cfg = gemm.Choose(db, d, s.Prec, s.M, s.N, s.K, s.Mode)
	c.Set(s, cfg)
	return cfg
}

// Set makes cfg the choice for s (tests put configurations there that
// the choice would not make), while fewer than maxChoices are kept.
func (c *GemmChoices) Set(s GemmShape, cfg gemm.Config) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[GemmShape]gemm.Config{}
	}
	if len(c.m) < maxChoices {
		c.m[s] = cfg
	}
}
