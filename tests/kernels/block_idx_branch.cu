// Branches on blockIdx, blockDim and gridDim: every thread of one block sees
// the same value, so every block here is uniform and may hold a barrier.
// AUCS-EXPECT: uniform 9 11 12 15 16 19 21 22

__global__ void per_block(float *out, const float *in, int n) {
  __shared__ float tile[256];
  unsigned tid = threadIdx.x;
  unsigned base = blockIdx.x * blockDim.x;
  tile[tid] = in[base + tid];
  if (blockIdx.x == 0) {
    tile[tid] = 0.0f;
    __syncthreads();
  }
  if (blockDim.x >= 128) {
    tile[tid] += in[base + blockDim.x - 1 - tid];
    __syncthreads();
  }
  if (blockIdx.x + 1 == gridDim.x)
    out[base + tid] = tile[blockDim.x - 1 - tid];
  if (blockIdx.y > blockIdx.x) {
    out[n + base + tid] = 1.0f;
    __syncthreads();
  }
}
// Detection, two blocks of 128: the barrier at line 16 orders tile stores
// before the mirrored loads of the last block; the one at line 12 runs in
// block 0 only, which is not the last block: it orders nothing. Line 22 is
// not reached (blockIdx.y is 0).
// AUCS-LAUNCH: --grid 2 --block 128 --arg n=256
// AUCS-EXPECT: redundant-barrier 12
// Static (aucs detect --static, same launch): the store at line 9 and the
// load at line 19 share an interval only on the path that skips the
// barrier at line 16, taken when blockDim.x < 128: the threads' paths from
// the interval's start rule it out for blocks of 128. Every pair is proven.
// AUCS-EXPECT-STATIC: proof race-free
