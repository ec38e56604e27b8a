// Branches on loaded data. A load through a tid-dependent address (directly
// or through an index array) gives each thread its own value, so the branch
// on it diverges; a load through a uniform address gives every thread the
// same value (in a race-free kernel), so the branch on it is uniform.
// AUCS-EXPECT: divergent 13 16
// AUCS-EXPECT: uniform 19 20 24

__global__ void gather(float *out, const float *__restrict__ in,
                       const int *__restrict__ idx, int n) {
  unsigned tid = threadIdx.x;
  float x = in[tid];
  if (x > 0.0f)
    out[tid] = x;
  int j = idx[tid];
  if (in[j] < 0.0f)
    out[n + tid] = -in[j];
  float h = in[blockIdx.x];
  if (h > 1.0f) {
    out[2 * n + tid] = h;
    __syncthreads();
  }
  int k = idx[blockIdx.x];
  if (idx[k] == 0)
    out[3 * n + tid] = x;
}
// Detection, n = blockDim: each thread stores only its own elements, so the
// barrier under h > 1 orders nothing (whatever in holds).
// AUCS-LAUNCH: --grid 1 --block 64 --arg n=64
// AUCS-EXPECT: redundant-barrier 20
// Static (aucs detect --static, same launch): affine addresses; in and idx
// are __restrict__ and only read, out is written at disjoint affine offsets:
// proved for this launch.
// AUCS-EXPECT-STATIC: proof race-free
