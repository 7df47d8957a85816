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

// tri_band copies, between the n×n matrix at element off of a (row stride
// lda) and the n×bw matrix at element soff of s (row stride lds), the
// elements strictly on one side of the diagonal and at most bw from it:
// (i, i−t) when lower != 0, else (i, i+t), t = 1, …, bw, held in
// s[soff + i·lds + t−1]. save != 0 copies them into s, else
// back into a. Potrf's trailing updates overwrite that band of the triangle
// it does not reference (a GEMM computes each slab's diagonal square in
// full), and this kernel saves it before and restores it after. One
// work-item per element: dimension 0 is t−1, dimension 1 is i.
__kernel void tri_band(int n, int bw, int lower, int save, __global real *a,
                       long off, int lda, __global real *s, long soff,
                       int lds) {
  int t = get_global_id(0) + 1;
  int i = get_global_id(1);
  if (t > bw || i >= n)
    return;
  int j = lower ? i - t : i + t;
  if (j < 0 || j >= n)
    return;
  __global real *e = a + off + (long)i * lda + j;
  __global real *x = s + soff + (long)i * lds + (t - 1);
  if (save)
    *x = *e;
  else
    *e = *x;
}
