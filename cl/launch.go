package cl

import (
	"errors"
	"fmt"
)

// RoundUp is n rounded up to a multiple of m (m ≥ 1): the global size
// that covers n work-items in groups of m.
func RoundUp(n, m int) int {
	if m <= 1 {
		return n
	}
	return (n + m - 1) / m * m
}

// Launch sets k's arguments to args (as SetArgs: their number must be the
// kernel's), and runs k over global work-items in work-groups of local
// (nil lets the driver choose). Each global size is rounded up to a
// multiple of its local size, so the kernel must skip the work-items past
// the end (if (i >= n) return;). The returned event completes when the
// kernel has run.
//
// As with SetArgs and EnqueueKernel, a Kernel must not be launched from
// two goroutines at once.
func (q *Queue) Launch(k *Kernel, global, local []int, args ...any) (*Event, error) {
	return q.LaunchAfter(nil, k, global, local, args...)
}

// LaunchAfter is Launch that first waits for the events of wait.
func (q *Queue) LaunchAfter(wait []*Event, k *Kernel, global, local []int, args ...any) (*Event, error) {
	if k == nil {
		return nil, &Error{Op: "clEnqueueNDRangeKernel", Code: InvalidKernel}
	}
	if local != nil && len(local) != len(global) {
		return nil, fmt.Errorf("cl: kernel %s: %d global sizes and %d local ones: %w", k.name, len(global), len(local), &Error{Op: "clEnqueueNDRangeKernel", Code: InvalidWorkDimension})
	}
	g := append([]int(nil), global...)
	for i := range local {
		if local[i] > 0 {
			g[i] = RoundUp(g[i], local[i])
		}
	}
	if err := k.SetArgs(args...); err != nil {
		return nil, err
	}
	ev, err := q.EnqueueKernel(k, g, local, wait...)
	if err != nil {
		return nil, k.explainLaunch(q, local, err)
	}
	return ev, nil
}

// explainLaunch adds the kernel's own limit to a work-group size error.
func (k *Kernel) explainLaunch(q *Queue, local []int, err error) error {
	if !errors.Is(err, InvalidWorkGroupSize) || local == nil {
		return err
	}
	info, ierr := k.WorkGroupInfo(q.device)
	if ierr != nil {
		return err
	}
	n := 1
	for _, l := range local {
		n *= l
	}
	return fmt.Errorf("local size %v (%d work-items); the kernel allows at most %d on %s: %w", local, n, info.WorkGroupSize, q.device.Name(), err)
}
