// Scenario: at -O0 the barrier sits in a __device__ helper that the kernel
// calls under a divergent branch. The call is inlined into the kernel (the
// helper stays as it is for other callers), then the threads that skip
// the call are kept in (flattening through the exit, the barrier kept in a
// guard every thread runs); the race that leaves after the call gets a
// barrier of its own, and the kept one is then proved redundant.
// BUG: barrier-divergence in a helper
// EXPECT: fixed
// LAUNCH: --grid 1 --block 64
__device__ void publish(int *s, unsigned t, int v) {
  s[t] = v;
  __syncthreads();
}

__global__ void gather(int *out, const int *in) {
  __shared__ int s[1024];
  unsigned t = threadIdx.x;
  if (in[t] > 0)
    publish(s, t, in[t]);
  else
    s[t] = 0;
  out[t] = s[(t + 1) % blockDim.x];
}
