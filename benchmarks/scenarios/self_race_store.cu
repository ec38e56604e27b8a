// Scenario: GKLEE's "colonel" pattern: one store, executed by every thread
// on the same shared address in one barrier interval. No barrier orders an
// instruction with itself: unfixable; the suggestion is an atomic or a
// per-thread slot.
// BUG: race (shared), one store with itself
// EXPECT: unfixable
// LAUNCH: --grid 1 --block 64
__global__ void last_writer(int *out) {
  __shared__ int winner;
  unsigned t = threadIdx.x;
  winner = t;
  __syncthreads();
  out[t] = winner;
}
