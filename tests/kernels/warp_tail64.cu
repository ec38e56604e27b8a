// The warp-synchronous tail as a loop, in a block of two warps: the first
// warp halves the live slots with no barrier, `if (tid < k)` narrowing the
// lanes each round, while the second warp skips the tail. Round k's write
// of s[t] (lane t, k/2 <= t < k) races with round k/2's read of it by lane
// t - k/2: threads of one warp, unordered since Volta. Expected: the race
// (the store and the load of the one statement, across rounds). `aucs fix`
// puts a full-mask __syncwarp() at the end of the loop body, which every
// lane of the first warp reaches each round (tests/e2e/fix_warp_sync.test).
// AUCS-LAUNCH: --grid 1 --block 64
// AUCS-EXPECT: uniform 17 18
// AUCS-EXPECT: divergent 22
// AUCS-EXPECT: race 22 22

__global__ void tail_two_warps(float *out, const float *in) {
  __shared__ float s[64];
  unsigned tid = threadIdx.x;
  s[tid] = in[tid] + in[tid + 64];
  __syncthreads();
  if (tid < 32) {
    for (unsigned k = 32; k > 0; k >>= 1) {
      if (tid < k)
        s[tid] += s[tid + k];
    }
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}
