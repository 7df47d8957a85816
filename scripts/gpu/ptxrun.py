"""ptxrun.py: run a gemm_mma kernel from the PTX NVIDIA's OpenCL built for it,
through CuPy (the CUDA driver loads OpenCL's PTX as it is), so that Nsight
Compute can profile it and CUDA events time it without launch gaps.

    python3 ptxrun.py FILE.ptx PREC N MWG NWG WM WN [REPS [TRANS]]

Square product of n×n random matrices, A and B stored transposed as TRANS
(NN, NT, TN or TT: what the kernel was built for) says; prints GFLOP/s from
CUDA events and the relative error against CuPy's own matmul (a wrong
launch shows there).
"""
import sys

import cupy as cp
import numpy as np

path, prec, n, mwg, nwg, wm, wn = sys.argv[1], *map(int, sys.argv[2:8])
reps = int(sys.argv[8]) if len(sys.argv) > 8 else 10
trans = sys.argv[9] if len(sys.argv) > 9 else "NN"
dt = np.float64 if prec == 64 else np.float32
mod = cp.RawModule(path=path)
ker = mod.get_function("gemm_mma")
rng = cp.random.default_rng(1)
# a and b as stored (row-major, leading dimension n); op(a)·op(b) is the
# product the kernel computes.
a = rng.random((n, n), dtype=dt) - 0.5
b = rng.random((n, n), dtype=dt) - 0.5
op_a = a.T if trans[0] == "T" else a
op_b = b.T if trans[1] == "T" else b
c = cp.zeros((n, n), dtype=dt)
threads = 32 * (mwg // wm) * (nwg // wn)
grid = ((n + nwg - 1) // nwg, (n + mwg - 1) // mwg, 1)
i32 = np.int32
args = (i32(n), i32(n), i32(n), dt(1), a, i32(0), i32(n), b, i32(0), i32(n), dt(0), c, i32(0), i32(n))
ker(grid, (threads, 1, 1), args)
cp.cuda.Device().synchronize()
ref = op_a @ op_b
err = float(cp.linalg.norm(c - ref) / cp.linalg.norm(ref))
start, stop = cp.cuda.Event(), cp.cuda.Event()
start.record()
for _ in range(reps):
    ker(grid, (threads, 1, 1), args)
stop.record()
stop.synchronize()
ms = cp.cuda.get_elapsed_time(start, stop) / reps
print(f"{path}: {trans} prec {prec} n {n} tile {mwg}x{nwg} warp {wm}x{wn}: {2 * n**3 / ms / 1e9:.0f} GFLOP/s ({ms:.3f} ms), rel err {err:.2e}")
