// Scenario: the final-warp race of a tree reduction: the last six steps run
// warp-synchronously under `if (t < 32)` without __syncwarp, which is a
// race since Volta. The barrier it needs sits in a loop only the first warp
// runs: aucs flattens the if around the loop and uniformizes the loop with
// active = (t < 32), so every thread runs its iterations and a barrier
// fits between the read and the write.
// BUG: race (shared) in the final-warp loop
// EXPECT: fixed
// LAUNCH: --grid 1 --block 256
__global__ void reduce(float *out, const float *in) {
  __shared__ float p[256];
  unsigned t = threadIdx.x;
  p[t] = in[t];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
    if (t < s)
      p[t] += p[t + s];
    __syncthreads();
  }
  if (t < 32) {
    for (unsigned s = 32; s > 0; s >>= 1)
      p[t] += p[t + s];
  }
  if (t == 0)
    out[0] = p[0];
}
