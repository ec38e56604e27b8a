// Kernels that are correct at the launch their host code makes and racy at
// others, one that is wrong at its own launch, and one never launched.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define TILE 16

// One thread per block fills its block's row: threads of a bigger block
// would write the same elements with values of their own.
__global__ void clear_rows(float *rows, int width) {
  for (int i = 0; i < width; i++)
    rows[blockIdx.x * width + i] = (float)(threadIdx.x + i);
}

// A 16x16 tile indexed as the host launches it; a 64x2 block would give two
// threads one slot.
template <int T> __global__ void transpose_tile(float *out, const float *in) {
  __shared__ float tile[T * T];
  int slot = threadIdx.y * T + threadIdx.x;
  tile[slot] = in[slot];
  __syncthreads();
  out[slot] = tile[threadIdx.x * T + threadIdx.y];
}

// One block: a grid of two would race on out[threadIdx.x].
__global__ void histogram_one_block(int *out, const int *in, int n) {
  int sum = 0;
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    sum += in[i];
  out[threadIdx.x] = sum;
}

// Wrong at its own launch: the tree reduction reads s[t + w] without a
// barrier between its steps.
__global__ void sum_no_sync(float *out, const float *in) {
  __shared__ float s[256];
  int t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  for (int w = 128; w > 0; w /= 2)
    if (t < w)
      s[t] += s[t + w];
  if (t == 0)
    *out = s[0];
}

__global__ void never_launched(int *p) { p[threadIdx.x] = 1; }

int main(int argc, char **argv) {
  int rows = argc > 1 ? atoi(argv[1]) : 4;
  float *f, *g;
  int *h, *k;
  cudaMalloc(&f, 1 << 20);
  cudaMalloc(&g, 1 << 20);
  cudaMalloc(&h, 1 << 20);
  cudaMalloc(&k, 1 << 20);
  clear_rows<<<rows, 1>>>(f, 64);
  dim3 block(TILE, TILE);
  transpose_tile<TILE><<<1, block>>>(g, f);
  histogram_one_block<<<1, 256>>>(h, k, 4096);
  sum_no_sync<<<1, 256>>>(f, g);
  cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
