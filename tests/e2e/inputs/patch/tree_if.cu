// A tree sum whose barrier went inside the `if`: the threads past s skip it
// (barrier divergence). It belongs after the `if`, at the end of the loop
// body, where every thread of each round meets.
__global__ void tree(float *out, const float *in) {
  __shared__ float s[128];
  unsigned t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  for (unsigned h = blockDim.x / 2; h > 0; h >>= 1) {
    if (t < h) {
      s[t] += s[t + h];
      __syncthreads();
    }
  }
  if (t == 0)
    out[blockIdx.x] = s[0];
}
