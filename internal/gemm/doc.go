// Package gemm chooses the GEMM kernel and its parameters for a device
// and a shape. It is pure: it makes no OpenCL call, and takes a plain
// Device description. The GEMM tuning database (kernels/gemm_tuning.json)
// holds measured parameter sets per device, precision and shape bucket; it is
// data, kept apart from the code that uses it: cmd/tune writes entries and
// Choose reads them. The order of the choice, for a device profile, a
// precision and a shape:
//
//  1. Derived: defaults derived from the device's queried limits (the
//     rule for devices the database does not know);
//  2. Tuned: the database's entry for this device, precision and shape,
//     when it has one (it replaces the derived choice);
//  3. MMA: the tensor-core kernel (gemm_mma.cl) on NVIDIA devices of
//     compute capability ≥ 8.0, as the Tensor allows;
//  4. SkinnyRoute: GEMV-shaped calls (m or n == 1) go to the gemv kernels
//     and calls whose few work-groups leave the device idle while k is long
//     are split along K (gemm_skinny.cl).
package gemm
