// A spin lock shared by every block, taken with a device-scoped atomicCAS
// and released after __threadfence() with atomicExch; the critical section
// updates a shared counter with plain loads and stores. Expected: clean.
// AUCS-LAUNCH: --grid 3 --block 32
// AUCS-EXPECT: divergent 13
// AUCS-EXPECT: clean

__global__ void locked_count(int *lock, int *count) {
  if (threadIdx.x == 0) {
    while (atomicCAS(lock, 0, 1) != 0)
      ;
    __threadfence();
    count[0] = count[0] + 1;
    __threadfence();
    atomicExch(lock, 0);
  }
}
