// Layered surfaces: each thread reads its texel of layer `src` of a 1-D
// layered surface and writes a float4 texel of layer `dst` of a 2-D layered
// one. The SDK's asm takes the layer as its last operand but puts it first
// among the PTX coordinates; every thread keeps to its own texels, so the
// kernel is clean (a layer taken for x would put writes out of bounds).
// AUCS-REQUIRES: cuda-sdk
// AUCS-LAUNCH: --grid 1 --block 32,2 --arg src=3 --arg dst=5
// AUCS-EXPECT: uniform 16 17
// AUCS-EXPECT: clean
#include <cuda_runtime.h>

__global__ void spread(cudaSurfaceObject_t line, cudaSurfaceObject_t planes,
                       int src, int dst) {
  int x = threadIdx.x, y = threadIdx.y;
  float v = surf1DLayeredread<float>(line, x * (int)sizeof(float), src);
  float4 c = make_float4(v, v * y, 0.0f, 1.0f);
  surf2DLayeredwrite(c, planes, x * (int)sizeof(float4), y, dst);
}
