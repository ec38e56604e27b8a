// lock_device_scope.cu's lock taken with atomicCAS_block, released with
// atomicExch_block: block-scoped atomics order nothing for another block,
// so two blocks can hold the lock at once. Expected: scope races on the
// lock word (take/take, release/take), the counter races between blocks.
// AUCS-LAUNCH: --grid 3 --block 32
// AUCS-EXPECT: divergent 15
// AUCS-EXPECT: scope-race 12 12
// AUCS-EXPECT: scope-race 12 17
// AUCS-EXPECT: inter-block-race 15 15
__global__ void block_locked_count(int *lock, int *count) {
  if (threadIdx.x == 0) {
    while (atomicCAS_block(lock, 0, 1) != 0)
      ;
    __threadfence();
    count[0] = count[0] + 1;
    __threadfence();
    atomicExch_block(lock, 0);
  }
}
