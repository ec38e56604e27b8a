// Several kernels in one module, each with its own verdict: the detector
// checks every kernel of a file (with -j N, each in its own worker; the
// report must not depend on N). `shift_race` forgets the barrier between a
// store and the neighbour's load; `reverse_tile` has it; `own_slot` has a
// barrier that orders nothing (each thread reads back its own slot);
// `half_sync` waits at a barrier only in the lower half of the block.
// AUCS-LAUNCH: --grid 1 --block 64
// AUCS-EXPECT: uniform 17 18 24 25 26 32 33 34
// AUCS-EXPECT: divergent 42
// AUCS-EXPECT: race 17 18
// AUCS-EXPECT: redundant-barrier 33
// AUCS-EXPECT: barrier-divergence 42

__global__ void shift_race(float *out, const float *in) {
  __shared__ float s[65];
  unsigned t = threadIdx.x;
  s[t] = in[t];
  out[t] = s[t + 1];
}

__global__ void reverse_tile(float *out, const float *in) {
  __shared__ float s[64];
  unsigned t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  out[t] = s[63 - t];
}

__global__ void own_slot(float *out, const float *in) {
  __shared__ float s[64];
  unsigned t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  out[t] = s[t];
}

__global__ void half_sync(float *out) {
  __shared__ float s[64];
  unsigned t = threadIdx.x;
  if (t < 32) {
    s[t] = 1.0f;
    __syncthreads();
  }
  out[t] = 0.0f;
}
