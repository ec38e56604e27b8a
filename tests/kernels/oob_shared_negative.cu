// Out-of-bounds read before the start of a shared array: a backward
// difference reads s[tid - 1] without guarding thread 0, which reads the
// element before s[0]. Expected: an out-of-bounds read; the barrier orders
// the stores before the loads, so no race.
// AUCS-LAUNCH: --grid 1 --block 64
// AUCS-EXPECT: uniform 12 13 14
// AUCS-EXPECT: out-of-bounds 14

__global__ void backward_diff(float *out, const float *in) {
  __shared__ float s[64];
  int tid = threadIdx.x;
  s[tid] = in[tid];
  __syncthreads();
  out[tid] = s[tid] - s[tid - 1];
}
// Static (aucs detect --static, same launch): every pair is affine and
// disjoint or ordered.
// AUCS-EXPECT-STATIC: proof race-free
