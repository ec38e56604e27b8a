// Scenario: double buffering over chunks: each iteration loads the next
// chunk into one buffer while computing from the other, but the loop has no
// barrier at all: the next chunk's load is read by neighbours before it
// lands, and overwrites a buffer they still read. Fixed by a barrier in the
// (uniform) loop.
// BUG: race (shared) across iterations
// EXPECT: fixed
// LAUNCH: --grid 1 --block 32 --arg chunks=4
__global__ void pipeline(float *out, const float *in, int chunks) {
  __shared__ float buf[2][1024];
  unsigned t = threadIdx.x, n = blockDim.x;
  buf[0][t] = in[t];
  __syncthreads();
  float acc = 0;
  for (int c = 0; c < chunks; c++) {
    int cur = c % 2;
    if (c + 1 < chunks)
      buf[1 - cur][t] = in[(c + 1) * n + t];
    acc += buf[cur][(t + 1) % n];
  }
  out[t] = acc;
}
