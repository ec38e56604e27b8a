// Race-free: the warp-level exchange of race_warp_sync.cu done right, with
// __syncwarp() between the write of a lane's slot and the read of its
// neighbour's: the warp barrier orders the accesses of the threads of one
// warp. Each warp uses its own 32 slots, so warps never share data.
// Expected: clean.
// AUCS-LAUNCH: --grid 1 --block 64
// AUCS-EXPECT: uniform 14 15 16
// AUCS-EXPECT: clean

__global__ void warp_rotate_sync(float *out, const float *in) {
  __shared__ float s[64];
  unsigned tid = threadIdx.x;
  unsigned lane = tid % 32, base = tid - lane;
  s[tid] = in[tid];
  __syncwarp();
  out[tid] = s[base + (lane + 1) % 32];
}
// Static (aucs detect --static, same launch): the full-mask __syncwarp in
// a uniform block ends the interval of a warp, so the store and the load
// are asked for two threads of different warps only, and each warp reads
// its own slots.
// AUCS-EXPECT-STATIC: proof race-free
