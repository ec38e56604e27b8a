// Not warp-synchronous: a tail of 64 threads, two warps, with no barrier.
// Lane t of warp 0 reads s[t + 32], which lane t of warp 1 writes in the
// same statement: a race between different warps, which no __syncwarp()
// orders. Expected: the race. `aucs fix` must answer it with a block
// barrier (the if restructured), never __syncwarp()
// (tests/e2e/fix_warp_sync.test).
// AUCS-LAUNCH: --grid 1 --block 128
// AUCS-EXPECT: uniform 15 16
// AUCS-EXPECT: divergent 19
// AUCS-EXPECT: race 19 19

__global__ void tail_cross_warps(float *out, const float *in) {
  __shared__ float s[128];
  unsigned tid = threadIdx.x;
  s[tid] = in[tid];
  __syncthreads();
  if (tid < 64) {
    volatile float *v = s;
    v[tid] += v[tid + 32];
  }
  __syncthreads();
  if (tid == 0)
    out[blockIdx.x] = s[0] + s[32];
}
