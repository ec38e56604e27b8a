// Tiled matrix multiply missing the barrier at the end of each tile step: a
// fast thread loads the next tile into As/Bs while slower threads of its
// block still read the current tile. Expected: a race between each tile
// store and the multiply-add that reads the tiles (two races).
// AUCS-LAUNCH: --grid 1 --block 8,8 --arg n=16
// AUCS-EXPECT: uniform 18 19 22 24
// AUCS-EXPECT: race 18 22
// AUCS-EXPECT: race 19 22

__global__ void matmul_no_trailing_sync(float *C, const float *A,
                                        const float *B, int n) {
  __shared__ float As[8][8];
  __shared__ float Bs[8][8];
  unsigned tx = threadIdx.x, ty = threadIdx.y;
  unsigned row = blockIdx.y * 8 + ty, col = blockIdx.x * 8 + tx;
  float sum = 0.0f;
  for (int t = 0; t < n / 8; t++) {
    As[ty][tx] = A[row * n + t * 8 + tx];
    Bs[ty][tx] = B[(t * 8 + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < 8; k++)
      sum += As[ty][k] * Bs[k][tx];
  }
  C[row * n + col] = sum;
}
// Static (aucs detect --static, same launch): each tile store races with the
// multiply-add's loads; the witnesses replay both.
// AUCS-EXPECT-STATIC: confirmed 18 22
// AUCS-EXPECT-STATIC: confirmed 19 22
