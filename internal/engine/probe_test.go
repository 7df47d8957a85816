package engine

import (
	"errors"
	"testing"
)

func TestFaultsAndLaunches(t *testing.T) {
	var f Faults
	if err := f.Inject("alloc"); err != nil {
		t.Fatalf("no hook: %v", err)
	}
	boom := errors.New("boom")
	fn := func(site string) error {
		if site == "kernel" {
			return boom
		}
		return nil
	}
	f.Store(&fn)
	if f.Inject("alloc") != nil || f.Inject("kernel") != boom {
		t.Error("the hook's answers are not passed on")
	}
	f.Store(nil)
	if f.Inject("kernel") != nil {
		t.Error("a cleared hook still fails")
	}

	var l Launches
	l.Count("Dgemm")
	l.Count("Dgemm")
	l.Count("Sdot")
	if l.Of("Dgemm") != 2 || l.Of("Sdot") != 1 || l.Of("Daxpy") != 0 {
		t.Errorf("counts %d %d %d, want 2 1 0", l.Of("Dgemm"), l.Of("Sdot"), l.Of("Daxpy"))
	}
}
