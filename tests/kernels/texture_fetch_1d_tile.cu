// A 1-D texture fetch (tex1Dfetch on a texture object) fills a shared tile;
// the barrier orders the tile's stores before the neighbours' loads. A
// texture is read-only: its fetches record no access, so nothing races.
// AUCS-REQUIRES: cuda-sdk
// AUCS-LAUNCH: --grid 2 --block 64
// AUCS-EXPECT: uniform 16 18
// AUCS-EXPECT: clean
#include <cuda_runtime.h>

__global__ void smooth_1d(cudaTextureObject_t in, float *out) {
  __shared__ float tile[65];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  tile[t] = tex1Dfetch<float>(in, i);
  if (t == 0)
    tile[64] = tex1Dfetch<float>(in, i + 64);
  __syncthreads();
  // every thread of the block fetches the same texel too: still no race
  out[i] = 0.5f * (tile[t] + tile[t + 1]) + tex1Dfetch<float>(in, 0);
}
