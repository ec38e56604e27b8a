// A block-wide sum, the way many CUDA tutorials write it, with the bug they
// often have: the last warp finishes the sum without any barrier, trusting
// warp-synchronous execution that Volta and later GPUs no longer give.
//
//   scripts/example          # runs aucs on this file
//   aucs facts examples/reduce.cu
__global__ void block_sum(const float *in, float *out, int n) {
  __shared__ float partial[1024];
  unsigned t = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + t;
  partial[t] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
    if (t < s)
      partial[t] += partial[t + s];
    __syncthreads();
  }
  if (t < 32) {
    for (unsigned s = 32; s > 0; s >>= 1)
      partial[t] += partial[t + s];
  }
  if (t == 0)
    out[blockIdx.x] = partial[0];
}
