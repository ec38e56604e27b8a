// A tid-dependent if: only the lower half of the block stores. The code
// before the if and after its join runs in every thread.
// AUCS-EXPECT: uniform 10 13 14
// AUCS-EXPECT: divergent 12

__global__ void lower_half(int *out, int *count) {
  unsigned tid = threadIdx.x;
  unsigned half = blockDim.x / 2;
  int base = blockIdx.x * blockDim.x;
  count[blockIdx.x] = base;
  if (tid < half)
    out[base + tid] = tid;
  __syncthreads();
  out[base + blockDim.x + tid] = half;
}
