// Layered and 3-D textures: each thread blends one texel of layer `layer`
// of a layered 2-D texture with a 3-D volume sample and writes its own
// output element; a float4 fetch gives the weights. Race-free.
// AUCS-REQUIRES: cuda-sdk
// AUCS-LAUNCH: --grid 1 --block 16,4 --arg width=16
// AUCS-EXPECT: uniform 16 18
// AUCS-EXPECT: clean
#include <cuda_runtime.h>

__global__ void blend_layers(cudaTextureObject_t layers,
                             cudaTextureObject_t volume,
                             cudaTextureObject_t weights, float *out,
                             int width, int layer) {
  int x = threadIdx.x, y = threadIdx.y;
  float a = tex2DLayered<float>(layers, x, y, layer);
  float4 w = tex2D<float4>(weights, x, y);
  float b = tex3D<float>(volume, x, y, 0.5f);
  out[y * width + x] = w.x * a + w.y * b;
}
