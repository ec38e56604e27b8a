// Fence-and-flag hand-off between two warps of one block, no barrier: lane
// 0 of warp 0 stores the data, __threadfence_block(), then raises a
// volatile flag; lane 0 of warp 1 spins on the flag, fences, and reads.
// The spinning warp must yield to the producer (the canonical schedule
// runs warp 0 first here, but the spin must not hang either way).
// Expected: clean.
// AUCS-LAUNCH: --grid 1 --block 64
// AUCS-EXPECT: uniform 14
// AUCS-EXPECT: clean

__global__ void handoff_warps(int *out) {
  __shared__ int data;
  __shared__ volatile int flag;
  if (threadIdx.x == 0)
    flag = 0;
  __syncthreads();
  if (threadIdx.x == 32) {
    while (flag == 0)
      ;
    __threadfence_block();
    out[0] = data;
  } else if (threadIdx.x == 0) {
    data = 42;
    __threadfence_block();
    flag = 1;
  }
}
