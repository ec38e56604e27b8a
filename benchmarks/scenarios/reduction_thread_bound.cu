// Scenario (kaldi _add_diag_mat_mat style): a tree reduction whose starting
// stride depends on the thread (the first two warps start at a smaller
// stride), so its trip count differs between threads and the barrier in
// it is divergent. aucs uniformizes the loop (it runs while
// __syncthreads_or(active)), and the barrier goes inside it.
// BUG: barrier-divergence in a reduction loop with a thread-dependent bound
// EXPECT: fixed
// LAUNCH: --grid 1 --block 128
__global__ void diag_sum(float *out, const float *in) {
  __shared__ float p[256];
  unsigned t = threadIdx.x;
  p[t] = in[t];
  __syncthreads();
  unsigned start = t < 64 ? 64 : blockDim.x;
  for (unsigned s = start / 2; s > 0; s >>= 1) {
    if (t < s)
      p[t] += p[t + s];
    __syncthreads();
  }
  if (t == 0)
    out[0] = p[0];
}
