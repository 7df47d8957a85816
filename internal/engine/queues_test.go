package engine

import (
	"errors"
	"testing"

	"github.com/gocompute/opencl/platform/platformtest"
)

// TestPipeQueues: three distinct queues, made once; ErrClosed after Close.
func TestPipeQueues(t *testing.T) {
	rt := platformtest.Runtime(t)
	var p PipeQueues
	up, comp, down, err := p.Get(rt)
	if err != nil {
		t.Fatal(err)
	}
	if up == comp || comp == down || up == down || up == rt.Queue() {
		t.Error("the pipeline's queues are not three queues of their own")
	}
	if u2, c2, d2, err := p.Get(rt); err != nil || u2 != up || c2 != comp || d2 != down {
		t.Errorf("a second Get made other queues (%v)", err)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := p.Get(rt); !errors.Is(err, ErrClosed) {
		t.Errorf("Get after Close: %v, want ErrClosed", err)
	}
}
