// The mirror of lock_across_warps_acquire.cu: warp 0's lane 0 fences on
// both sides; warp 1's lane 0, which the interpreter runs second, leaves
// out the fence before its release. Had warp 1 taken the lock first, its
// store could become visible after warp 0's. Expected: missing-fence
// between the two stores (found at warp 1's release).
// AUCS-LAUNCH: --grid 1 --block 64 --fill zero
// AUCS-EXPECT: divergent 15 22
// AUCS-EXPECT: missing-fence 15 22

__global__ void warps_late_unfenced(volatile int *data, int *lock) {
  if (threadIdx.x == 0) {
    while (atomicCAS(lock, 0, 1) != 0)
      ;
    __threadfence();
    data[0] = 1;
    __threadfence();
    atomicExch(lock, 0);
  } else if (threadIdx.x == 32) {
    while (atomicCAS(lock, 0, 1) != 0)
      ;
    __threadfence();
    data[0] = 2;
    atomicExch(lock, 0);
  }
}
