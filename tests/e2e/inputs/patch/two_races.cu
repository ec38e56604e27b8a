// Two races: the first has an exact source form (a barrier line before
// line 11); the second's barrier falls inside a statement with a call, so
// its edit is IR only. The patch would leave the second race, which the IR
// repair fixed: it is not written.
__device__ int right(int t) { return t + 1; }
__global__ void two(float *out, const float *in) {
  __shared__ float s[65];
  __shared__ float u[64];
  int t = threadIdx.x;
  u[t] = in[t];
  out[t] = u[63 - t];
  s[t + 1] = in[t];
  if (t == 0)
    s[0] = 0.0f;
  __syncthreads();
  s[t] += s[right(t)];
  __syncthreads();
  out[t] += s[t];
}
