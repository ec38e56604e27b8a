// Two warps write one word under one lock. Warp 1's lane 0 fences after
// its acquire and before its release; warp 0's lane 0 fences only before
// its release. Whichever warp takes the lock first, when warp 1 holds it
// first, warp 0's store may be ordered before warp 1's (nothing orders it
// after the acquire), though warp 0 took the lock later. The data is
// volatile, which does not make it a flag; warp 1 unlocks with a
// compare-and-swap (so -O2 does not merge the two stores). Expected: missing-fence
// between the two stores, whatever order the interpreter runs them in.
// AUCS-LAUNCH: --grid 1 --block 64 --fill zero
// AUCS-EXPECT: divergent 18 25
// AUCS-EXPECT: missing-fence 18 25

__global__ void warps_half_fenced(volatile int *data, int *lock) {
  if (threadIdx.x == 0) {
    while (atomicCAS(lock, 0, 1) != 0)
      ;
    // no __threadfence() here
    data[0] = 1;
    __threadfence();
    atomicExch(lock, 0);
  } else if (threadIdx.x == 32) {
    while (atomicCAS(lock, 0, 1) != 0)
      ;
    __threadfence();
    data[0] = 2;
    __threadfence();
    atomicCAS(lock, 1, 0);
  }
}
