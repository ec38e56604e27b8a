// Scenario: a barrier inside a branch only the first half of the block
// takes: barrier divergence (a deadlock or undefined behaviour on real
// hardware). Moving it to the join leaves the branch's write and read in
// one barrier interval, so aucs deletes it and orders that pair again by
// flattening the branch.
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
