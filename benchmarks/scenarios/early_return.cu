// Scenario: threads past the end of the data return early, and the others
// meet at a barrier later: barrier divergence (threads that returned never
// arrive). No uniform point follows the barrier, so aucs deletes it and
// repairs the race it leaves: the block is split between the write and the
// read, the region up to the return flattened, and the barrier put in the
// guard every thread (returned or not) now runs.
// BUG: barrier-divergence after an early return
// EXPECT: fixed
// LAUNCH: --grid 1 --block 64 --arg n=48
__global__ void tail(float *out, const float *in, int n) {
  __shared__ float s[1024];
  unsigned t = threadIdx.x;
  if (t >= n)
    return;
  s[t] = in[t];
  __syncthreads();
  out[t] = s[n - 1 - t];
}
