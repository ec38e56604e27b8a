// The read of the neighbour's slot sits in a helper the kernel calls once.
__device__ float right_of(const float *s, int t) {
  float w = 0.5f;
  return w * s[(t + 1) % 64];
}

__global__ void shift(float *out, const float *in) {
  __shared__ float s[64];
  int t = threadIdx.x;
  s[t] = in[t];
  out[t] = right_of(s, t);
}
