// Host code launching kernels in the forms aucs_hostlaunch reads
// (tests/test_hostlaunch.c): constant and macro configurations, dim3
// variables, grids from a size known or read at run time, a template block
// size, dynamic shared memory, a helper, cudaLaunchKernel and
// cudaLaunchCooperativeKernel, namespaced and extern "C" kernels.
#include <cstdlib>
#include <cuda_runtime.h>

#define THREADS 64
#define BLOCKS_FOR(n, b) (((n) + (b) - 1) / (b))

__global__ void fill(int *out, int v, float f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = v + (int)f;
}

template <int B> __global__ void tile_sum(float *out, const float *in) {
  __shared__ float s[B];
  s[threadIdx.x] = in[blockIdx.x * B + threadIdx.x];
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = s[0] + s[B - 1];
}

__global__ void rev(int *d, int n) {
  extern __shared__ int s[];
  s[threadIdx.x] = d[threadIdx.x];
  __syncthreads();
  d[threadIdx.x] = s[n - 1 - threadIdx.x];
}

namespace lib {
__global__ void scaled(unsigned *p, short s) { p[threadIdx.x] *= s; }
} // namespace lib

extern "C" __global__ void axpy(double *y, double a, long long k) {
  y[threadIdx.x] = a * y[threadIdx.x] + k;
}

static void fill_with(int *d, int b) { fill<<<1, b>>>(d, 1, 1.0f, b); }

int main(int argc, char **argv) {
  int *d;
  float *f;
  unsigned *u;
  double *y;
  const int n = 1000;
  int m = argc > 1 ? atoi(argv[1]) : 1000;
  fill<<<1, 96>>>(d, 7, 2.5f, n);
  fill<<<BLOCKS_FOR(n, THREADS), THREADS>>>(d, -4, -1.0f, m);
  fill<<<(m + 127) / 128, 128>>>(d, m, 0.5f, n);
  dim3 grid(4, 2), block(16, 8, 2);
  tile_sum<256><<<grid, block>>>(f, f);
  tile_sum<256><<<8, 256>>>(f, f);
  rev<<<2, 128, 128 * sizeof(int)>>>(d, 128);
  rev<<<2, 256, m * sizeof(int)>>>(d, m);
  lib::scaled<<<3, 32>>>(u, (short)-2);
  axpy<<<dim3(5, 1, 3), 64>>>(y, 0.25, -9LL);
  fill_with(d, 32);
  int k = 42;
  void *rev_args[] = {&d, &k};
  cudaLaunchKernel((const void *)rev, dim3(6), dim3(32), rev_args, 256, 0);
  cudaLaunchKernel(rev, dim3(1), dim3(16), rev_args);
  cudaLaunchCooperativeKernel((const void *)rev, dim3(2), dim3(64), rev_args);
  return 0;
}
