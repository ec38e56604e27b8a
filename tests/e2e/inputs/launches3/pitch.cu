// Launches whose grid and arguments the host computes from sizes read at
// run time: fill_rows is correct for every size the host can pass, and
// racy for a pitch the host never passes.
#include <cstdlib>
#include <cuda_runtime.h>

#define COLS 64

// Block (x, y) writes columns [64x, 64x + 64) of row y; rows are `pitch`
// apart, and the host passes the width as the pitch: rows never overlap.
__global__ void fill_rows(float *out, int width, int pitch) {
  int col = blockIdx.x * COLS + threadIdx.x;
  if (col < width)
    out[blockIdx.y * pitch + col] = 1.0f;
}

// One element per thread, n elements, on the host's (n + 255) / 256 blocks.
__global__ void copy_n(int *out, const int *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i];
}

int main(int argc, char **argv) {
  int w = argc > 1 ? atoi(argv[1]) : 512, h = argc > 2 ? atoi(argv[2]) : 4;
  float *out;
  int *v, *u;
  cudaMalloc(&out, (size_t)w * h * sizeof(float));
  cudaMalloc(&v, (size_t)w * sizeof(int));
  cudaMalloc(&u, (size_t)w * sizeof(int));
  fill_rows<<<dim3(w / COLS, h), COLS>>>(out, w, w);
  copy_n<<<(w + 255) / 256, 256>>>(v, u, w);
  return cudaDeviceSynchronize() != cudaSuccess;
}
