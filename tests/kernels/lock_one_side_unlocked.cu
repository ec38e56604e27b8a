// Lane 0 of warp 0 writes under a fenced lock; lane 0 of warp 1 writes the
// same word without taking the lock at all. The lock orders nothing for an
// access outside it, and a volatile word written under a lock is data,
// not a flag. Expected: a race between the two stores.
// AUCS-LAUNCH: --grid 1 --block 64 --fill zero
// AUCS-EXPECT: divergent 14 18
// AUCS-EXPECT: race 14 18

__global__ void one_side_unlocked(volatile int *data, int *lock) {
  if (threadIdx.x == 0) {
    while (atomicCAS(lock, 0, 1) != 0)
      ;
    __threadfence();
    data[0] = 1;
    __threadfence();
    atomicExch(lock, 0);
  } else if (threadIdx.x == 32) {
    data[0] = 2;
  }
}
