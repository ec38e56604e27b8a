// A lock shared by blocks through device-scoped atomics, but fenced with
// __threadfence_block(): a block-scoped fence orders the critical section
// for the threads of its own block only, and the next holder is in
// another block. Expected: missing-fence on the counter's update.
// AUCS-LAUNCH: --grid 2 --block 32 --fill zero
// AUCS-EXPECT: divergent 14
// AUCS-EXPECT: missing-fence 14 14

__global__ void block_fenced_lock(int *lock, int *count) {
  if (threadIdx.x == 0) {
    while (atomicCAS(lock, 0, 1) != 0)
      ;
    __threadfence_block();
    count[0] = count[0] + 1;
    __threadfence_block();
    atomicExch(lock, 0);
  }
}
