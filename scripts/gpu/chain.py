"""chain.py: the floor of one step of trsv_flow's chain (kernels/trsv.cl), a
chain of work-groups each waiting for the one before, written in CUDA and run
through CuPy on the lent machine (no OpenCL in the way: what the hardware
gives, not what our kernel does).

    python3 chain.py

Group b (taken by ticket) waits for flag[b-1], reads x[b-1] (32 values),
forms v = y - G.x (G: a 32-row in registers), stores x[b] and sets flag[b].
Printed: the launch's time over its number of groups, for 128, 256 and 512
groups of 32 work-items, in float the five ways below, in double ocl, acqrel
and ownacq:
  ocl    : work-item 0 polls (volatile), fence, barrier; fence + atomic
           exchange to publish (trsv_flow's way, but with CUDA's
           __threadfence, a GPU-wide fence, where NVIDIA's OpenCL compiles
           trsv_flow's mem_fence to membar.cta)
  own    : every work-item polls for itself (no barrier after the wait)
  acqrel : work-item 0 polls with ld.acquire.gpu, barrier; st.release.gpu
           publishes (no fence of its own)
  ownacq : every work-item polls with ld.acquire.gpu; st.release.gpu publishes
  bare   : ocl without the read of x and the dot product (the flag's trip)
"""
import cupy as cp
import numpy as np

src = r'''
#define TS 32
template <int V, typename T>
__device__ void chain(volatile int* flag, int* ticket, T* x, const T* g, int nblk) {
    __shared__ int tk;
    const int t = threadIdx.x;
    if (t == 0) tk = atomicAdd(ticket, 1);
    __syncthreads();
    const int b = tk;
    if (b >= nblk) return;
    T grow[TS];
    for (int c = 0; c < TS; c++) grow[c] = g[(b * TS + t) * TS + c];
    T v = g[t];
    if (b > 0) {
        if (V == 0 || V == 4) {
            if (t == 0) { while (flag[b - 1] == 0) {} __threadfence(); }
            __syncthreads();
        } else if (V == 1) {
            while (flag[b - 1] == 0) {}
            __threadfence();
        } else if (V == 2) {
            if (t == 0) {
                int f;
                do { asm volatile("ld.acquire.gpu.global.s32 %0, [%1];" : "=r"(f) : "l"(flag + b - 1) : "memory"); } while (f == 0);
            }
            __syncthreads();
        } else {
            int f;
            do { asm volatile("ld.acquire.gpu.global.s32 %0, [%1];" : "=r"(f) : "l"(flag + b - 1) : "memory"); } while (f == 0);
        }
        if (V != 4) {
            volatile T* xp = x + (b - 1) * TS;
            T xs[TS];
            for (int c = 0; c < TS; c++) xs[c] = xp[c];
            for (int c = 0; c < TS; c++) v -= grow[c] * xs[c];
        }
    }
    x[b * TS + t] = v;
    __syncthreads();
    if (t == 0) {
        if (V == 2 || V == 3) {
            asm volatile("st.release.gpu.global.s32 [%0], %1;" :: "l"(flag + b), "r"(1) : "memory");
        } else {
            __threadfence();
            atomicExch((int*)flag + b, 1);
        }
    }
}
extern "C" {
__global__ void c0f(int* f, int* tk, float* x, const float* g, int n) { chain<0>(f, tk, x, g, n); }
__global__ void c1f(int* f, int* tk, float* x, const float* g, int n) { chain<1>(f, tk, x, g, n); }
__global__ void c2f(int* f, int* tk, float* x, const float* g, int n) { chain<2>(f, tk, x, g, n); }
__global__ void c3f(int* f, int* tk, float* x, const float* g, int n) { chain<3>(f, tk, x, g, n); }
__global__ void c4f(int* f, int* tk, float* x, const float* g, int n) { chain<4>(f, tk, x, g, n); }
__global__ void c0d(int* f, int* tk, double* x, const double* g, int n) { chain<0>(f, tk, x, g, n); }
__global__ void c2d(int* f, int* tk, double* x, const double* g, int n) { chain<2>(f, tk, x, g, n); }
__global__ void c3d(int* f, int* tk, double* x, const double* g, int n) { chain<3>(f, tk, x, g, n); }
}
'''
mod = cp.RawModule(code=src, options=("-std=c++14",), name_expressions=None)
names = {"ocl": "c0", "own": "c1", "acqrel": "c2", "ownacq": "c3", "bare": "c4"}
for nblk in (128, 256, 512):
    for prec, dt in (("f", np.float32), ("d", np.float64)):
        for vname, k in names.items():
            try:
                ker = mod.get_function(k + prec)
            except Exception:
                continue
            flag = cp.zeros(nblk, dtype=cp.int32)
            tk = cp.zeros(1, dtype=cp.int32)
            x = cp.zeros(nblk * 32, dtype=dt)
            g = (cp.random.random(nblk * 32 * 32) * 1e-3).astype(dt)
            best = 1e9
            for rep in range(7):
                flag.fill(0); tk.fill(0)
                s, e = cp.cuda.Event(), cp.cuda.Event()
                s.record()
                ker((nblk,), (32,), (flag, tk, x, g, np.int32(nblk)))
                e.record(); e.synchronize()
                best = min(best, cp.cuda.get_elapsed_time(s, e) * 1e3)
            print(f"nblk={nblk:4d} {prec} {vname:7s} {best:9.1f} us  {best / nblk * 1e3:7.0f} ns/step", flush=True)
