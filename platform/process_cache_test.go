package platform_test

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/gocompute/opencl/platform"
	"github.com/gocompute/opencl/platform/platformtest"
)

// envChild marks a re-executed test binary: it builds heavySource once
// and reports how.
const envChild = "GOCL_TEST_CACHE_CHILD"

// heavySource is a program big enough that compiling it takes visible
// time: a tiled matrix multiply per tile size, unrolled reductions and a
// small FIR filter, each with loops the compiler must unroll and vectorise.
func heavySource() string {
	var b strings.Builder
	for _, ts := range []int{8, 16} {
		fmt.Fprintf(&b, `
__kernel void gemm_t%[1]d(const int M, const int N, const int K,
		__global const float* A, __global const float* B, __global float* C) {
	__local float As[%[1]d][%[1]d];
	__local float Bs[%[1]d][%[1]d];
	const int r = get_local_id(0), c = get_local_id(1);
	const int row = get_group_id(0) * %[1]d + r, col = get_group_id(1) * %[1]d + c;
	float acc = 0.0f;
	for (int t = 0; t < K; t += %[1]d) {
		As[r][c] = (row < M && t + c < K) ? A[row * K + t + c] : 0.0f;
		Bs[r][c] = (t + r < K && col < N) ? B[(t + r) * N + col] : 0.0f;
		barrier(CLK_LOCAL_MEM_FENCE);
		#pragma unroll
		for (int k = 0; k < %[1]d; k++)
			acc = fma(As[r][k], Bs[k][c], acc);
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (row < M && col < N) C[row * N + col] = acc;
}
`, ts)
	}
	for _, w := range []int{4, 8} {
		fmt.Fprintf(&b, `
__kernel void reduce_v%[1]d(const int n, __global const float%[1]d* x, __global float* out, __local float* scratch) {
	float%[1]d acc = (float%[1]d)(0.0f);
	for (int i = get_global_id(0); i < n; i += get_global_size(0))
		acc += x[i] * x[i];
	float s = 0.0f;
	#pragma unroll
	for (int j = 0; j < %[1]d; j++) s += ((float*)&acc)[j];
	const int l = get_local_id(0);
	scratch[l] = s;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (int off = get_local_size(0) / 2; off > 0; off >>= 1) {
		if (l < off) scratch[l] += scratch[l + off];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (l == 0) out[get_group_id(0)] = sqrt(scratch[0]);
}
`, w)
	}
	for _, taps := range []int{8, 16} {
		fmt.Fprintf(&b, `
__kernel void fir%[1]d(const int n, __constant float* h, __global const float* x, __global float* y) {
	const int i = get_global_id(0);
	if (i >= n) return;
	float acc = 0.0f;
	#pragma unroll
	for (int t = 0; t < %[1]d; t++) {
		const int j = i - t;
		acc += (j >= 0 ? x[j] : 0.0f) * h[t];
	}
	y[i] = tanh(acc) + exp(-acc * acc) * sin(acc);
}
`, taps)
	}
	return b.String()
}

// TestDiskCacheAcrossProcesses runs this test binary twice more, as child
// processes sharing one GOCL_CACHE_DIR: the first child compiles the
// program and writes the cache, the second must load it from disk. Both
// build times are logged.
func TestDiskCacheAcrossProcesses(t *testing.T) {
	if os.Getenv(envChild) != "" {
		cacheChild(t)
		return
	}
	platformtest.Device(t)
	dir := t.TempDir()
	child := func() (stats platform.BuildStats, took time.Duration) {
		t.Helper()
		cmd := exec.Command(os.Args[0], "-test.run=^TestDiskCacheAcrossProcesses$", "-test.v", "-test.count=1")
		cmd.Env = append(os.Environ(),
			envChild+"=1",
			platform.EnvCacheDir+"="+dir,
			// PoCL keeps a compiler cache of its own; switch it off so the
			// first child really compiles.
			"POCL_KERNEL_CACHE=0",
		)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("child process: %v\n%s", err, out)
		}
		sc := bufio.NewScanner(bytes.NewReader(out))
		for sc.Scan() {
			line := strings.TrimSpace(sc.Text())
			if i := strings.Index(line, "CHILD "); i >= 0 {
				var ns int64
				if _, err := fmt.Sscanf(line[i:], "CHILD memory=%d disk=%d compiled=%d ns=%d",
					&stats.Memory, &stats.Disk, &stats.Compiled, &ns); err == nil {
					return stats, time.Duration(ns)
				}
			}
		}
		t.Fatalf("child printed no report:\n%s", out)
		return
	}
	s1, t1 := child()
	s2, t2 := child()
	t.Logf("first process (compile):   %v  %+v", t1.Round(time.Millisecond), s1)
	t.Logf("second process (from disk): %v  %+v", t2.Round(time.Millisecond), s2)
	if t2 > 0 {
		t.Logf("the disk cache saved %v (%.1fx)", (t1 - t2).Round(time.Millisecond), float64(t1)/float64(t2))
	}
	if s1 != (platform.BuildStats{Compiled: 1}) {
		t.Errorf("first process: %+v, want one compile", s1)
	}
	if s2 != (platform.BuildStats{Disk: 1}) {
		t.Errorf("second process: %+v, want one disk hit", s2)
	}
}

func cacheChild(t *testing.T) {
	d, err := platform.Default()
	if err != nil {
		t.Fatal(err)
	}
	r, err := platform.NewRuntime(d) // the cache directory comes from GOCL_CACHE_DIR
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	start := time.Now()
	p, err := r.Program([]string{heavySource()}, "-cl-mad-enable")
	took := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	names, err := p.KernelNames()
	if err != nil || len(names) != 6 {
		t.Fatalf("kernels %v, %v; want 6", names, err)
	}
	// Creating the kernels makes drivers that compile lazily finish the job.
	for _, n := range names {
		k, err := p.CreateKernel(n)
		if err != nil {
			t.Fatal(err)
		}
		k.Release()
	}
	s := r.Stats()
	fmt.Printf("CHILD memory=%d disk=%d compiled=%d ns=%d\n", s.Memory, s.Disk, s.Compiled, took.Nanoseconds())
}
