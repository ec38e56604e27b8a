// The same fold with a plain assignment: the barrier falls between the
// read and the write of `q[t] = q[t + k] * 3;`.
__global__ void scaled(unsigned *out, const unsigned *in) {
  __shared__ unsigned q[64];
  unsigned t = threadIdx.x;
  q[t] = in[t];
  __syncthreads();
  if (t < 16) {
    for (unsigned k = 16; k > 0; k >>= 1)
      q[t] = q[t + k] * 3;
  }
  if (t == 0)
    out[blockIdx.x] = q[0];
}
