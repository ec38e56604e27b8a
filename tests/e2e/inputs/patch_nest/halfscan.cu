// A scan over the first 48 threads of the block, each step reading a
// neighbour that another of them rewrites in the same step (a warp and a
// half: no __syncwarp orders the second warp's pairs with the first's).
__global__ void halfscan(float *out, const float *in) {
  __shared__ float s[64];
  unsigned t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  if (t < 48) {
    for (unsigned d = 1; d < 32; d *= 2) {
      float v = t >= d ? s[t - d] : 0.0f;
      s[t] += v;
    }
  }
  out[t] = s[t];
}
