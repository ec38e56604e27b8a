// An early return before a loop over tiles with barriers: the returned
// threads miss the barriers. The return becomes a flag, and the loop,
// which only the active threads ran, becomes
// `while (__syncthreads_or(active2))` with `active2 = active && (COND)`.
__global__ void tile_dot(float *out, const float *a, const float *b, int n,
                         int len) {
  __shared__ float s[64];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  if (i >= n)
    return;
  float acc = 0.0f;
  for (int k = 0; k < len; k += 64) {
    s[t] = b[k + t];
    __syncthreads();
    acc += a[i] * s[(t + 1) % 64];
    __syncthreads();
  }
  out[i] = acc;
}
