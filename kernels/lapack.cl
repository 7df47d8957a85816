// lapack.cl — helpers of the device LAPACK (package cllapack), built after
// common.cl with PRECISION=32|64.
//
// Matrices are row-major with row stride lda, as in gonum; offsets are long
// and index products are computed in long, so a matrix may span more than
// 2^31 elements.

// laswp applies the row interchanges of one panel, in order: for
// i = k1, …, k2−1, row i is exchanged with row ipiv[i] (absolute row
// numbers), over the cols columns starting at element off of a. One
// work-item per column, so neighbouring work-items touch neighbouring
// elements of a row, and the interchanges of a column run in order.
__kernel void laswp(__global real *a, long off, int lda, int cols, int k1,
                    int k2, __global const int *ipiv) {
  int j = get_global_id(0);
  if (j >= cols)
    return;
  __global real *c = a + off + j;
  for (int i = k1; i < k2; i++) {
    int p = ipiv[i];
    if (p != i) {
      real t = c[(long)i * lda];
      c[(long)i * lda] = c[(long)p * lda];
      c[(long)p * lda] = t;
    }
  }
}
