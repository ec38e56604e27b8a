// The helper with the barrier loop has a second caller: the flag cannot be
// passed into it without changing that call too.
__device__ float block_min(float *m, float x) {
  int t = threadIdx.x;
  m[t] = x;
  __syncthreads();
  for (int w = 32; w > 0; w /= 2) {
    if (t < w && m[t + w] < m[t])
      m[t] = m[t + w];
    __syncthreads();
  }
  return m[0];
}

__global__ void low(float *out, const float *in, int n) {
  __shared__ float m[64];
  int i = blockIdx.x * 64 + threadIdx.x;
  if (i >= n)
    return;
  float x = in[i];
  float lo = block_min(m, x);
  out[i] = x - lo;
}

__global__ void low_all(float *out, const float *in) {
  __shared__ float m[64];
  int i = blockIdx.x * 64 + threadIdx.x;
  out[i] = block_min(m, in[i]);
}
