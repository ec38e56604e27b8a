// Column sums by halving: in each step the rows at multiples of p add the
// row p / 2 below them, which that row's threads update in the same step.
__global__ void column_sums(float *out, const float *in) {
  __shared__ float m[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  m[ty][tx] = in[ty * 16 + tx];
  __syncthreads();
  for (int i = 1; i <= 4; i++) {
    int p = 1 << i;
    if (ty % p == 0)
      m[ty][tx] = m[ty][tx] + m[ty + p / 2][tx];
  }
  if (ty == 0)
    out[tx] = m[0][tx];
}
