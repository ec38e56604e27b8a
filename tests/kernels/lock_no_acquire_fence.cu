// lock_device_scope.cu with the fence after the acquire left out: the
// release is fenced, but the relaxed atomicCAS that takes the lock orders
// nothing after it, so the holder may read the counter before the previous
// holder's store. Expected: missing-fence on the counter's update.
// AUCS-LAUNCH: --grid 3 --block 32 --fill zero
// AUCS-EXPECT: divergent 13
// AUCS-EXPECT: missing-fence 13 13

__global__ void unfenced_lock(int *lock, int *count) {
  if (threadIdx.x == 0) {
    while (atomicCAS(lock, 0, 1) != 0)
      ;
    count[0] = count[0] + 1;
    __threadfence();
    atomicExch(lock, 0);
  }
}
