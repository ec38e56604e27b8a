// Scenario: a barrier between a write and a read of each thread's own slot
// orders nothing: every thread only touches s[t]. By default the static
// checker proves it (each pair is one thread's own slot) and aucs deletes
// it on that proof; this scenario runs --trust-dynamic, the deletion on
// the detector's evidence alone, and the report says so.
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
