// Out-of-bounds write to shared memory: a shift-right written as s[tid + 1]
// into an array of exactly blockDim.x elements; the last thread writes one
// past the end. The reads after the barrier stay in bounds. Expected: an
// out-of-bounds write; no race (the barrier orders the shift).
// AUCS-LAUNCH: --grid 1 --block 64
// AUCS-EXPECT: uniform 12 13 14
// AUCS-EXPECT: out-of-bounds 12

__global__ void shift_right(float *out, const float *in) {
  __shared__ float s[64];
  unsigned tid = threadIdx.x;
  s[tid + 1] = in[tid];
  __syncthreads();
  out[tid] = s[tid];
}
// Static (aucs detect --static, same launch): every pair is affine and
// disjoint or ordered.
// AUCS-EXPECT-STATIC: proof race-free
