// A scan of each row of a 64 x 2 tile, run by the rows that exist: the
// barrier after the update went inside `if (x >= k)`, so the threads left
// of k skip it (barrier divergence). It belongs at the end of the loop
// body, still inside `if (y < rows)`, where the row's threads all meet.
__global__ void rows_scan(float *out, const float *in, int rows) {
  __shared__ float s[2][64];
  unsigned x = threadIdx.x, y = threadIdx.y;
  s[y][x] = in[y * 64 + x];
  __syncthreads();
  if (y < rows) {
    for (unsigned k = 1; k < 64; k <<= 1) {
      float v = x >= k ? s[y][x - k] : 0.0f;
      __syncthreads();
      if (x >= k) {
        s[y][x] += v;
        __syncthreads();
      }
    }
    out[y * 64 + x] = s[y][x];
  }
}
