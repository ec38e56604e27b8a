// Scenario: a barrier inside a branch only the first half of the block
// takes: barrier divergence (a deadlock or undefined behaviour on real
// hardware). The threads that skip the branch run to the kernel's end
// (they exited), so aucs keeps them in: the branch is flattened and the
// barrier stays between its write and read, in a guard every thread runs.
// BUG: barrier-divergence
// EXPECT: fixed
// LAUNCH: --grid 1 --block 64
__global__ void half(float *out, const float *in) {
  __shared__ float s[1024];
  unsigned t = threadIdx.x;
  if (t < blockDim.x / 2) {
    s[t] = in[t];
    __syncthreads();
    out[t] = s[blockDim.x / 2 - 1 - t];
  }
}
