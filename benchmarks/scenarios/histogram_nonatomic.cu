// Scenario: a shared-memory histogram updated with a plain `++` instead of
// atomicAdd: threads with the same bin race on the read-modify-write. A
// barrier cannot order two threads at the same statement; the repair makes
// the statement one atomic (make-atomic: `atomicAdd(&h[in[t] & 15], 1);`
// in the source patch). The bins come from the input (a data-dependent
// race, a warning by default): --strict counts it.
// BUG: race (shared) on a histogram bin
// EXPECT: fixed
// LAUNCH: --grid 1 --block 64 --strict
__global__ void histogram(int *out, const int *in) {
  __shared__ int h[16];
  unsigned t = threadIdx.x;
  if (t < 16)
    h[t] = 0;
  __syncthreads();
  h[in[t] & 15]++;
  __syncthreads();
  if (t < 16)
    out[t] = h[t];
}
