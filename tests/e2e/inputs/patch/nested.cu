// The race sits inside a uniform `if` (n is the same for every thread): the
// barrier goes inside it, indented like the statement it precedes.
__global__ void staged(float *out, const float *in, int n) {
  __shared__ float s[128];
  int t = threadIdx.x;
  if (n > 0) {
    s[t] = in[t];
    out[t] = s[(t + 1) % blockDim.x];
  }
}
