// Scenario: every block accumulates into the same global cell without an
// atomic: an inter-block race. __syncthreads() orders one block only:
// unfixable, with the suggestion of an atomic, a grid sync or a kernel
// split.
// BUG: inter-block-race (global)
// EXPECT: unfixable
// LAUNCH: --grid 2 --block 32
__global__ void total(int *sum, const int *in) {
  __shared__ int s[1024];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  if (t == 0) {
    int acc = 0;
    for (unsigned i = 0; i < blockDim.x; i++)
      acc += s[i];
    sum[0] += acc;
  }
}
