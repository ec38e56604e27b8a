// With -DRACY (as compile_commands.json gives it) the barrier is left out
// and the read of line 16 races with the write of line 11; without it the
// kernel is clean. SHIFT comes from the project's header (-I include).
#include "shift.h"

__global__ void shift(int *out) {
  __shared__ int s[64];
  unsigned t = threadIdx.x;
  unsigned g = blockIdx.x * blockDim.x + t;
  if (t < 64)
    s[t] = t;
#ifndef RACY
  __syncthreads();
#endif
  if (t < 64)
    out[g] = s[(t + SHIFT) % 64];
}
