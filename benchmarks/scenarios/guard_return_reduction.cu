// Scenario: the commonest guard in CUDA, `if (gid >= n) return;`, before a
// shared-memory block reduction. With n not a multiple of the block size
// the threads past the end have returned while the others wait at the
// barriers: barrier divergence. The barriers are needed (the tree reads
// other threads' partial sums), so aucs keeps the returning threads in:
// the return becomes a flag (`active`), the code after it runs under it,
// and the barrier stays where it is, now reached by every thread; the
// reduction loop, which only the active threads ran, is uniformized.
// BUG: barrier-divergence after a guard return before a reduction
// EXPECT: fixed
// LAUNCH: --grid 2 --block 64 --arg n=100
__global__ void block_sum(float *out, const float *in, int n) {
  __shared__ float s[64];
  unsigned tid = threadIdx.x;
  int gid = blockIdx.x * blockDim.x + tid;
  if (gid >= n)
    return;
  s[tid] = in[gid];
  __syncthreads();
  for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
    if (tid < k)
      s[tid] += s[tid + k];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}
