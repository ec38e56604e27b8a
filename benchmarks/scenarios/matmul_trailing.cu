// Scenario: tiled matrix multiply without the trailing barrier: the next
// iteration's tile load overwrites tiles other threads still read (a
// write-after-read race around the loop). The pair races "backwards" around
// the back edge; the barrier goes at the end of the loop body.
// BUG: race (shared) across iterations
// EXPECT: fixed
// LAUNCH: --grid 1 --block 8,8 --arg n=16
#define T 8
__global__ void matmul(float *c, const float *a, const float *b, int n) {
  __shared__ float as[T][T], bs[T][T];
  unsigned x = threadIdx.x, y = threadIdx.y;
  float acc = 0;
  for (int k0 = 0; k0 < n; k0 += T) {
    as[y][x] = a[y * n + k0 + x];
    bs[y][x] = b[(k0 + y) * n + x];
    __syncthreads();
    for (int k = 0; k < T; k++)
      acc += as[y][k] * bs[k][x];
  }
  c[y * n + x] = acc;
}
