// The first sixteen threads fold their words pairwise, warp-style, with
// no barrier between the steps.
__global__ void xorfold(unsigned *out, const unsigned *in) {
  __shared__ unsigned q[64];
  unsigned t = threadIdx.x;
  q[t] = in[t];
  __syncthreads();
  if (t < 16) {
    for (unsigned k = 16; k > 0; k >>= 1)
      q[t] ^= q[t + k];
  }
  if (t == 0)
    out[blockIdx.x] = q[0];
}
