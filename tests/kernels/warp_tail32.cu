// A warp-synchronous reduction tail in a block of one warp (32 threads):
// after the block-wide steps, the last 32 partial sums are added by the
// threads of one warp with no barrier, relying on lockstep execution
// (volatile only keeps the compiler from caching the slots). Since Volta
// the lanes of a warp are scheduled independently: lane t reads s[t + 16]
// while lane t + 16 writes it, in the same statement. Expected: races
// within each step (its read of the partner slot against the partner's
// write). `aucs fix` answers with __syncwarp() (repair/warpsync.c;
// tests/e2e/fix_warp_sync.test).
// (The first step's reads race with every later step's writes: lane 0
// reads s[16], s[8], ... before the lanes that own them write.)
// AUCS-LAUNCH: --grid 1 --block 32
// AUCS-EXPECT: uniform 24 26
// AUCS-EXPECT: divergent 29 30 33
// AUCS-EXPECT: race 29 29
// AUCS-EXPECT: race 29 30
// AUCS-EXPECT: race 29 31
// AUCS-EXPECT: race 29 32
// AUCS-EXPECT: race 29 33

__global__ void tail_one_warp(float *out, const float *in) {
  __shared__ float s[64];
  unsigned tid = threadIdx.x;
  s[tid] = in[tid] + in[tid + 32];
  s[tid + 32] = 0.0f;
  __syncthreads();
  if (tid < 32) {
    volatile float *v = s;
    v[tid] += v[tid + 16];
    v[tid] += v[tid + 8];
    v[tid] += v[tid + 4];
    v[tid] += v[tid + 2];
    v[tid] += v[tid + 1];
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}
