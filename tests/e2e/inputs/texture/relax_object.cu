// Texture objects and surfaces through the CUDA SDK's headers (texture_sdk.test).
#include <cuda_runtime.h>

__global__ void relax(cudaTextureObject_t t, float *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float l = tex1Dfetch<float>(t, i > 0 ? i - 1 : 0);
  data[i] = 0.5f * (l + tex1Dfetch<float>(t, i));
}

__global__ void copy_out(cudaTextureObject_t t, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = tex1Dfetch<float>(t, i);
}

__global__ void splat(cudaSurfaceObject_t s, int w) {
  int x = threadIdx.x, y = threadIdx.y;
  surf2Dwrite((float)x, s, (x % w) * 4, y);
}

__global__ void shifted(cudaTextureObject_t t, float *out) {
  int base = tex1Dfetch<int>(t, 0);
  out[base + threadIdx.x] = 1.0f;
}
