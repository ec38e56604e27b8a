// Each thread reads back only its own slot: the static checker proves the
// barrier orders nothing, and the patch deletes its line.
__global__ void scale(float *out, const float *in) {
  __shared__ float s[64];
  int t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  out[t] = s[t] * 2.0f;
}
