// A spin lock shared by every block (device-scoped atomicCAS, fence after
// the acquire), released with atomicExch and no __threadfence() before it:
// the counter's store may become visible after the unlock, so the next
// holder may read the old count. Expected: missing-fence between the
// critical section's store and the next holder's load and store.
// AUCS-LAUNCH: --grid 3 --block 32 --fill zero
// AUCS-EXPECT: divergent 15
// AUCS-EXPECT: missing-fence 15 15

__global__ void unfenced_unlock(int *lock, int *count) {
  if (threadIdx.x == 0) {
    while (atomicCAS(lock, 0, 1) != 0)
      ;
    __threadfence();
    count[0] = count[0] + 1;
    atomicExch(lock, 0);
  }
}
