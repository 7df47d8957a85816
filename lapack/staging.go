package cllapack

import (
	"errors"
	"fmt"
	"runtime"
	"sync"

	clblas "github.com/gocompute/opencl/blas"
	"github.com/gocompute/opencl/internal/par"
)

// Calls from Go slices move the matrix to the device and back. From
// ordinary (pageable) Go memory a discrete GPU's driver copies it through
// its own small pinned buffers, far below the bus's speed; from pinned
// memory the device reads and writes it by DMA at the bus's speed. So, on
// such devices (stageIO), the matrix goes through one pinned buffer the
// Implementation keeps (grown to the largest matrix met, freed by Close),
// packed into it and unpacked from it by every core. A call that finds the
// buffer taken by another call in flight moves its matrix from Go memory
// as before.

// stager is the kept pinned buffer.
type stager struct {
	mu sync.Mutex
	hs *clblas.HostSlice[float64]
}

// staged holds the pinned buffer for one call: buf has room for the
// call's matrix, packed. release gives it back.
type staged struct {
	impl *Implementation
	buf  []float64
}

// stage returns the pinned buffer with room for n elements, or nil when
// impl does not stage (stageIO off), another call holds it, or it cannot
// be had (the call then moves its matrix from Go memory).
func (impl *Implementation) stage(n int) *staged {
	if !impl.stageIO || !impl.stg.mu.TryLock() {
		return nil
	}
	st := &impl.stg
	if st.hs == nil || len(st.hs.Data()) < n {
		if st.hs != nil {
			st.hs.Release()
			st.hs = nil
		}
		newPinned := impl.newPinned
		if newPinned == nil {
			newPinned = func(n int) (*clblas.HostSlice[float64], error) { return clblas.NewHostSlice[float64](impl.blas, n) }
		}
		hs, err := newPinned(n)
		if err != nil {
			st.mu.Unlock()
			return nil
		}
		st.hs = hs
	}
	return &staged{impl: impl, buf: st.hs.Data()[:n]}
}

func (s *staged) release() { s.impl.stg.mu.Unlock() }

// closeStager frees the pinned buffer (Close).
func (impl *Implementation) closeStager() error {
	impl.stg.mu.Lock()
	defer impl.stg.mu.Unlock()
	if impl.stg.hs == nil {
		return nil
	}
	err := impl.stg.hs.Release()
	impl.stg.hs = nil
	return err
}

// rowsPerWorker is the fewest rows a goroutine of packRows takes: fewer
// cost more to start than they copy.
const rowsPerWorker = 16

// packRows copies the rows×cols matrix src (row stride ls) into dst (row
// stride ld), its rows split across the cores.
func packRows(dst []float64, ld int, src []float64, ls, rows, cols int) {
	workers := min(runtime.GOMAXPROCS(0), max(1, rows/rowsPerWorker))
	par.For(rows, workers, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			copy(dst[i*ld:i*ld+cols], src[i*ls:i*ls+cols])
		}
	})
}

// upload returns a device matrix (new, or kept from an earlier call when
// impl.reuse is set) holding the rows×cols matrix a (row stride lda),
// through the pinned buffer.
func (s *staged) upload(rows, cols, lda int, a []float64) (*clblas.Matrix[float64], error) {
	packRows(s.buf, cols, a, lda, rows, cols)
	if !s.impl.reuse {
		return clblas.NewMatrixFrom(s.impl.blas, rows, cols, s.buf[:rows*cols])
	}
	return newMatrixFrom(s.impl, rows, cols, cols, s.buf[:rows*cols])
}

// download reads the device matrix d into a (row stride lda) through the
// pinned buffer.
func (s *staged) download(d *clblas.Matrix[float64], a []float64, lda int) error {
	rows, cols := d.Dims()
	if err := d.ReadStrided(s.buf[:rows*cols], cols); err != nil {
		return err
	}
	packRows(a, lda, s.buf, cols, rows, cols)
	return nil
}

// hostMatrix moves one call's matrix between a Go slice and the device:
// through the pinned buffer when the Implementation stages and the buffer
// is free, else straight from and into Go memory (newMatrixFrom,
// ReadStrided).
type hostMatrix struct {
	impl       *Implementation
	rows, cols int
	a          []float64
	lda        int
	st         *staged
	// landed is set once the result is in a.
	landed bool
	// checked, on a staged call of keepChecked, delivers whether a holds
	// only finite elements, read on a goroutine beside the device's work;
	// aFinite takes it once into nonFinite.
	checked   chan bool
	nonFinite bool
}

// errNonFinite is a call's answer when its matrix held NaN or Inf and it
// goes to gonum's code instead (see keepChecked).
var errNonFinite = errors.New("cllapack: the matrix holds NaN or Inf")

func (impl *Implementation) hostMatrix(rows, cols int, a []float64, lda int) *hostMatrix {
	return &hostMatrix{impl: impl, rows: rows, cols: cols, a: a, lda: lda, st: impl.stage(rows * cols)}
}

// keep starts the background copy of the matrix that a device failure
// needs to finish the call on the CPU from the original (saveAsync), or
// returns nil when the matrix is staged: the staged download writes a
// only after the device's result has been read whole, so until then a
// failure leaves a as it was.
func (h *hostMatrix) keep() *saved {
	if h.st != nil {
		return nil
	}
	return saveAsync(h.rows, h.cols, h.a, h.lda)
}

// keepChecked is keep for calls whose matrix, when it holds NaN or Inf,
// goes to gonum's code: the background copy is also read for them
// (saveCheckedAsync), and a staged call, which keeps no copy, reads a for
// them on a goroutine of its own; its download then refuses to land the
// result with errNonFinite, a as it was. Nothing writes a before done or
// download has waited for that goroutine.
func (h *hostMatrix) keepChecked() *saved {
	if h.st != nil {
		h.checked = make(chan bool, 1)
		go func() { h.checked <- allFinite(h.rows, h.cols, h.a, h.lda) }()
		return nil
	}
	return saveCheckedAsync(h.rows, h.cols, h.a, h.lda)
}

// aFinite waits for keepChecked's reading of a staged call's a, if any,
// and reports whether a holds only finite elements.
func (h *hostMatrix) aFinite() bool {
	if h.checked != nil {
		h.nonFinite = !<-h.checked
		h.checked = nil
	}
	return !h.nonFinite
}

// upload returns the device copy of the matrix.
func (h *hostMatrix) upload() (*clblas.Matrix[float64], error) {
	if h.st == nil {
		return newMatrixFrom(h.impl, h.rows, h.cols, h.lda, h.a)
	}
	return h.st.upload(h.rows, h.cols, h.lda, h.a)
}

// download reads d back into the matrix; op names the call in errors.
func (h *hostMatrix) download(d *clblas.Matrix[float64], op string) error {
	var err error
	switch {
	case h.st == nil:
		err = d.ReadStrided(h.a, h.lda)
	case !h.aFinite():
		return errNonFinite
	default:
		err = h.st.download(d, h.a, h.lda)
	}
	if err != nil {
		return fmt.Errorf("cllapack: %s: reading the result: %w", op, err)
	}
	h.landed = true
	return nil
}

// finish returns a call's error from err, its own, and rerr, the release
// of its device matrix after it: once the result has landed in a, a
// failed release does not make the call fail (a holds the answer, and a
// call finished again on the CPU would factorise the factors): it is
// logged.
func (h *hostMatrix) finish(op string, err, rerr error) error {
	if err != nil || rerr == nil {
		return err
	}
	if h.landed {
		h.impl.logger.Warn("cllapack: releasing the device matrix after the result", "routine", op, "err", rerr)
		return nil
	}
	return rerr
}

// done gives the pinned buffer back, once keepChecked's reading of a, if
// any, is over.
func (h *hostMatrix) done() {
	h.aFinite()
	if h.st != nil {
		h.st.release()
		h.st = nil
	}
}
