// The race sits in a helper from a header: the source edit names this
// file's statement that calls it, not the header's line.
#include "neighbour.cuh"

__global__ void next_of(float *out, const float *in) {
  __shared__ float s[64];
  float v = in[threadIdx.x] + 1.0f;
  out[threadIdx.x] = swap_next(s, v);
}
