// A same-value race (every row y of the block writes bias[c] = g[c]) in a
// kernel whose runs are slow: the busy loop makes one run outlast a short
// time budget, so the search spends it. Whether the race is benign must
// not depend on that: its proof comes after the runs.
__global__ void slow_bias(const float *__restrict__ g, float *__restrict__ out,
                          int rounds) {
  __shared__ float bias[64];
  int c = threadIdx.x, y = threadIdx.y;
  bias[c] = g[c];
  __syncthreads();
  float acc = 0.0f;
  for (int i = 0; i < rounds; i++)
    acc = acc * 0.5f + bias[(c + i) % 64];
  out[y * 64 + c] = acc;
}
