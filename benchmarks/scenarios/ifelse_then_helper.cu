// Scenario: an if/else writes a shared array (each thread its own slot,
// from a different source in each arm); a __device__ helper called
// afterwards reads a neighbour's slot. At -O0 the read sits in the helper:
// the helper's call is inlined into the kernel, and the barrier goes at
// the join of the if/else, before the call's statement.
// BUG: race (shared) between the arms' writes and the helper's read
// EXPECT: fixed
// LAUNCH: --grid 1 --block 64
__device__ int neighbour(const int *s, unsigned t, unsigned n) {
  return s[(t + 1) % n];
}

__global__ void stage(int *out, const int *a, const int *b) {
  __shared__ int s[1024];
  unsigned t = threadIdx.x;
  if (t % 2)
    s[t] = a[t];
  else
    s[t] = b[t];
  out[t] = neighbour(s, t, blockDim.x);
}
