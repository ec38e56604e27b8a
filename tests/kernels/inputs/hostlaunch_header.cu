// A kernel whose launch is written in a header this file includes: the
// .cu's own text has no launch, its host side still has one.
#include <cuda_runtime.h>

__global__ void fill(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = i;
}

#include "hostlaunch_header.cuh"

int main() {
  int *p;
  cudaMalloc(&p, 1000 * sizeof(int));
  launch_fill<128>(p, 1000);
  return 0;
}
