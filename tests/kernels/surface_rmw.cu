// Surfaces are memory, and a thread that reads and rewrites only its own
// texel (surf2Dread then surf2Dwrite at the same coordinates) races with
// nobody; the byte x coordinate is x * sizeof(float).
// AUCS-REQUIRES: cuda-sdk
// AUCS-LAUNCH: --grid 2 --block 16,4
// AUCS-EXPECT: uniform 13 16
// AUCS-EXPECT: clean
#include <cuda_runtime.h>

__global__ void brighten(cudaSurfaceObject_t img, float gain) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = threadIdx.y;
  float v;
  surf2Dread(&v, img, x * (int)sizeof(float), y);
  // written back where it was read
  v = v * gain;
  surf2Dwrite(v, img, x * (int)sizeof(float), y);
}
