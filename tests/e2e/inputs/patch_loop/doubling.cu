// A doubling stride that starts at the thread's own index: the number of
// rounds differs between threads, and the barriers sit in the loop.
__global__ void doubling(float *out, const float *in) {
  __shared__ float s[64];
  int t = threadIdx.x;
  int w = t + 1;
  float acc = in[t];
  while (w < 64) {
    s[t] = acc;
    __syncthreads();
    acc += s[(t + w) % 64];
    __syncthreads();
    w *= 2;
  }
  out[t] = acc;
}
