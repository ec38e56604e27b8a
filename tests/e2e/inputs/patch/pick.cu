// A thread compares its own limit with its right neighbour's slot in the
// condition of an `if`: the limit is the thread's, the slot is not.
__global__ void pick(float *out, const float *in) {
  __shared__ float s[64];
  float lim[2] = {16.0f, 48.0f};
  int t = threadIdx.x;
  s[t] = in[t];
  if (lim[t & 1] + s[(t + 1) % 64] > 20.0f) {
    out[t] = 1.0f;
  }
}
