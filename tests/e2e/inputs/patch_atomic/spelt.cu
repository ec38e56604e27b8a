// A counter bumped as `c[b] = c[b] + 1;` (made atomic in the IR, no exact
// source form), and a plain store racing with itself (unfixable).
__global__ void spelt(int *out) {
  __shared__ int c[4];
  __shared__ int last[4];
  int t = threadIdx.x;
  if (t < 4)
    c[t] = 0;
  __syncthreads();
  int b = t % 4;
  c[b] = c[b] + 1;
  last[b] = t;
  __syncthreads();
  if (t < 4)
    out[t] = c[t] + last[t];
}
