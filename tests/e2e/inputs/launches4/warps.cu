// A block size the host computes at run time as a whole number of warps:
// each warp of a block owns one output, out[warps before it + its warp],
// which is only right when the block holds whole warps (with fewer than
// 32 threads, every block writes out[0]).
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void warp_sums(float *out, const float *in, int n) {
  int warp = (blockDim.x / 32) * blockIdx.x + threadIdx.x / 32;
  float s = 0.0f;
  for (int i = threadIdx.x % 32; i < n; i += 32)
    s += in[warp * n + i];
  for (int d = 16; d > 0; d /= 2)
    s += __shfl_down_sync(0xffffffffu, s, d);
  if (threadIdx.x % 32 == 0)
    out[warp] = s;
}

int main(int argc, char **argv) {
  int warps = argc > 1 ? atoi(argv[1]) : 4, rows = 64, n = 128;
  float *out, *in;
  cudaMalloc(&out, rows * sizeof(float));
  cudaMalloc(&in, (size_t)rows * n * sizeof(float));
  warp_sums<<<(rows + warps - 1) / warps, 32 * warps>>>(out, in, n);
  return cudaDeviceSynchronize() != cudaSuccess;
}
