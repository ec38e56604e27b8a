// Scenario: a barrier between a write and a read of each thread's own slot
// orders nothing: every thread only touches s[t]. The static checker does
// not prove it here (the float data it reads is unknown to the encoding),
// so by default aucs keeps it; with --trust-dynamic it is deleted on the
// detector's evidence, and the report says so.
// BUG: redundant-barrier
// EXPECT: fixed
// LAUNCH: --grid 1 --block 64 --trust-dynamic
__global__ void square(float *out, const float *in) {
  __shared__ float s[1024];
  unsigned t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  out[t] = s[t] * s[t];
}
