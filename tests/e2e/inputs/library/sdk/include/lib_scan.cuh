// A stand-in for a library header of the CUDA SDK (CUB, Thrust): a kernel
// the library launches from its own host code. It races (no barrier between
// the write of s[t] and the read of s[t - 1]) so that checking it shows.
#pragma once

__global__ void lib_shift(int *out) {
  __shared__ int s[256];
  int t = threadIdx.x;
  s[t] = t;
  if (t > 0)
    out[t] = s[t - 1];
}
