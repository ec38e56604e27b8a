// A block sum in a helper the kernel calls twice: the barrier between a
// round's write and its partner's read is missing in the helper's loop.
__device__ int block_sum(int *buf, int v) {
  int t = threadIdx.x;
  for (int half = 32; half > 0; half /= 2) {
    buf[t] = v;
    if (t < half)
      v += buf[t + half];
    __syncthreads();
  }
  return v;
}

__global__ void sums(int *out, const int *a, const int *b) {
  __shared__ int buf[64];
  int t = threadIdx.x;
  int x = block_sum(buf, a[t]);
  int y = block_sum(buf, b[t]);
  if (t == 0)
    out[0] = x + y;
}
