// Counts the inputs below a threshold, one element per thread of the grid.
// The kernel assumes that the grid covers the input exactly and that the
// input is a whole number of 512-element pages; the host code launches it
// with 2 blocks of 128 threads (the launch line below), which covers 256
// elements: no count satisfies both for this launch. The detector says
// which assumption the solver proved unsatisfiable instead of drawing
// inputs until its tries run out.
__global__ void count_below(unsigned *count, const int *in, int n, int t) {
  unsigned threads = gridDim.x * blockDim.x;
  __builtin_assume(n == threads);
  __builtin_assume(n % 512 == 0);
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && in[i] < t)
    atomicAdd(count, 1u);
}

// AUCS-LAUNCH: --grid 2 --block 128
// AUCS-EXPECT: uniform 12
// AUCS-EXPECT: unsatisfiable 11
