// Nested ifs. A tid test inside a uniform (argument) test, and a uniform
// test inside a tid test: the inner block of the latter runs in only some
// threads, so it is not uniform although its own condition is.
// AUCS-EXPECT: uniform 11 18
// AUCS-EXPECT: divergent 13 15 21

__global__ void nested(int *out, int mode, int n) {
  unsigned tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x + tid;
  if (mode > 0) {
    out[i] = mode;
    if (tid < 32) {
      out[i + n] = 1;
      if (tid < 8)
        out[i + 2 * n] = 2;
    }
  }
  out[i + 3 * n] = 3;
  if (i < n) {
    if (mode == 2)
      out[i + 4 * n] = 4;
  }
}
// Detection, n = blockDim, one block: five disjoint regions, one element
// per thread in each; no barrier.
// AUCS-LAUNCH: --grid 1 --block 64 --arg mode=2 --arg n=64
// AUCS-EXPECT: clean
// Static (aucs detect --static, same launch): one pointer, five disjoint
// affine regions: proved for this launch.
// AUCS-EXPECT-STATIC: proof race-free
