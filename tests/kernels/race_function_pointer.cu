// A block applies a stage chosen at run time through a table of function
// pointers in device memory. The `shift` stage reads the slot its right
// neighbour writes in the same barrier interval: a race inside the
// function the indirect call reaches, found only by following the call.
// AUCS-LAUNCH: --grid 1 --block 64 --arg which=1
typedef void (*stage_fn)(int *s, unsigned t);

__device__ __attribute__((noinline)) void twice(int *s, unsigned t) {
  s[t] = 2 * s[t];
}
__device__ __attribute__((noinline)) void shift(int *s, unsigned t) {
  s[t] = s[t + 1];
}
__device__ stage_fn stages[2] = {twice, shift};

__global__ void run_stage(int *out, int which) {
  __shared__ int s[65];
  unsigned t = threadIdx.x;
  s[t] = t;
  __syncthreads();
  stages[which & 1](s, t);
  __syncthreads();
  out[t] = s[63 - t];
}

// AUCS-EXPECT: uniform 18 19 20 21 22 23
// AUCS-EXPECT: race 12 12
