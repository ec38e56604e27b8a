// The user's file: its own kernel (race-free) next to a library kernel
// from a header under the SDK root (sdk/include/lib_scan.cuh).
#include "lib_scan.cuh"

__global__ void own_shift(int *out) {
  __shared__ int s[256];
  int t = threadIdx.x;
  s[t] = t;
  __syncthreads();
  if (t > 0)
    out[t] = s[t - 1];
}
