// Scenario: threads past the end of the data return early, and the others
// meet at a barrier later: barrier divergence (threads that returned never
// arrive). The barrier is needed, so aucs keeps the returning threads in:
// the return becomes a flag (`active`), the code after it is guarded by
// it up to the one return at the end, and the barrier stays, in the guard
// every thread (returned or not) now runs.
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
