// Scenario: a __device__ helper (not inlined) returns early for threads
// past the end and synchronizes the others; the kernel calls it. Threads
// that returned from the helper run to the kernel's end and never reach
// the helper's barrier: barrier divergence. aucs inlines this call (other
// callers keep the helper) and keeps the threads in: the helper's return
// becomes a flag and the barrier stays.
// BUG: barrier-divergence after an early return in a helper
// EXPECT: fixed
// LAUNCH: --grid 2 --block 64 --arg n=100
__device__ __noinline__ void stage(float *out, const float *in, float *s,
                                   int n) {
  unsigned tid = threadIdx.x;
  int gid = blockIdx.x * blockDim.x + tid;
  if (gid >= n)
    return;
  s[tid] = in[gid];
  __syncthreads();
  out[gid] = s[blockDim.x - 1 - tid];
}

__global__ void reverse_blocks(float *out, const float *in, int n) {
  __shared__ float s[64];
  stage(out, in, s, n);
}
