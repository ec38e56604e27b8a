// The largest value of each block's slice, after a guard return: threads
// past the end leave, the others wait at the barriers of the tree.

__global__ void tail_max(float *out, const float *in, int n) {
  __shared__ float best[64];
  unsigned t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  if (i >= n)
    return;
  best[t] = in[i];
  __syncthreads();
  for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
    if (t < half && best[t + half] > best[t])
      best[t] = best[t + half];
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = best[0];
}
