// A tiled sum after an early return: every thread past n leaves, the rest
// load a tile of `in` into shared memory and sum it. The barrier after the
// load is there; the one that keeps the next tile's load from overwriting
// the tile others still read is missing (end of the loop body).
#define TILE 64
__global__ void tile_sum(float *out, const float *in, int n, int len) {
  __shared__ float s[TILE];
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (gid >= n)
    return;
  float acc = 0.0f;
  for (int base = 0; base < len; base += TILE) {
    int k = base + (int)threadIdx.x;
    s[threadIdx.x] = k < len ? in[k] : 0.0f;
    __syncthreads();
    for (int j = 0; j < TILE; j++)
      acc += s[j];
  }
  out[gid] = acc;
}
