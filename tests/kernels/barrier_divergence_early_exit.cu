// Barrier divergence from the early-exit bounds check: threads past the end
// of the data return at the top of the kernel, and the rest stage a shared
// tile and synchronize. With n not a multiple of the block size the last
// block's tail has returned while its other threads wait. The first block is
// full and correct. Expected: a barrier divergence at that barrier (the
// barrier is needed in the full block: not redundant).
// AUCS-LAUNCH: --grid 2 --block 64 --arg n=100
// AUCS-EXPECT: divergent 17 18 19
// AUCS-EXPECT: barrier-divergence 18

__global__ void reverse_tail(float *out, const float *in, int n) {
  __shared__ float tile[64];
  unsigned tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x + tid;
  if (i >= n)
    return;
  tile[tid] = in[i];
  __syncthreads();
  out[i] = tile[blockDim.x - 1 - tid];
}
// Static (aucs detect --static, same launch): the barrier is in a divergent
// block, so it separates nothing statically (the divergence is the dynamic
// finding).
// AUCS-EXPECT-STATIC: proof partial
