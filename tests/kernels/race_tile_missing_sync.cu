// Transpose through a shared tile with the barrier between filling the tile
// and reading it forgotten: thread (x, y) writes tile[y][x] and then reads
// tile[x][y], which thread (y, x) writes in the same barrier interval.
// Expected: a race between the tile store and the tile load.
// AUCS-LAUNCH: --grid 1 --block 16,16 --arg n=16
// AUCS-EXPECT: uniform 12 13
// AUCS-EXPECT: race 12 13

__global__ void transpose_nosync(float *out, const float *in, int n) {
  __shared__ float tile[16][16];
  unsigned x = threadIdx.x, y = threadIdx.y;
  tile[y][x] = in[y * n + x];
  out[y * n + x] = tile[x][y];
}
// Static (aucs detect --static, same launch): the tile store and the
// transposed load race; the witness replays it.
// AUCS-EXPECT-STATIC: confirmed 12 13
