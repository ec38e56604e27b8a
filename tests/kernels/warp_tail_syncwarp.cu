// Race-free: warp_tail32.cu's tail written for independent thread
// scheduling as developers fix it: each step reads the partner slot into a
// register, __syncwarp(), writes, and __syncwarp() before the next read.
// Every lane of the warp reaches each __syncwarp (the `if` keeps or drops
// whole warps), so the full mask is right, and the static checker proves
// it for the launch given. Expected: clean.
// AUCS-LAUNCH: --grid 1 --block 64
// AUCS-EXPECT: uniform 14 15
// AUCS-EXPECT: divergent 19 21
// AUCS-EXPECT: clean
// AUCS-EXPECT-STATIC: proof race-free
__global__ void tail_synced(float *out, const float *in) {
  __shared__ float s[64];
  unsigned tid = threadIdx.x;
  s[tid] = in[tid];
  __syncthreads();
  if (tid < 32) {
    for (unsigned k = 16; k > 0; k >>= 1) {
      float partner = s[tid + k];
      __syncwarp();
      s[tid] += partner;
      __syncwarp();
    }
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}
