// A two-lane vector per thread: the plain assignment stores a whole
// vector, which `decltype(+*ref)` cannot name; the loop stays IR only.
typedef float pair2 __attribute__((ext_vector_type(2)));
__global__ void pairs(float *out, const float *in) {
  __shared__ pair2 p[64];
  int t = threadIdx.x;
  p[t] = (pair2){in[t], in[t + 64]};
  __syncthreads();
  for (int r = 0; r < t % 3 + 1; r++)
    p[t] = p[t] + p[(t + 1) % 64];
  __syncthreads();
  out[t] = p[t].x + p[t].y;
}
