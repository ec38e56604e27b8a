// A scan over the first half of the block, each step reading a neighbour
// that another thread of the half rewrites in the same step.
__global__ void halfscan(float *out, const float *in) {
  __shared__ float s[64];
  unsigned t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  if (t < 32) {
    for (unsigned d = 1; d < 32; d *= 2) {
      float v = t >= d ? s[t - d] : 0.0f;
      s[t] += v;
    }
  }
  out[t] = s[t];
}
