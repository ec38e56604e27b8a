// A helper in a header: each thread writes its slot and reads the next.
__device__ inline float swap_next(float *s, float v) {
  unsigned t = threadIdx.x;
  s[t] = v;
  return s[(t + 1) % blockDim.x];
}
