// Each round loads a tile and copies a neighbour's slot out, in a
// statement of two lines: nothing keeps the next round's load from
// overwriting a slot another thread still reads.
__global__ void long_stmt(float *out, const float *in, int rounds) {
  __shared__ float s[64];
  int t = threadIdx.x;
  for (int r = 0; r < rounds; r++) {
    s[t] = in[r * 64 + t];
    __syncthreads();
    out[r * 64 + t] =
        s[(t + 1) % 64] * 0.5f;
  }
}
