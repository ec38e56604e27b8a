// A race: thread t reads s[t + 1], which thread t + 1 writes, with no
// barrier between (lines 9 and 10).
__global__ void racy(int *out) {
  __shared__ int s[64];
  unsigned t = threadIdx.x;
  unsigned g = blockIdx.x * blockDim.x + t;
  if (t >= 64)
    return;
  s[t] = t;
  out[g] = s[(t + 1) % 64];
}
