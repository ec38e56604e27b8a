// A tiled sum whose loop header and last statement each span two lines:
// nothing keeps the next round's load from overwriting a slot another
// thread still reads.
__global__ void long_rows(float *out, const float *in, int rounds) {
  __shared__ float s[64];
  int t = threadIdx.x;
  float acc = 0.0f;
  for (int r = 0;
       r < rounds; r++) {
    s[t] = in[r * 64 + t];
    __syncthreads();
    acc += s[(t + 1) % 64] *
           s[(t + 2) % 64];
  }
  out[t] = acc;
}
