// A tid-dependent if: only the lower half of the block stores. The code
// before the if and after its join runs in every thread.
// AUCS-EXPECT: uniform 10 13 14
// AUCS-EXPECT: divergent 12

__global__ void lower_half(int *out, int *count) {
  unsigned tid = threadIdx.x;
  unsigned half = blockDim.x / 2;
  int base = blockIdx.x * blockDim.x;
  count[blockIdx.x] = base;
  if (tid < half)
    out[base + tid] = tid;
  __syncthreads();
  out[base + blockDim.x + tid] = half;
}
// Detection, one block: every thread stores into count[blockIdx.x] (a
// write/write race of line 10 with itself), each the same value (base,
// from block-uniform terms): a benign race, a warning; the stores into out
// are each thread's own, so the barrier orders nothing.
// AUCS-LAUNCH: --grid 1 --block 64
// AUCS-EXPECT: benign-race 10 10
// AUCS-EXPECT: redundant-barrier 13
// Static (aucs detect --static, same launch): line 10 races with itself
// (count[blockIdx.x]); the witness replays it.
// AUCS-EXPECT-STATIC: confirmed 10 10
