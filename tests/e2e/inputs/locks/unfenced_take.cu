// Warp 0 takes the lock without a fence after the acquire; warp 1 fences
// both sides and runs second in the canonical schedule.
__global__ void unfenced_take(volatile int *data, int *lock) {
  if (threadIdx.x == 0) {
    while (atomicCAS(lock, 0, 1) != 0)
      ;
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
