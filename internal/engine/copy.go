package engine

import (
	"runtime"
	"unsafe"

	"github.com/gocompute/opencl/internal/par"
)

// copyChunk is the least number of bytes worth a goroutine of its own.
const copyChunk = 2 << 20

// CopyWorkers is the number of goroutines for a copy of bytes bytes.
func CopyWorkers(bytes int) int {
	return max(1, min(runtime.GOMAXPROCS(0), bytes/copyChunk))
}

// Pack copies the rows×cols block at (r0, c0) of the row-major matrix src
// with leading dimension ld into dst, packed (leading dimension cols).
// Only the block is read.
func Pack[T Real](dst, src []T, ld, r0, rows, c0, cols int) {
	if rows == 0 || cols == 0 {
		return
	}
	CopyBlock(dst, cols, src[r0*ld+c0:], ld, rows, cols)
}

// CopyBlock copies the rows×cols block at the start of src (leading
// dimension lds) to the start of dst (leading dimension ldd), on several
// goroutines when it is large. When both are contiguous (ldd = lds = cols)
// it is one copy split evenly, whose pieces of 1 MiB and more Go's copy
// makes with non-temporal stores; row by row, rows shorter than that are
// written through the cache (each destination line is read first).
func CopyBlock[T Real](dst []T, ldd int, src []T, lds int, rows, cols int) {
	if rows == 0 || cols == 0 {
		return
	}
	var zero T
	es := int(unsafe.Sizeof(zero))
	if ldd == cols && lds == cols {
		n := rows * cols
		d, s := dst[:n], src[:n]
		par.For(n, CopyWorkers(n*es), func(lo, hi int) { copy(d[lo:hi], s[lo:hi]) })
		return
	}
	par.For(rows, CopyWorkers(rows*cols*es), func(lo, hi int) {
		for r := lo; r < hi; r++ {
			copy(dst[r*ldd:r*ldd+cols], src[r*lds:r*lds+cols])
		}
	})
}
