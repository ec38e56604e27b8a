// A guard return, then a void helper called once: it scans a tile in
// shared memory (a barrier in its loop) and writes the thread's result.
struct Tile {
  const int *in;
  int *out;
  int n;
};

__device__ void tile_scan(int *s, int v, int *dst) {
  int t = threadIdx.x;
  s[t] = v;
  __syncthreads();
  for (int d = 1; d < 64; d *= 2) {
    int x = t >= d ? s[t - d] : 0;
    __syncthreads();
    s[t] += x;
    __syncthreads();
  }
  *dst = s[t];
}

__global__ void scan_rows(Tile tl) {
  __shared__ int s[64];
  int t = threadIdx.x;
  int i = blockIdx.x * 64 + t;
  if (i >= tl.n)
    return;
  tile_scan(s, tl.in[i], &tl.out[i]);
}
