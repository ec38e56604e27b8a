// Scenario: a 2-D tiled transpose that forgets the barrier between filling
// the tile and reading it transposed. Fixed by one barrier between the two
// statements.
// BUG: race (shared) between the tile's fill and its transposed read
// EXPECT: fixed
// LAUNCH: --grid 1 --block 16,16 --arg n=16
__global__ void transpose(float *out, const float *in, int n) {
  __shared__ float tile[16][17];
  unsigned x = threadIdx.x, y = threadIdx.y;
  tile[y][x] = in[y * n + x];
  out[x * n + y] = tile[x][y];
}
