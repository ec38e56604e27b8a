// Mirrors each block's slice of a buffer through shared memory. The kernel
// works on RGB triples a warp at a time, so its blocks must be one or two
// multiples of 96 threads; it says so with a guard that the compiler turns
// into an assumption. The input search's block sizes (powers of two) never
// meet it, so the launch comes from the solver (docs/inputs.md, "Solved
// inputs"). Race-free: the barrier orders every store to s before the
// mirrored loads.
__global__ void mirror_triples(int *data) {
  if (blockDim.x % 96 != 0 || blockDim.x > 192)
    __builtin_unreachable();
  __shared__ int s[192];
  unsigned t = threadIdx.x, base = blockIdx.x * blockDim.x;
  s[t] = data[base + t];
  __syncthreads();
  data[base + t] = s[blockDim.x - 1 - t];
}

// AUCS-EXPECT: uniform 13 15
// AUCS-EXPECT: clean
