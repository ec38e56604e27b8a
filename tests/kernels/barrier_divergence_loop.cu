// Barrier divergence in a loop: each thread runs a loop whose trip count
// depends on its index (tid % 4 rounds of refinement), with a barrier in the
// body. Threads that finish early return while the others still wait at the
// barrier. Expected: a barrier divergence at the loop's barrier.
// AUCS-LAUNCH: --grid 1 --block 32
// AUCS-EXPECT: divergent 15 16
// AUCS-EXPECT: uniform 13
// AUCS-EXPECT: barrier-divergence 16

__global__ void refine(float *out, const float *in) {
  __shared__ float s[32];
  unsigned tid = threadIdx.x;
  s[tid] = in[tid];
  for (unsigned r = 0; r < tid % 4; r++) {
    out[tid] = s[(tid + r) % 32];
    __syncthreads();
  }
}
// Static (aucs detect --static, same launch): the barrier is in a divergent
// loop, so it separates nothing statically.
// AUCS-EXPECT-STATIC: proof partial
