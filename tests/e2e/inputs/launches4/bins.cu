// Arguments the host bounds at run time: each launch of count_into passes
// a bin `r % BINS`, always inside the block's BINS counters; tally's host
// passes `r % (BINS + 1)`, which reaches one past them.
#include <cstdlib>
#include <cuda_runtime.h>

#define BINS 64

__global__ void count_into(unsigned *out, int bin, int n) {
  __shared__ unsigned hist[BINS];
  if (threadIdx.x < BINS)
    hist[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    atomicAdd(&hist[bin], 1u);
  __syncthreads();
  if (threadIdx.x < BINS)
    atomicAdd(&out[threadIdx.x], hist[threadIdx.x]);
}

__global__ void tally(unsigned *out, int bin) {
  __shared__ unsigned hist[BINS];
  if (threadIdx.x < BINS)
    hist[threadIdx.x] = 0;
  __syncthreads();
  atomicAdd(&hist[bin], 1u);
  __syncthreads();
  if (threadIdx.x < BINS)
    out[blockIdx.x * BINS + threadIdx.x] = hist[threadIdx.x];
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 4096;
  int rounds = argc > 2 ? atoi(argv[2]) : 10;
  unsigned *out;
  cudaMalloc(&out, 8 * BINS * sizeof(unsigned));
  for (int r = 0; r < rounds; r++) {
    count_into<<<8, 128>>>(out, r % BINS, n);
    tally<<<8, 128>>>(out, r % (BINS + 1));
  }
  return cudaDeviceSynchronize() != cudaSuccess;
}
