// Thread t runs t / 16 + 1 rounds; each round publishes a value for the
// mirrored thread behind a barrier inside the loop.
__global__ void shift(float *out, const float *in) {
  __shared__ float s[64];
  int t = threadIdx.x;
  for (int r = 0; r < t / 16 + 1; r++) {
    float v = in[r * 64 + t] * 2.0f;
    s[t] = v;
    __syncthreads();
    out[r * 64 + t] = s[63 - t] + v;
    __syncthreads();
  }
}
