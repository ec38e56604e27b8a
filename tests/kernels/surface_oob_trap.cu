// A surface read left of the image: thread 0 of each row reads column -1.
// Under the default boundary mode (cudaBoundaryModeTrap) that access traps:
// an out-of-bounds finding on the read.
// AUCS-REQUIRES: cuda-sdk
// AUCS-LAUNCH: --grid 1 --block 16,2 --arg width=16
// AUCS-EXPECT: uniform 12 13
// AUCS-EXPECT: out-of-bounds 12
#include <cuda_runtime.h>

__global__ void diff_left(cudaSurfaceObject_t img, float *out, int width) {
  int x = threadIdx.x, y = threadIdx.y;
  float left = surf2Dread<float>(img, (x - 1) * (int)sizeof(float), y);
  out[y * width + x] = surf2Dread<float>(img, x * (int)sizeof(float), y) - left;
}
