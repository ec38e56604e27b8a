// A block sum that forgets the `tid == 0` guard on its last store, and
// stores each thread's own partial sum: the threads of a block write
// different values to one global word. The race is not benign (the value
// left depends on which write lands last): it stays an error. The tree
// itself is race-free.
// AUCS-LAUNCH: --grid 2 --block 128
// AUCS-EXPECT: uniform 16 17 21 23 24
// AUCS-EXPECT: divergent 20
// AUCS-EXPECT: race 24 24
// AUCS-EXPECT-STATIC: confirmed 24 24

__global__ void block_sums(float *out, const float *in) {
  __shared__ float s[128];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + tid;
  s[tid] = in[i];
  __syncthreads();
  for (unsigned h = blockDim.x / 2; h > 0; h >>= 1) {
    if (tid < h)
      s[tid] += s[tid + h];
    __syncthreads();
  }
  float mine = s[tid];
  out[blockIdx.x] = mine;
}
