// Race-free: matrix transpose through a shared tile padded by one column
// (tile[16][17], which avoids shared-memory bank conflicts). Each thread
// writes tile[y][x] from a coalesced read, all wait, then each reads
// tile[x][y] and writes the transposed block. The padding changes addresses,
// not ordering. Expected: clean.
// AUCS-LAUNCH: --grid 2,2 --block 16,16 --arg width=32 --arg height=32
// AUCS-EXPECT: uniform 15 16 19
// AUCS-EXPECT: clean

__global__ void transpose_padded(float *out, const float *in, int width,
                                 int height) {
  __shared__ float tile[16][17];
  unsigned x = blockIdx.x * 16 + threadIdx.x;
  unsigned y = blockIdx.y * 16 + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * width + x];
  __syncthreads();
  x = blockIdx.y * 16 + threadIdx.x;
  y = blockIdx.x * 16 + threadIdx.y;
  out[y * height + x] = tile[threadIdx.x][threadIdx.y];
}
// Static (aucs detect --static, same launch): out and in are distinct
// buffers; the tile pairs are proven.
// AUCS-EXPECT-STATIC: proof race-free
