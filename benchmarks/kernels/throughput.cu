// Interpreter throughput: one block of 1024 threads, each running a loop of
// integer and floating-point arithmetic with shared-memory traffic between
// barriers. With --arg iters=400 it makes well over 10 M dynamic
// thread-instructions. Race-free: each thread reads its neighbours' slots
// only in the interval after the barrier that follows their writes.
__global__ void throughput(float *out, int iters) {
  __shared__ float buf[1024];
  unsigned t = threadIdx.x;
  float acc = t * 0.5f;
  for (int i = 0; i < iters; i++) {
    buf[t] = acc;
    __syncthreads();
    float left = buf[(t + 1023) % 1024];
    float right = buf[(t + 1) % 1024];
    acc = acc * 0.25f + (left + right) * 0.375f + (float)(i & 7);
    __syncthreads();
  }
  out[blockIdx.x * blockDim.x + t] = acc;
}
