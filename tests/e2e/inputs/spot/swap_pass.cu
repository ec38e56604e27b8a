// Passes of compare-and-swap over a shared array, through a helper called
// at two places; the inner loop's top barrier is missing, so a pass reads
// slots the previous pass of other threads still swaps.
__device__ void order(float &a, float &b, int up) {
  if ((a > b) == up) {
    float t = a;
    a = b;
    b = t;
  }
}

__global__ void passes(float *data, int up) {
  __shared__ float s[128];
  int t = threadIdx.x;
  s[t] = data[t];
  s[t + 64] = data[t + 64];
  for (int size = 2; size <= 128; size <<= 1) {
    for (int stride = size / 2; stride > 0; stride >>= 1) {
      int pos = 2 * t - (t & (stride - 1));
      order(s[pos], s[pos + stride], up);
    }
  }
  __syncthreads();
  order(s[t], s[127 - t], up);
  __syncthreads();
  data[t] = s[t];
  data[t + 64] = s[t + 64];
}
