// A copy whose index is clamped to the last element, as tail handling in
// sorting and scan kernels does: threads past n all write out[n - 1]. With
// n equal to the threads of the launch (the natural input) no thread is past
// n; the race and the inter-block race need a smaller n, which the search
// finds, so both are warnings ("only for n=... (searched)").
// AUCS-EXPECT: uniform 11
// AUCS-LAUNCH: --grid 2 --block 64
// AUCS-EXPECT: warning race 13 13
// AUCS-EXPECT: warning inter-block-race 13 13
__global__ void clamp_copy(int *out, const int *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = i < n ? i : n - 1;
  out[j] = in[j];
}
