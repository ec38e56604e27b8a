// Rotates each block's slice of a buffer by one element through shared
// memory. The host sizes the buffer as three blocks plus a tail of 7, and
// the kernel checks it assert-style: any other n traps. Searched inputs
// never meet n == 3 * blockDim.x + 7, so every run the search draws traps
// until the solver chooses n for the block it chooses (docs/inputs.md,
// "Solved inputs"). Race-free: the barrier orders every store to s before
// the neighbour's load.
__global__ void rotate_checked(int *data, int n) {
  if (n != 3 * blockDim.x + 7)
    __builtin_trap();
  __shared__ int s[256];
  unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  s[t] = data[i];
  __syncthreads();
  data[i] = s[(t + 1) % blockDim.x];
}

// AUCS-EXPECT: uniform 12 13 15
// AUCS-EXPECT: clean
