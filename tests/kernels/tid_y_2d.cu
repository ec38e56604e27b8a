// 2-D indexing: a tiled matrix multiply over threadIdx.x/.y. The tile loop
// has a uniform bound, so its loads and barriers are uniform; the bounds
// check and the test on threadIdx.y diverge.
// AUCS-EXPECT: uniform 17 18 19 21 22 29
// AUCS-EXPECT: divergent 25 27

#define TILE 16

__global__ void matmul(float *c, const float *a, const float *b, int n) {
  __shared__ float as[TILE][TILE];
  __shared__ float bs[TILE][TILE];
  unsigned tx = threadIdx.x, ty = threadIdx.y;
  unsigned row = blockIdx.y * TILE + ty;
  unsigned col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int t = 0; t < n / TILE; t++) {
    as[ty][tx] = a[row * n + t * TILE + tx];
    bs[ty][tx] = b[(t * TILE + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < TILE; k++)
      acc += as[ty][k] * bs[k][tx];
    __syncthreads();
  }
  if (row < n && col < n)
    c[row * n + col] = acc;
  if (ty == 0)
    c[n * n + col] = acc;
  if (blockIdx.y == 0)
    c[2 * n * n + col * TILE + ty] = acc;
}
// Detection, 2 x 2 blocks of 16 x 16, n = 32: the row ty == 0 of blocks
// (x, 0) and (x, 1) both store c[n * n + col], an inter-block race of line
// 27 with itself. The barriers order the tiles; the rest is race-free.
// AUCS-LAUNCH: --grid 2,2 --block 16,16 --arg n=32
// AUCS-EXPECT: inter-block-race 27 27
// Static (aucs detect --static, same launch): the row ty == 0 of two blocks
// stores c[n * n + col]; the witness replays the inter-block race, the
// rest is proven.
// AUCS-EXPECT-STATIC: confirmed 27 27
// AUCS-EXPECT-STATIC: proof partial
