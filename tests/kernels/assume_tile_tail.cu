// Copies a row and clears the counter of its partial last tile. Rows come
// in whole tiles of 64 (the host pads them), which the kernel states with
// __builtin_assume: the partial tile's slot out[n % 64] is then out[0],
// written by the thread that clears it. Without the assumption, thread 0's
// clear races with thread n % 64's copy (tests/e2e/assume.test shows both).
// The search discards inputs with n % 64 != 0; the static checker proves
// the kernel race-free under the assumption.
__global__ void tile_tail(int *out, const int *in, int n) {
  __builtin_assume(n % 64 == 0);
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
  if (i == 0)
    out[n % 64] = 0;
}

// AUCS-EXPECT-O0: uniform 9
// AUCS-EXPECT: uniform 10 11 12
// AUCS-EXPECT: divergent 13
// AUCS-EXPECT: clean
