// Threads past n leave before the barrier the others wait at.
__global__ void reverse(float *out, const float *in, int n) {
  __shared__ float s[64];
  int t = threadIdx.x;
  if (t >= n)
    return;
  float v = in[t];
  s[t] = v;
  __syncthreads();
  out[t] = s[n - 1 - t] - v;
}
