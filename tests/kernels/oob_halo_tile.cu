// Out-of-bounds write from a stencil tile one halo element too small: the
// tile holds blockDim.x + 1 floats but the kernel stores a left and a right
// halo, so the last thread's right halo lands one past the end. The
// barrier orders the halo stores before the stencil reads. Expected: an
// out-of-bounds write of the right halo, and the stencil's read of it (the
// last thread reads tile[tid + 2]) out of bounds too.
// AUCS-LAUNCH: --grid 1 --block 64 --arg n=64
// AUCS-EXPECT: uniform 17 22 23
// AUCS-EXPECT: divergent 19 21
// AUCS-EXPECT: out-of-bounds 21
// AUCS-EXPECT: out-of-bounds 23

__global__ void stencil_short_tile(float *out, const float *in, int n) {
  __shared__ float tile[65];
  unsigned tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x + tid;
  tile[tid + 1] = in[i];
  if (tid == 0)
    tile[0] = i > 0 ? in[i - 1] : 0.0f;
  if (tid == blockDim.x - 1)
    tile[tid + 2] = i + 1 < n ? in[i + 1] : 0.0f;
  __syncthreads();
  out[i] = tile[tid] + tile[tid + 1] + tile[tid + 2];
}
// Static (aucs detect --static, same launch): every pair is affine and
// disjoint or ordered (the out-of-bounds access is a different finding).
// AUCS-EXPECT-STATIC: proof race-free
