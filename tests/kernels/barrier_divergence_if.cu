// Barrier divergence, a thread exits while others wait: only the first half
// of the block stages its data and synchronizes; the other half skips the
// block and returns, so the first half waits at a barrier the others never
// reach (undefined behaviour in CUDA). Expected: a barrier divergence at that
// barrier.
// AUCS-LAUNCH: --grid 1 --block 64
// AUCS-EXPECT: divergent 14 15 16
// AUCS-EXPECT: barrier-divergence 15

__global__ void half_sync(float *out, const float *in) {
  __shared__ float s[32];
  unsigned tid = threadIdx.x;
  if (tid < 32) {
    s[tid] = in[tid];
    __syncthreads();
    out[tid] = s[31 - tid];
  }
}
// Static (aucs detect --static, same launch): the barrier is in a divergent
// block, so it separates nothing statically.
// AUCS-EXPECT-STATIC: proof partial
