// A scan step in a helper whose barrier before the reads is missing: the
// repair's barrier falls between the two reads of the declaration in the
// loop, but with two operators the split would regroup the sum: IR only.
__device__ unsigned step(unsigned x, volatile unsigned *s, unsigned n) {
  unsigned p = threadIdx.x + n;
  s[threadIdx.x] = 0;
  s[p] = x;
  for (unsigned d = 1; d < n; d <<= 1) {
    unsigned v = s[p] + s[p - d] + 1;
    __syncthreads();
    s[p] = v;
  }
  return s[p];
}
__global__ void scan(unsigned *out, const unsigned *in) {
  __shared__ unsigned s[128];
  out[threadIdx.x] = step(in[threadIdx.x], s, 64);
}
