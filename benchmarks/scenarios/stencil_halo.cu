// Scenario: a 1-D stencil whose first threads also load the halo; the
// stencil reads the neighbours' slots and the halo with no barrier after
// the loads. Fixed by one barrier after the halo's if.
// BUG: race (shared) between the loads (halo included) and the stencil
// EXPECT: fixed
// LAUNCH: --grid 1 --block 64
#define R 2
__global__ void stencil(float *out, const float *in) {
  __shared__ float s[1024 + 2 * R];
  unsigned t = threadIdx.x;
  s[t + R] = in[t + R];
  if (t < R) {
    s[t] = in[t];
    s[t + blockDim.x + R] = in[t + blockDim.x + R];
  }
  float v = 0;
  for (int k = -R; k <= R; k++)
    v += s[t + R + k];
  out[t] = v;
}
