// Race-free: tree reduction with interleaved addressing (the first version
// in the classic CUDA reduction talk). In step s, thread t with t % 2s == 0
// adds sdata[t + s]; the barrier after each step orders that step's stores
// before the next step's loads, and the barrier after the load orders the
// input. Each barrier orders a conflicting pair. Expected: clean, for every
// launch the search tries (power-of-two blocks up to 256).
// AUCS-EXPECT: uniform 14 15 19
// AUCS-EXPECT: divergent 18 22
// AUCS-EXPECT: clean

__global__ void reduce_interleaved(float *out, const float *in) {
  __shared__ float sdata[256];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    if (tid % (2 * s) == 0)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}
// Static (aucs detect --static, same launch): out and in are distinct
// buffers; the tree's shared pairs are proven.
// AUCS-EXPECT-STATIC: proof race-free
