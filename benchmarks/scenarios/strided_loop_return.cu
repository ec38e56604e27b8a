// Scenario: a block walks its slice of the data in tiles; a thread whose
// element lies past the end returns from inside the loop, and the others
// meet at the loop's barriers: barrier divergence. aucs uniformizes the
// loop (the return clears `active`, the loop runs while any thread is
// active) and keeps the barriers, each in a guard every thread runs.
// BUG: barrier-divergence after a return inside a strided loop
// EXPECT: fixed
// LAUNCH: --grid 2 --block 64 --arg n=256 --arg m=300
__global__ void tiles(float *out, const float *in, int n, int m) {
  __shared__ float s[64];
  unsigned tid = threadIdx.x;
  for (int base = 0; base < n; base += 64) {
    int i = blockIdx.x * n + base + tid;
    if (i >= m)
      return;
    s[tid] = in[i];
    __syncthreads();
    out[i] = s[63 - tid];
    __syncthreads();
  }
}
