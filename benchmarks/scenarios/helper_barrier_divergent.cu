// Scenario: at -O0 the barrier sits in a __device__ helper that the kernel
// calls under a divergent branch (the even threads publish their value,
// the odd ones clear their slot). The call is inlined into the kernel (the
// helper stays as it is for other callers) and the divergent barrier in
// the inlined copy is deleted; the race between the slots' writes and the
// neighbour's read after the if/else gets a barrier of its own, where
// every thread reaches it. The source patch makes the same two edits (the
// helper's only call is this one).
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
  if (t % 2 == 0)
    publish(s, t, in[t]);
  else
    s[t] = 0;
  out[t] = s[(t + 1) % blockDim.x];
}
