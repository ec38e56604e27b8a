// A tree reduction whose bound depends on the thread, its loop spelt by a
// macro: the loop is made uniform in the IR only, so the barrier before it
// (redundant only once the loop is uniform) stays in the source.
#define HALVING(s, from) for (unsigned s = (from) / 2; s > 0; s >>= 1)
__global__ void bound(float *out, const float *in) {
  __shared__ float p[256];
  unsigned t = threadIdx.x;
  p[t] = in[t];
  __syncthreads();
  unsigned start = t < 64 ? 64 : blockDim.x;
  HALVING(s, start) {
    if (t < s)
      p[t] += p[t + s];
    __syncthreads();
  }
  if (t == 0)
    out[0] = p[0];
}
