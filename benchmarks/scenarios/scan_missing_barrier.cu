// Scenario: a Hillis-Steele scan that keeps the barrier after the update
// but drops the one between reading s[t - off] and writing s[t]. Fixed by a
// barrier between the read and the write, inside the (uniform) loop.
// BUG: race (shared) in one scan step
// EXPECT: fixed
// LAUNCH: --grid 1 --block 64
__global__ void scan(int *out, const int *in) {
  __shared__ int s[1024];
  unsigned t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  for (unsigned off = 1; off < blockDim.x; off *= 2) {
    int v = 0;
    if (t >= off)
      v = s[t - off];
    s[t] += v;
    __syncthreads();
  }
  out[t] = s[t];
}
