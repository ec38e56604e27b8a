// A lock shared by blocks, released without a fence before the unlock.
__global__ void unfenced_unlock(int *lock, int *count) {
  if (threadIdx.x == 0) {
    while (atomicCAS(lock, 0, 1) != 0)
      ;
    __threadfence();
    count[0] = count[0] + 1;
    atomicExch(lock, 0);
  }
}
