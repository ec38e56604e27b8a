// The host code of rows.cu's kernel (built with -rdc, as a project with
// kernels in their own files is).
#include <cuda_runtime.h>

__global__ void clear_rows(float *rows, int width);

int main() {
  float *rows;
  cudaMalloc(&rows, 8 * 64 * sizeof(float));
  clear_rows<<<8, 1>>>(rows, 64);
  return cudaDeviceSynchronize() != cudaSuccess;
}
