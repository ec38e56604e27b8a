// An image filter: a 2-D texture object (tex2D, float coordinates at texel
// centres, clamped by the texture) is staged into a shared tile, the block
// syncs, and each thread averages its 4-neighbourhood from the tile (the
// border threads fetch theirs from the texture, never out of bounds).
// AUCS-REQUIRES: cuda-sdk
// AUCS-LAUNCH: --grid 2,2 --block 8,8 --arg width=16
// AUCS-EXPECT: uniform 17 19
// AUCS-EXPECT: clean
#include <cuda_runtime.h>

__global__ void box_2d(cudaTextureObject_t img, float *out, int width) {
  __shared__ float tile[8][8];
  int tx = threadIdx.x, ty = threadIdx.y;
  int x = blockIdx.x * 8 + tx, y = blockIdx.y * 8 + ty;
  tile[ty][tx] = tex2D<float>(img, x + 0.5f, y + 0.5f);
  float right = tx < 7 ? 0.0f : tex2D<float>(img, x + 1.5f, y + 0.5f);
  __syncthreads();
  float r = tx < 7 ? tile[ty][tx + 1] : right;
  out[y * width + x] = 0.5f * (tile[ty][tx] + r);
}
