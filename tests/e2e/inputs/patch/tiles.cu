// A tiled sum: each round loads a tile, waits, and reads a neighbour's
// slot; nothing keeps the next round's load from overwriting a slot
// another thread still reads.
__global__ void tiles(float *out, const float *in, int rounds) {
  __shared__ float s[64];
  int t = threadIdx.x;
  float acc = 0.0f;
  for (int r = 0; r < rounds; r++) {
    s[t] = in[r * 64 + t];
    __syncthreads();
    acc += s[(t + 1) % 64];
  }
  out[t] = acc;
}
