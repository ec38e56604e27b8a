// A lock of block scope (atomicCAS_block, atomicExch_block) taken by
// thread 0 of every block, around a volatile store, fenced with
// __threadfence_block(): the lock's scope does not reach the other blocks,
// so two blocks can hold it at once. Expected: a scope race between one
// block's release and the next block's take of the lock word, and the
// store races between blocks (volatile data is no flag).
// AUCS-LAUNCH: --grid 2 --block 32 --fill zero
// AUCS-EXPECT: divergent 17
// AUCS-EXPECT: scope-race 14 19
// AUCS-EXPECT: inter-block-race 17 17

__global__ void block_scoped_lock_data(volatile int *data, int *lock) {
  if (threadIdx.x == 0) {
    while (atomicCAS_block(lock, 0, 1) != 0)
      ;
    __threadfence_block();
    data[0] = (int)blockIdx.x + 1;
    __threadfence_block();
    atomicExch_block(lock, 0);
  }
}
