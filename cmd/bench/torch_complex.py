#!/usr/bin/env python3
"""cuBLAS's complex GEMM through PyTorch, for cmd/bench -complex's tables.

Prints GFLOP/s of C = A·B for square complex matrices (counting 8·n³ real
flops, as cmd/bench -complex does): complex64 with TF32 off (FP32
accuracy: cuBLAS's CGEMM) and complex128 (ZGEMM), the median of timed
repetitions after a warm-up, with CUDA events.

    python3 cmd/bench/torch_complex.py [--sizes 512,1024,2048,4096,8192] [--reps 10]
"""
import argparse
import statistics

import torch


def rate(n, dtype, reps):
    a = torch.randn(n, n, dtype=dtype, device="cuda")
    b = torch.randn(n, n, dtype=dtype, device="cuda")
    c = torch.empty(n, n, dtype=dtype, device="cuda")
    torch.matmul(a, b, out=c)
    torch.cuda.synchronize()
    # Enough calls per repetition to last about 50 ms.
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    torch.matmul(a, b, out=c)
    end.record()
    torch.cuda.synchronize()
    batch = max(1, int(50.0 / max(start.elapsed_time(end), 1e-3)))
    flops = 8.0 * n * n * n * batch
    rates = []
    for _ in range(reps):
        start.record()
        for _ in range(batch):
            torch.matmul(a, b, out=c)
        end.record()
        torch.cuda.synchronize()
        rates.append(flops / (start.elapsed_time(end) * 1e-3) / 1e9)
    return statistics.median(rates)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--sizes", default="512,1024,2048,4096,8192")
    p.add_argument("--reps", type=int, default=10)
    args = p.parse_args()
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    print("device:", torch.cuda.get_device_name(0), "torch", torch.__version__)
    print("%-10s %-6s %12s" % ("routine", "n", "GFLOP/s"))
    for name, dtype in (("Cgemm", torch.complex64), ("Zgemm", torch.complex128)):
        for n in (int(s) for s in args.sizes.split(",")):
            print("%-10s %-6d %12.0f" % (name, n, rate(n, dtype, args.reps)))


if __name__ == "__main__":
    main()
