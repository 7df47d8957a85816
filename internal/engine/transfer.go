package engine

// Host↔device transfers of the drop-in path.
//
// A transfer from pageable Go memory is staged by the driver through its
// own pinned bounce buffers and runs far below the bus speed
// (BENCHMARKS.md, "Figures behind the code's choices"). So host data
// goes Go slice → pinned staging → device and back: the staging buffers
// are CL_MEM_ALLOC_HOST_PTR buffers (pinned host memory on NVIDIA, AMD and
// Intel drivers), mapped once when created and kept mapped for their whole
// life, and kept in a pool so that no call creates one after the first.
// Their mapped memory is the host side of ordinary clEnqueueWrite/
// ReadBuffer calls on device buffers, which then DMA at full bus speed.
// The copy between the Go slice and the staging memory packs (or unpacks)
// only the used rows×cols of a matrix with a padded leading dimension, and
// runs on several goroutines when it is large.

// stage borrows a pinned staging buffer of at least n elements of T for
// the call; finish returns it to the pool.
func stage[T Real](c *Call, n int) *Pinned {
	if c.Err != nil {
		return nil
	}
	if err := c.E.Fault.Inject("alloc"); err != nil {
		c.Fail(err)
		return nil
	}
	p, err := c.E.Pinned.Get(max(n, 1) * ElemSize[T]())
	if err != nil {
		c.Fail(err)
		return nil
	}
	c.pinned = append(c.pinned, p)
	return p
}

// Parallel copies between Go slices and staging memory.

// Time accounting of the staged GEMM path.
