// The classic shared-memory tree reduction. The loop bound s depends only on
// blockDim, so the loop and its barrier are uniform; the add under tid < s
// and the final store of thread 0 are divergent.
// AUCS-EXPECT: uniform 11 12 16
// AUCS-EXPECT: divergent 15 19

__global__ void reduce_sum(float *out, const float *in) {
  __shared__ float sdata[256];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + tid;
  sdata[tid] = in[i];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}
// Detection: race-free for every launch the search tries (blocks of at
// most 256 threads); each barrier orders the tree's stores and loads.
// AUCS-EXPECT: clean
// Static (aucs detect --static, same launch): out and in are distinct
// buffers; the tree's shared pairs are proven.
// AUCS-EXPECT-STATIC: proof race-free
