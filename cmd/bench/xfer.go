package main

import (
	"fmt"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/gocompute/opencl/cl"
	"github.com/gocompute/opencl/internal/par"
	"github.com/gocompute/opencl/platform"
)

// The -xfer report: the rates that bound GEMM from Go slices on this host
// and device. The drop-in path copies Go memory into pinned staging memory
// (pack), DMAs it to the device (upload), and back (download, unpack); this
// measures each of those alone, the driver's own path from pageable Go
// memory, and a pack running while a DMA reads other pinned memory (they
// share the host's memory bandwidth).

// xferReport prints the transfer rates for blocks of mib MiB; it returns
// the first error met (the table shows each).
func xferReport(rt *platform.Runtime, mib int) error {
	size := mib << 20
	ctx := rt.Context()
	q1, err := rt.NewQueue(0)
	if err != nil {
		return err
	}
	defer q1.Release()
	q2, err := rt.NewQueue(0)
	if err != nil {
		return err
	}
	defer q2.Release()

	var pinnedBufs []*cl.Buffer // p1's and p2's buffers, for the kernel probes
	pinned := func() ([]byte, func(), error) {
		b, err := ctx.CreateBuffer(cl.MemReadWrite|cl.MemAllocHostPtr, size)
		if err != nil {
			return nil, nil, err
		}
		host, ev, err := cl.MapBuffer[byte](q1, b, true, cl.MapRead|cl.MapWrite, 0, size)
		if err != nil {
			b.Release()
			return nil, nil, err
		}
		ev.Release()
		pinnedBufs = append(pinnedBufs, b)
		return host, func() {
			if ev, err := cl.UnmapBuffer(q1, b, host); err == nil {
				ev.Wait()
				ev.Release()
			}
			b.Release()
		}, nil
	}
	p1, free1, err := pinned()
	if err != nil {
		return err
	}
	defer free1()
	p2, free2, err := pinned()
	if err != nil {
		return err
	}
	defer free2()
	dev1, err := ctx.CreateBuffer(cl.MemReadWrite, size)
	if err != nil {
		return err
	}
	defer dev1.Release()
	dev2, err := ctx.CreateBuffer(cl.MemReadWrite, size)
	if err != nil {
		return err
	}
	defer dev2.Release()
	g1, g2 := make([]byte, size), make([]byte, size)
	for i := range g1 {
		g1[i] = byte(i)
	}
	copy(g2, g1)
	copy(p1, g1)
	copy(p2, g1)

	// rate runs f three times after a warm-up and returns the median GB/s;
	// the first error is kept for xferReport's result.
	var firstErr error
	fail := func(err error) string {
		if firstErr == nil {
			firstErr = err
		}
		return "error: " + err.Error()
	}
	rate := func(bytes int, f func() error) string {
		if err := f(); err != nil {
			return fail(err)
		}
		var r []float64
		for range 3 {
			t := time.Now()
			if err := f(); err != nil {
				return fail(err)
			}
			r = append(r, float64(bytes)/time.Since(t).Seconds()/1e9)
		}
		slices.Sort(r)
		return fmt.Sprintf("%.1f GB/s", r[1])
	}
	hostCopy := func(dst, src []byte, workers int) func() error {
		return func() error {
			par.For(size, workers, func(lo, hi int) { copy(dst[lo:hi], src[lo:hi]) })
			return nil
		}
	}
	write := func(q *cl.Queue, d *cl.Buffer, src []byte) func() error {
		return func() error { _, err := cl.WriteBuffer(q, d, true, 0, src); return err }
	}
	read := func(q *cl.Queue, d *cl.Buffer, dst []byte) func() error {
		return func() error { _, err := cl.ReadBuffer(q, d, true, 0, dst); return err }
	}
	both := func(fs ...func() error) func() error {
		return func() error {
			errs := make([]error, len(fs))
			var wg sync.WaitGroup
			for i, f := range fs {
				wg.Add(1)
				go func() { defer wg.Done(); errs[i] = f() }()
			}
			wg.Wait()
			for _, err := range errs {
				if err != nil {
					return err
				}
			}
			return nil
		}
	}

	n := runtime.GOMAXPROCS(0)
	fmt.Printf("transfer rates, blocks of %d MiB, %d host threads (GOMAXPROCS)\n", mib, n)
	for _, w := range []int{1, 4, n} {
		fmt.Printf("  host copy Go → Go, %2d goroutines:      %s\n", w, rate(size, hostCopy(g2, g1, w)))
	}
	for _, w := range []int{1, 4, n} {
		fmt.Printf("  host copy Go → pinned, %2d goroutines:  %s\n", w, rate(size, hostCopy(p1, g1, w)))
		fmt.Printf("  host copy pinned → Go, %2d goroutines:  %s\n", w, rate(size, hostCopy(g1, p1, w)))
	}
	xferWriteOnly(ctx, q1, dev1, g1, n, rate, hostCopy, both, write)
	fmt.Printf("  upload from pinned:                    %s\n", rate(size, write(q1, dev1, p1)))
	fmt.Printf("  download into pinned:                  %s\n", rate(size, read(q1, dev1, p1)))
	fmt.Printf("  upload from Go memory (pageable):      %s\n", rate(size, write(q1, dev1, g1)))
	fmt.Printf("  download into Go memory (pageable):    %s\n", rate(size, read(q1, dev1, g1)))
	// The staged GEMM's tiles: 16 KiB rows out of 64 KiB ones (a quarter
	// of the width of a float64 matrix of 8192 columns), packed on the
	// host (row copies, which do not use the non-temporal stores of one
	// large copy) or moved by a rect DMA.
	const wide, narrow = 64 << 10, 16 << 10
	rect := cl.Rect{Region: [3]int{narrow, size / wide, 1}, BufferRowPitch: narrow, HostRowPitch: wide}
	fmt.Printf("  rect upload, 16 KiB rows of 64 KiB:    %s\n", rate(size/4, func() error { _, err := cl.WriteBufferRect(q1, dev1, true, rect, p1); return err }))
	fmt.Printf("  rect download, 16 KiB rows of 64 KiB:  %s\n", rate(size/4, func() error { _, err := cl.ReadBufferRect(q1, dev1, true, rect, p1); return err }))
	// The same column panel packed by the host, row by row: the first
	// 16 KiB of each 64 KiB row, to or from consecutive 16 KiB rows.
	rows := size / wide
	panel := func(dst, src []byte, toPacked bool) func() error {
		return func() error {
			par.For(rows, n, func(lo, hi int) {
				for r := lo; r < hi; r++ {
					p, o := r*narrow, r*wide
					if toPacked {
						copy(dst[p:p+narrow], src[o:o+narrow])
					} else {
						copy(dst[o:o+narrow], src[p:p+narrow])
					}
				}
			})
			return nil
		}
	}
	fmt.Printf("  pack 16 KiB rows of 64 KiB, %2d gor.:   %s\n", n, rate(size/4, panel(p1, g1, true)))
	fmt.Printf("  unpack into 16 KiB of 64 KiB, %2d gor.: %s\n", n, rate(size/4, panel(g1, p1, false)))
	// A buffer over the Go memory itself (CL_MEM_USE_HOST_PTR), created,
	// copied to or from a device buffer, and released: whether the driver
	// DMAs straight from user memory it pins (a way for plain Go slices to
	// skip the pack into staging memory), and what creating it costs.
	over := func(toDevice bool) func() error {
		return func() error {
			flags := cl.MemReadOnly
			if !toDevice {
				flags = cl.MemWriteOnly
			}
			hb, err := cl.CreateBufferOver(ctx, flags, g2)
			if err != nil {
				return err
			}
			defer hb.Release()
			var ev *cl.Event
			if toDevice {
				ev, err = cl.CopyBuffer[byte](q1, hb, dev1, 0, 0, size)
			} else {
				ev, err = cl.CopyBuffer[byte](q1, dev1, hb, 0, 0, size)
			}
			if err != nil {
				return err
			}
			defer ev.Release()
			if toDevice {
				return ev.Wait()
			}
			// The copy is in the Go memory once a map says so.
			host, mev, err := cl.MapBuffer[byte](q1, hb, true, cl.MapRead, 0, size, ev)
			if err != nil {
				return err
			}
			mev.Release()
			uev, err := cl.UnmapBuffer(q1, hb, host)
			if err != nil {
				return err
			}
			defer uev.Release()
			return uev.Wait()
		}
	}
	createOver := func() error {
		hb, err := cl.CreateBufferOver(ctx, cl.MemReadOnly, g2)
		if err != nil {
			return err
		}
		return hb.Release()
	}
	fmt.Printf("  create+release buffer over Go memory:  %s\n", rate(size, createOver))
	fmt.Printf("  upload via buffer over Go memory:      %s\n", rate(size, over(true)))
	fmt.Printf("  download via buffer over Go memory:    %s\n", rate(size, over(false)))
	fmt.Printf("  upload ‖ download, pinned (each):      %s\n", rate(size, both(write(q1, dev1, p1), read(q2, dev2, p2))))
	fmt.Printf("  upload ‖ upload, pinned (each):        %s\n", rate(size, both(write(q1, dev1, p1), write(q2, dev2, p2))))
	kernelCopyReport(rt, q1, q2, dev1, dev2, pinnedBufs[0], pinnedBufs[1], p2, size, rate, both, write)
	fmt.Printf("  pack Go → pinned ‖ upload (each):      %s\n", rate(size, both(hostCopy(p2, g1, n), write(q1, dev1, p1))))
	fmt.Printf("  unpack pinned → Go ‖ download (each):  %s\n", rate(size, both(hostCopy(g1, p2, n), read(q1, dev1, p1))))
	return firstErr
}

// kernelCopyReport prints the rate of a kernel that copies between a device
// buffer and a pinned (CL_MEM_ALLOC_HOST_PTR) one, mapped on the host
// throughout: whether the driver lets kernels reach host memory over the
// bus (zero copy: about the bus's rate) or keeps such buffers on the device
// (the device memory's rate), and whether such a copy runs beside a DMA
// upload at full speed (the DMA engines' limits are not the kernels').
func kernelCopyReport(rt *platform.Runtime, q1, q2 *cl.Queue, dev1, dev2, pin1, pin2 *cl.Buffer, p2 []byte, size int,
	rate func(int, func() error) string, both func(...func() error) func() error,
	write func(*cl.Queue, *cl.Buffer, []byte) func() error) {
	const src = `__kernel void copy16(__global const uint4 *src, __global uint4 *dst) {
	size_t i = get_global_id(0);
	dst[i] = src[i];
}`
	prog, err := rt.Program([]string{src}, "")
	if err != nil {
		fmt.Printf("  kernel copies: %v\n", err)
		return
	}
	k, err := prog.CreateKernel("copy16")
	if err != nil {
		fmt.Printf("  kernel copies: %v\n", err)
		return
	}
	defer k.Release()
	var mu sync.Mutex // SetArgs and the launch belong together
	kcopy := func(q *cl.Queue, from, to *cl.Buffer) func() error {
		return func() error {
			mu.Lock()
			if err := k.SetArgs(from, to); err != nil {
				mu.Unlock()
				return err
			}
			ev, err := q.EnqueueKernel(k, []int{size / 16}, []int{256})
			mu.Unlock()
			if err != nil {
				return err
			}
			defer ev.Release()
			return ev.Wait()
		}
	}
	fmt.Printf("  kernel copy device → device:           %s\n", rate(size, kcopy(q1, dev1, dev2)))
	fmt.Printf("  kernel copy device → pinned buffer:    %s\n", rate(size, kcopy(q1, dev1, pin1)))
	fmt.Printf("  kernel copy pinned buffer → device:    %s\n", rate(size, kcopy(q1, pin1, dev1)))
	fmt.Printf("  kernel → pinned ‖ upload (each):       %s\n", rate(size, both(kcopy(q1, dev1, pin1), write(q2, dev2, p2))))
	fmt.Printf("  copy device → pinned buffer (DMA):     %s\n", rate(size, func() error {
		ev, err := cl.CopyBuffer[byte](q1, dev1, pin2, 0, 0, size)
		if err != nil {
			return err
		}
		defer ev.Release()
		return ev.Wait()
	}))
}

// xferWriteOnly prints the host copy into pinned staging memory that the
// host only writes (CL_MEM_HOST_WRITE_ONLY, which a driver may back with
// write-combined memory: no cache snooping by the DMA, no reads by the
// copies), alone and beside an upload from it.
func xferWriteOnly(ctx *cl.Context, q *cl.Queue, dev *cl.Buffer, g []byte, n int,
	rate func(int, func() error) string, hostCopy func(dst, src []byte, workers int) func() error,
	both func(...func() error) func() error, write func(*cl.Queue, *cl.Buffer, []byte) func() error) {
	size := len(g)
	b, err := ctx.CreateBuffer(cl.MemReadOnly|cl.MemAllocHostPtr|cl.MemHostWriteOnly, size)
	if err != nil {
		fmt.Printf("  host-write-only pinned memory:         %v\n", err)
		return
	}
	defer b.Release()
	host, ev, err := cl.MapBuffer[byte](q, b, true, cl.MapWrite, 0, size)
	if err != nil {
		fmt.Printf("  host-write-only pinned memory, map:    %v\n", err)
		return
	}
	ev.Release()
	defer func() {
		if ev, err := cl.UnmapBuffer(q, b, host); err == nil {
			ev.Wait()
			ev.Release()
		}
	}()
	for _, w := range []int{1, 4, n} {
		fmt.Printf("  host copy Go → write-only pinned, %2d:  %s\n", w, rate(size, hostCopy(host, g, w)))
	}
	fmt.Printf("  upload from write-only pinned:         %s\n", rate(size, write(q, dev, host)))
	fmt.Printf("  pack Go → write-only ‖ upload (each):  %s\n", rate(size/2, both(hostCopy(host[:size/2], g[:size/2], n), write(q, dev, host[size/2:]))))
}
