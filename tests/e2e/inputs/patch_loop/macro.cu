// The loop comes from a macro: its source form would rewrite the macro.
#define EACH(k, n) for (int k = 0; k < (n); k++)
__global__ void each(float *out, const float *in) {
  __shared__ float s[64];
  int t = threadIdx.x;
  EACH(k, t % 4 + 1) {
    s[t] = in[k * 64 + t];
    __syncthreads();
    out[k * 64 + t] = s[63 - t];
    __syncthreads();
  }
}
