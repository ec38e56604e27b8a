// Race-free: tiled matrix multiply C = A * B with 8x8 shared tiles. Each
// step loads one tile of A and one of B, waits, multiplies, and waits again
// before the next step overwrites the tiles: the first barrier orders the
// loads before the reads, the second the reads before the next loads.
// Expected: clean.
// AUCS-LAUNCH: --grid 2,2 --block 8,8 --arg n=16
// AUCS-EXPECT: uniform 17 18 21 24
// AUCS-EXPECT: clean

__global__ void matmul_tiled(float *C, const float *A, const float *B, int n) {
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
    __syncthreads();
  }
  C[row * n + col] = sum;
}
// Static (aucs detect --static, same launch): C, A and B are distinct
// buffers; the tile pairs are proven.
// AUCS-EXPECT-STATIC: proof race-free
