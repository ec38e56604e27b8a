// Host code that does not compile (tests/test_hostlaunch.c): the launch
// names a kernel that was never declared.
#include <cuda_runtime.h>

__global__ void known(int *p) { p[threadIdx.x] = 1; }

int main() {
  int *p;
  unknown_kernel<<<1, 32>>>(p);
  return 0;
}
