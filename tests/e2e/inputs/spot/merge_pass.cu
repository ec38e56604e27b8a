// Merge passes over a shared array: each round compares once after its own
// barrier, then runs an inner loop of compares under `if (lane >= stride)`
// whose top barrier is missing, so the inner loop's first pass reads slots
// the round's first compare of other threads still swaps, and each pass
// those of the pass before.
__device__ void order(float &a, float &b, int up) {
  if ((a > b) == up) {
    float x = a;
    a = b;
    b = x;
  }
}

__global__ void merges(float *data, int up) {
  __shared__ float s[128];
  int t = threadIdx.x;
  s[t] = data[t];
  s[t + 64] = data[t + 64];
  for (int size = 2; size <= 128; size <<= 1) {
    int stride = size / 2;
    int lane = t & (stride - 1);
    __syncthreads();
    int first = 2 * t - lane;
    order(s[first], s[first + stride], up);
    stride >>= 1;
    for (; stride > 0; stride >>= 1) {
      int pos = 2 * t - (t & (stride - 1));
      if (lane >= stride)
        order(s[pos - stride], s[pos], up);
    }
  }
  __syncthreads();
  data[t] = s[t];
  data[t + 64] = s[t + 64];
}
