// A tiled matrix product c = a * b for the one problem size the host
// multiplies: a is 48 x 48 and b is 48 x 80, in 16 x 16 tiles, one block
// per tile of c (the launch line below). The kernel states the sizes as a
// precondition, which random arguments never meet, so every input the
// search draws is discarded until the solver chooses wa and wb
// (docs/inputs.md, "Solved inputs"). Race-free: the first barrier orders
// the tile loads before the products, the second the products before the
// next loads.
#define TILE 16

__global__ void tiled_product(float *c, const float *a, const float *b,
                              int wa, int wb) {
  __builtin_assume(wa == 48 && wb == 80);
  __shared__ float ta[TILE][TILE], tb[TILE][TILE];
  unsigned tx = threadIdx.x, ty = threadIdx.y;
  unsigned row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float sum = 0;
  for (int k = 0; k < wa; k += TILE) {
    ta[ty][tx] = a[row * wa + k + tx];
    tb[ty][tx] = b[(k + ty) * wb + col];
    __syncthreads();
    for (int j = 0; j < TILE; j++)
      sum += ta[ty][j] * tb[j][tx];
    __syncthreads();
  }
  c[row * wb + col] = sum;
}

// AUCS-LAUNCH: --grid 5,3 --block 16,16
// AUCS-EXPECT: uniform 26
// AUCS-EXPECT: clean
