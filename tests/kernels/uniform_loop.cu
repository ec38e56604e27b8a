// Loops whose trip count is the same in every thread (an argument, blockDim):
// their bodies run the same number of times everywhere, so they are uniform
// and a barrier inside them is fine.
// AUCS-EXPECT: uniform 11 12 15 16 18

__global__ void column_sums(float *out, const float *m, int rows) {
  __shared__ float acc[256];
  unsigned tid = threadIdx.x;
  acc[tid] = 0.0f;
  for (int r = 0; r < rows; r++) {
    acc[tid] += m[r * blockDim.x + tid];
    __syncthreads();
  }
  for (unsigned k = 0; k < blockDim.x; k += 32) {
    out[blockIdx.x * blockDim.x + (tid + k) % blockDim.x] = acc[tid];
    __syncthreads();
  }
  out[gridDim.x * blockDim.x + tid] = acc[tid];
}
// Detection, one block: acc[tid] is each thread's own, so the barrier at
// line 12 orders nothing; the one at line 16 orders the stores of one
// rotation step against the next's.
// AUCS-LAUNCH: --grid 1 --block 64 --arg rows=2
// AUCS-EXPECT: redundant-barrier 12
// Static (aucs detect --static, same launch): out and m are distinct
// buffers; the acc pairs are proven.
// AUCS-EXPECT-STATIC: proof race-free
