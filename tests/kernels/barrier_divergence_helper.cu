// Barrier divergence through a __device__ helper that holds a barrier: the
// helper loads a tile and synchronizes, and the kernel calls it only from
// the threads whose input is in range, so with n not a multiple of the block
// size the threads past n return while the others wait inside the helper.
// Expected: a barrier divergence at the helper's barrier (its line at both
// levels).
// AUCS-LAUNCH: --grid 1 --block 64 --arg n=40
// AUCS-EXPECT: divergent 22
// AUCS-EXPECT-O2: divergent 13 14
// AUCS-EXPECT: barrier-divergence 14

__device__ float load_tile(float *tile, const float *in, unsigned tid) {
  tile[tid] = in[tid];
  __syncthreads();
  return tile[(tid + 1) % 64];
}

__global__ void guarded_tile(float *out, const float *in, int n) {
  __shared__ float tile[64];
  unsigned tid = threadIdx.x;
  if (tid < n)
    out[tid] = load_tile(tile, in, tid);
}
// Static (aucs detect --static, same launch): the barrier is in a divergent
// helper call, so it separates nothing statically.
// AUCS-EXPECT-STATIC: proof partial
