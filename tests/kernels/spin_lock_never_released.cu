// A spin lock that is taken and never released: thread 0 of the first
// block to arrive takes it, and the other block's thread 0 spins on the
// atomicCAS forever. The interpreter must report the deadlock at the spin
// (within its budget) rather than hang or run out of steps. The lock word
// starts at 0 (--fill zero).
// AUCS-LAUNCH: --grid 2 --block 32 --fill zero
// AUCS-EXPECT: divergent 14
// AUCS-EXPECT: deadlock 12

__global__ void lock_forever(int *lock, int *owner) {
  if (threadIdx.x == 0) {
    while (atomicCAS(lock, 0, 1) != 0)
      ;
    owner[0] = blockIdx.x;
  }
}
