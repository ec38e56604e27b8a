// A warp-synchronous exchange without __syncwarp: the threads of one warp
// write a shared slot each, then read another lane's slot, relying on the
// warp running in lockstep. Since Volta, threads of a warp are scheduled
// independently, so this is a race (the default model); warp_syncwarp.cu is
// the fixed version. Expected: a race between the store and the load.
// AUCS-LAUNCH: --grid 1 --block 32
// AUCS-EXPECT: uniform 13 14
// AUCS-EXPECT: race 13 14

__global__ void warp_rotate(float *out, const float *in) {
  __shared__ float s[32];
  unsigned lane = threadIdx.x % 32;
  s[lane] = in[threadIdx.x];
  out[threadIdx.x] = s[(lane + 1) % 32];
}
// Static (aucs detect --static, same launch): the store and the neighbour
// load race; the witness replays it.
// AUCS-EXPECT-STATIC: confirmed 13 14
