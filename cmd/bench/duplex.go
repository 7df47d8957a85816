package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/gocompute/opencl/cl"
	"github.com/gocompute/opencl/platform"
)

// The -duplex report: whether NVIDIA's OpenCL moves data both ways across
// the bus at once. -xfer's blocking upload ‖ download (two goroutines, two
// queues) ran at half the one-way rate each on the H200, while CUDA on the
// same host ran both at nearly the full rate; the GEMM pipeline's uploads
// and downloads share the bus the same way. Each variant here times one
// upload and one download of mib MiB issued together and prints the
// commands' device timestamps, so that it shows whether they ran side by
// side or one after the other.

// duplexReport prints the rate of each way of overlapping an upload and a
// download; it returns the first error met.
func duplexReport(rt *platform.Runtime, mib int) error {
	size := mib << 20
	ctx := rt.Context()
	var firstErr error
	keep := func(err error) error {
		if err != nil && firstErr == nil {
			firstErr = err
		}
		return err
	}
	var release []func()
	defer func() {
		for i := len(release) - 1; i >= 0; i-- {
			release[i]()
		}
	}()
	queue := func(c *cl.Context, props cl.QueueProperties) *cl.Queue {
		q, err := c.CreateQueue(rt.Device().CL(), props)
		if keep(err) != nil {
			return nil
		}
		release = append(release, func() { q.Release() })
		return q
	}
	buffer := func(c *cl.Context, flags cl.MemFlags) *cl.Buffer {
		b, err := c.CreateBuffer(flags, size)
		if keep(err) != nil {
			return nil
		}
		release = append(release, func() { b.Release() })
		return b
	}
	// mapped returns a pinned buffer mapped for the whole report.
	mapped := func(c *cl.Context, q *cl.Queue) ([]byte, *cl.Buffer) {
		b := buffer(c, cl.MemReadWrite|cl.MemAllocHostPtr)
		if b == nil {
			return nil, nil
		}
		host, ev, err := cl.MapBuffer[byte](q, b, true, cl.MapRead|cl.MapWrite, 0, size)
		if keep(err) != nil {
			return nil, nil
		}
		ev.Release()
		release = append(release, func() {
			if ev, err := cl.UnmapBuffer(q, b, host); err == nil {
				ev.Wait()
				ev.Release()
			}
		})
		return host, b
	}
	qu, qd := queue(ctx, cl.QueueProfiling), queue(ctx, cl.QueueProfiling)
	ooo := queue(ctx, cl.QueueProfiling|cl.QueueOutOfOrder)
	hu, _ := mapped(ctx, qu)
	hd, _ := mapped(ctx, qu)
	du, dd := buffer(ctx, cl.MemReadWrite), buffer(ctx, cl.MemReadWrite)
	if firstErr != nil {
		return firstErr
	}

	// run times the commands enq issues (after a warm-up) and prints the
	// rate (bytes moved over the wall time) and each command's span on
	// the device, in ms from the first one's start.
	run := func(name string, bytes int, enq func() ([]*cl.Event, error)) {
		var evs []*cl.Event
		var wall time.Duration
		for range 2 {
			cl.ReleaseAll(evs...)
			t := time.Now()
			var err error
			evs, err = enq()
			if keep(err) != nil {
				cl.ReleaseAll(evs...)
				fmt.Printf("  %-44s error: %v\n", name, err)
				return
			}
			// One by one: a wait list may not mix contexts.
			for _, ev := range evs {
				if keep(ev.Wait()) != nil {
					cl.ReleaseAll(evs...)
					fmt.Printf("  %-44s error: %v\n", name, firstErr)
					return
				}
			}
			wall = time.Since(t)
		}
		defer cl.ReleaseAll(evs...)
		var spans []string
		var t0 uint64
		ps := make([]cl.ProfileTimes, len(evs))
		for i, ev := range evs {
			p, err := ev.Profile()
			if err != nil {
				continue
			}
			ps[i] = p
			if t0 == 0 || p.Start < t0 {
				t0 = p.Start
			}
		}
		for _, p := range ps {
			if p.End > 0 {
				spans = append(spans, fmt.Sprintf("%.1f–%.1f", float64(p.Start-t0)/1e6, float64(p.End-t0)/1e6))
			}
		}
		fmt.Printf("  %-44s %6.1f GB/s over %6.2f ms  [%s]\n", name, float64(bytes)/wall.Seconds()/1e9,
			float64(wall)/1e6, strings.Join(spans, " "))
	}
	flushed := func(evs []*cl.Event, err error, qs ...*cl.Queue) ([]*cl.Event, error) {
		for _, q := range qs {
			if ferr := q.Flush(); err == nil {
				err = ferr
			}
		}
		return evs, err
	}
	// together returns a run's commands: each of cmds enqueued in order,
	// then qs flushed (the events of those enqueued before an error).
	type command = func() (*cl.Event, error)
	together := func(qs []*cl.Queue, cmds ...command) func() ([]*cl.Event, error) {
		return func() ([]*cl.Event, error) {
			var evs []*cl.Event
			for _, c := range cmds {
				ev, err := c()
				if err != nil {
					return evs, err
				}
				evs = append(evs, ev)
			}
			return flushed(evs, nil, qs...)
		}
	}
	up := func(q *cl.Queue, off, n int) command {
		return func() (*cl.Event, error) { return cl.WriteBuffer(q, du, false, off, hu[off:off+n]) }
	}
	down := func(q *cl.Queue, off, n int) command {
		return func() (*cl.Event, error) { return cl.ReadBuffer(q, dd, false, off, hd[off:off+n]) }
	}
	rect := func(q *cl.Queue, write bool, r cl.Rect) command {
		if write {
			return func() (*cl.Event, error) { return cl.WriteBufferRect(q, du, false, r, hu) }
		}
		return func() (*cl.Event, error) { return cl.ReadBufferRect(q, dd, false, r, hd) }
	}
	both := []*cl.Queue{qu, qd}
	fmt.Printf("upload and download at once, %d MiB each way, pinned memory (non-blocking, device timestamps in ms)\n", mib)
	run("upload alone", size, together(both, up(qu, 0, size)))
	run("download alone", size, together(both, down(qd, 0, size)))
	run("upload ‖ download, two queues", 2*size, together(both, up(qu, 0, size), down(qd, 0, size)))
	run("upload ‖ download, one out-of-order queue", 2*size, together([]*cl.Queue{ooo}, up(ooo, 0, size), down(ooo, 0, size)))
	const chunks = 8
	var interleaved []command
	for i := range chunks {
		n := size / chunks
		interleaved = append(interleaved, up(qu, i*n, n), down(qd, i*n, n))
	}
	run("8 chunks each way, two queues, interleaved", 2*size, together(both, interleaved...))
	// Rect transfers, as the GEMM pipeline moves HostSlice panels and
	// tiles: whole 64 KiB rows (a contiguous panel), and 16 KiB rows out
	// of 64 KiB ones (a column panel).
	const pitch = 64 << 10
	wide := cl.Rect{Region: [3]int{pitch, size / pitch, 1}, BufferRowPitch: pitch, HostRowPitch: pitch}
	narrow := cl.Rect{Region: [3]int{16 << 10, size / pitch, 1}, BufferRowPitch: 16 << 10, HostRowPitch: pitch}
	run("rect upload, 64 KiB rows, alone", size, together(both, rect(qu, true, wide)))
	run("rect upload ‖ rect download, 64 KiB rows", 2*size, together(both, rect(qu, true, wide), rect(qd, false, wide)))
	run("rect upload, 16 KiB rows of 64 KiB, alone", size/4, together(both, rect(qu, true, narrow)))
	run("rect up ‖ rect down, 16 KiB rows of 64 KiB", size/2, together(both, rect(qu, true, narrow), rect(qd, false, narrow)))
	// Rect rates by row width and pitch, each way alone.
	for _, pitch := range []int{32 << 10, 64 << 10} {
		for _, row := range []int{4 << 10, 8 << 10, 16 << 10, 32 << 10} {
			if row >= pitch {
				continue
			}
			r := cl.Rect{Region: [3]int{row, size / pitch, 1}, BufferRowPitch: row, HostRowPitch: pitch}
			moved := row * (size / pitch)
			run(fmt.Sprintf("rect upload, %d KiB rows of %d KiB", row>>10, pitch>>10), moved, together(both, rect(qu, true, r)))
			run(fmt.Sprintf("rect download, %d KiB rows of %d KiB", row>>10, pitch>>10), moved, together(both, rect(qd, false, r)))
		}
	}
	// The download waiting for an event of another queue (as the
	// pipeline's downloads wait for the kernels): a user event completed
	// once both are enqueued.
	run("upload ‖ download after a user event", 2*size, func() ([]*cl.Event, error) {
		ue, err := ctx.CreateUserEvent()
		if err != nil {
			return nil, err
		}
		defer ue.Release()
		evs, err := together(both, func() (*cl.Event, error) { return cl.ReadBuffer(qd, dd, false, 0, hd, ue) }, up(qu, 0, size))()
		if serr := ue.SetComplete(); err == nil {
			err = serr
		}
		return evs, err
	})
	// The download by mapping: a pinned buffer whose device copy is newer
	// (a device-side copy wrote it) mapped for reading, which copies it
	// into its host memory, the way the driver keeps such buffers.
	if pm := buffer(ctx, cl.MemReadWrite|cl.MemAllocHostPtr); pm != nil {
		var host []byte
		unmap := func() {
			if host != nil {
				if ev, err := cl.UnmapBuffer(qd, pm, host); keep(err) == nil {
					keep(ev.Wait())
					ev.Release()
				}
				host = nil
			}
		}
		byMap := func(withUpload bool) func() ([]*cl.Event, error) {
			return func() ([]*cl.Event, error) {
				unmap()
				cp, err := cl.CopyBuffer[byte](qd, dd, pm, 0, 0, size)
				if err != nil {
					return nil, err
				}
				keep(cp.Wait())
				cp.Release()
				var evs []*cl.Event
				if withUpload {
					a, err := up(qu, 0, size)()
					if err != nil {
						return nil, err
					}
					evs = append(evs, a)
				}
				h, m, err := cl.MapBuffer[byte](qd, pm, false, cl.MapRead, 0, size)
				if err != nil {
					return evs, err
				}
				host = h
				return flushed(append(evs, m), nil, qu, qd)
			}
		}
		run("download by map alone", size, byMap(false))
		run("upload ‖ download by map", 2*size, byMap(true))
		unmap()
	}
	// A second context on the same device: whether the sharing is the
	// context's (its queues' copies go through one channel) or the
	// device's.
	ctx2, err := cl.CreateContext(rt.Device().CL())
	if keep(err) != nil {
		fmt.Printf("  second context: %v\n", err)
		return firstErr
	}
	release = append(release, func() { ctx2.Release() })
	q2 := queue(ctx2, cl.QueueProfiling)
	h2, _ := mapped(ctx2, q2)
	d2 := buffer(ctx2, cl.MemReadWrite)
	if firstErr != nil {
		return firstErr
	}
	second := []*cl.Queue{qu, q2}
	run("upload ‖ download in a second context", 2*size, together(second, up(qu, 0, size),
		func() (*cl.Event, error) { return cl.ReadBuffer(q2, d2, false, 0, h2) }))
	run("upload ‖ upload in a second context", 2*size, together(second, up(qu, 0, size),
		func() (*cl.Event, error) { return cl.WriteBuffer(q2, d2, false, 0, h2) }))
	return firstErr
}
