// A launch inside a helper with external linkage (tests/test_hostlaunch.c):
// inlined into main, its constants fold; its own body, which another file
// could call, stays with an open block size.
#include <cuda_runtime.h>

__global__ void zero(int *p) { p[threadIdx.x] = 0; }

void zero_with(int *p, int b) { zero<<<1, b>>>(p); }

int main() {
  int *p;
  zero_with(p, 128);
  return 0;
}
