// A kernel with its host code: launches through <<<...>>> with a constant
// block, a dim3 variable and a template block size, as real applications
// write them. Compiled against the installed CUDA SDK (13 and later lower
// <<<...>>> through cudaLaunchKernel only when clang is told the version).
#include <cstdio>
#include <cuda_runtime.h>

#define BLOCK 128

__global__ void scale(float *out, const float *in, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = a * in[i];
}

template <int B> __global__ void block_sum(float *sums, const float *in) {
  __shared__ float s[B];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * B + t];
  __syncthreads();
  for (int w = B / 2; w > 0; w /= 2) {
    if (t < w)
      s[t] += s[t + w];
    __syncthreads();
  }
  if (t == 0)
    sums[blockIdx.x] = s[0];
}

int main() {
  const int n = 1 << 20;
  float *in, *out, *sums;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMalloc(&sums, n / BLOCK * sizeof(float));
  scale<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(out, in, 2.0f, n);
  dim3 grid(n / BLOCK), block(BLOCK);
  block_sum<BLOCK><<<grid, block>>>(sums, out);
  cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorString(cudaGetLastError()));
  cudaFree(in);
  cudaFree(out);
  cudaFree(sums);
  return 0;
}
