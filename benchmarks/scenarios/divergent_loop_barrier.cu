// Scenario: a loop whose trip count depends on the thread, whose iterations
// read a neighbour's slot that the neighbour rewrites; the barrier is
// after the loop, where every thread reaches it, but the race is inside.
// A barrier in the loop would be divergent: aucs uniformizes the loop (it
// runs while __syncthreads_or(active)) and puts the barrier inside it.
// The race depends on the input: a thread and its neighbour race only
// when both run an iteration (the trip counts steps[t] are read from
// memory), so by default it is a warning (data-dependent) and fix leaves
// it; --strict makes it an error to repair, and --fill small keeps the
// random trip counts small (random bytes would make the uniformized loop
// run past the step budget).
// BUG: race (shared) inside a thread-dependent loop
// EXPECT: fixed
// LAUNCH: --grid 1 --block 64 --strict --fill small
__global__ void smooth(float *out, const float *in, const int *steps) {
  __shared__ float s[1024];
  unsigned t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  for (int k = 0; k < steps[t]; k++)
    s[t] = 0.5f * (s[t] + s[(t + 1) % blockDim.x]);
  __syncthreads();
  out[t] = s[t];
}
