// The helper's second call is under `if (threadIdx.x < 32)`: a barrier in
// the helper's source would be one that half of the block never reaches.
__device__ float pair_sum(float *s, float v, int k) {
  int t = threadIdx.x;
  s[t] = v;
  return v + s[t ^ k];
}

__global__ void pairs(float *out, const float *in) {
  __shared__ float s[128];
  int t = threadIdx.x;
  float x = pair_sum(s, in[t], 1);
  out[t] = x;
  if (t < 32)
    out[64 + t] = pair_sum(s + 64, x, 0);
}
