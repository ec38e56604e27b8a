// Launches in host code that can throw: a std::vector lives across them,
// so clang emits each runtime call as an invoke with an unwind edge, and a
// launch's grid is tied to the size the kernel is given.
#include <vector>
#include <cuda_runtime.h>

__global__ void halve(float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    v[i] *= 0.5f;
}

int run(int n) {
  std::vector<float> host(n, 1.0f);
  float *v;
  cudaMalloc(&v, n * sizeof(float));
  cudaMemcpy(v, host.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  halve<<<(n + 127) / 128, 128>>>(v, n);
  cudaMemcpy(host.data(), v, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(v);
  return host[0] == 0.5f;
}
