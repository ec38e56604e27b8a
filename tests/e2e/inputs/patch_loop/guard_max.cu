// A block maximum after `if (gid >= n) return;`: the repair flattens the
// return (a flag) and makes the tree loop uniform inside the code it
// guards; the patch holds both, the loop's flag starting as `active && ..`.
__global__ void block_max(float *out, const float *in, int n) {
  __shared__ float m[64];
  unsigned t = threadIdx.x;
  int gid = blockIdx.x * blockDim.x + t;
  if (gid >= n)
    return;
  m[t] = in[gid];
  __syncthreads();
  for (unsigned w = blockDim.x / 2; w > 0; w >>= 1) {
    if (t < w)
      m[t] = m[t] > m[t + w] ? m[t] : m[t + w];
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = m[0];
}
