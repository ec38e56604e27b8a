// A flag per thread, set from a float: `bool` keeps any nonzero value true
// while an int temporary would drop the fraction first; the loop stays IR
// only.
__global__ void flags(int *out, const float *in) {
  __shared__ bool f[64];
  int t = threadIdx.x;
  f[t] = in[t] > 0.0f;
  __syncthreads();
  for (int r = 0; r < t % 3 + 1; r++)
    f[t] = (f[(t + 1) % 64] + in[t]) * 0.5f;
  __syncthreads();
  out[t] = f[t];
}
