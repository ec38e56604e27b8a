// Scenario: the GKLEE example the AuCS paper repairs by flattening. Threads
// with an odd index read a[i-1], even ones read a[i+1], in the two arms of
// one if; each writes a[i]. An odd thread reads what its even neighbour
// writes in the other arm, in the same barrier interval. The arms are
// exclusive, so no program point lies between the accesses: only
// flattening the if (each arm guarded, every thread running both guards)
// creates a uniform place for the barrier.
// BUG: race (shared) between the two arms (lines 17 and 19)
// EXPECT: fixed
// LAUNCH: --grid 1 --block 64
__global__ void odd_even(int *out, const int *in) {
  __shared__ int a[65];
  unsigned i = threadIdx.x;
  a[i] = in[i];
  __syncthreads();
  if (i % 2)
    a[i] = a[i - 1] + 1;
  else
    a[i] = a[i + 1] - 1;
  __syncthreads();
  out[i] = a[i];
}
