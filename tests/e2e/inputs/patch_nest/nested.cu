// The fold of xorfold.cu under two divergent conditions: the inner `if`
// alone is not the condition of the loop.
__global__ void nested(unsigned *out, const unsigned *in) {
  __shared__ unsigned q[64];
  unsigned t = threadIdx.x;
  q[t] = in[t];
  __syncthreads();
  if (t < 32) {
    if (t % 2 == 0) {
      for (unsigned k = 16; k > 0; k >>= 1)
        q[t] ^= q[t + k];
    }
  }
  if (t == 0)
    out[blockIdx.x] = q[0];
}
