// Block-wide votes: __syncthreads_count and __syncthreads_and return the
// same value in every thread, so branches on them are uniform, unlike a warp
// vote, whose result differs between warps.
// AUCS-EXPECT: uniform 12 13 16
// AUCS-EXPECT: divergent 18

__global__ void majority(int *out, const int *flags) {
  unsigned tid = threadIdx.x;
  int f = flags[blockIdx.x * blockDim.x + tid];
  int votes = __syncthreads_count(f);
  if (votes > (int)blockDim.x / 2) {
    out[blockIdx.x * blockDim.x + tid] = votes;
    __syncthreads();
  }
  if (__syncthreads_and(f != 0))
    out[blockIdx.x] = 1;
  if (__any_sync(0xffffffffu, f > 3))
    out[gridDim.x + blockIdx.x * blockDim.x + tid] = 2;
}
