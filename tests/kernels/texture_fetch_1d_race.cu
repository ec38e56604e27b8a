// The tile of texture_fetch_1d_tile.cu without its barrier: thread t reads
// tile[t + 1] while thread t + 1 may still be storing its texel there.
// AUCS-REQUIRES: cuda-sdk
// AUCS-LAUNCH: --grid 2 --block 64
// AUCS-EXPECT: uniform 12 13
// AUCS-EXPECT: race 12 13
#include <cuda_runtime.h>

__global__ void smooth_1d_nosync(cudaTextureObject_t in, float *out) {
  __shared__ float tile[65];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  tile[t] = tex1Dfetch<float>(in, i);
  out[i] = 0.5f * (tile[t] + tile[t + 1]);
}
