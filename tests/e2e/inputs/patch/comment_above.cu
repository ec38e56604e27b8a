// A block comment ends on the line above the statement the barrier
// precedes: the comment is not code, so the statement begins there.
__global__ void shift(float *out, const float *in) {
  __shared__ float s[64];
  int t = threadIdx.x;
  s[t] = in[t];
  /* each thread reads its neighbour's value,
     stored by another thread above */
  out[t] = s[(t + 1) % 64];
}
