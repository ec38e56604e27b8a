// Surfaces are memory: two threads of a block write one texel. Each pair of
// neighbours (x = 2k, 2k + 1) stores its result at column k of the output
// surface, a write/write race (surf2Dwrite lowers to a `sust` instruction).
// Needs the CUDA SDK's surface functions.
// AUCS-REQUIRES: cuda-sdk
// AUCS-LAUNCH: --grid 1 --block 16,4
// AUCS-EXPECT: uniform 14 16
// AUCS-EXPECT: race 16 16
#include <cuda_runtime.h>

__global__ void halve_columns(cudaSurfaceObject_t dst, const float *src,
                              int w) {
  int x = threadIdx.x, y = threadIdx.y;
  float v = src[y * w + x];
  // thread x and thread x ^ 1 write the same texel
  surf2Dwrite(v, dst, (x / 2) * (int)sizeof(float), y);
}
