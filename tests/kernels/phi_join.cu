// Values merged at joins. Choosing between two uniform values by a tid test
// yields a varying value, so a later branch on it diverges; choosing by a
// uniform test yields a uniform value.
// AUCS-EXPECT: uniform 14 21 22
// AUCS-EXPECT: divergent 16

__global__ void select_source(int *out, int a, int b) {
  unsigned tid = threadIdx.x;
  int x;
  if (tid & 1)
    x = a;
  else
    x = b;
  out[tid] = 0;
  if (x > 0)
    out[blockDim.x + tid] = x;
  int y = a;
  if (b > 3)
    y = a + b;
  if (y > 7) {
    out[2 * blockDim.x + tid] = y;
    __syncthreads();
  }
}
// Detection: y = a + b = 9 > 7, so every thread stores its own elements
// and passes the barrier, which orders nothing.
// AUCS-LAUNCH: --grid 1 --block 64 --arg a=5 --arg b=4
// AUCS-EXPECT: redundant-barrier 22
// Static (aucs detect --static, same launch): one pointer, disjoint affine
// regions: proved for this launch.
// AUCS-EXPECT-STATIC: proof race-free
