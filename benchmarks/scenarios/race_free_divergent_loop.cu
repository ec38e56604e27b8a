// Scenario: a loop whose trip count depends on the thread, with no barrier
// and no race (each thread touches only its own slot). Nothing to repair:
// the loop must be left as it is (no uniformization, no edit).
// BUG: none (race-free)
// EXPECT: fixed
// LAUNCH: --grid 1 --block 64
__global__ void own(float *out, const float *in, const int *len) {
  __shared__ float s[64];
  unsigned t = threadIdx.x;
  s[t] = 0;
  for (int k = 0; k < len[t]; k++)
    s[t] += in[t * 16 + k];
  out[t] = s[t];
}
