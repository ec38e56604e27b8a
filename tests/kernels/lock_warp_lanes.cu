// Eight lanes of one warp take a shared-memory lock in turn (the loop
// that keeps a lane retrying until it got the lock, so the lanes that
// failed do not stop the holder under independent thread scheduling),
// with __threadfence_block() after the acquire and before the release: the
// block-scoped fences order each critical section before the next.
// Expected: clean.
// AUCS-LAUNCH: --grid 1 --block 32 --fill zero
// AUCS-EXPECT: divergent 25
// AUCS-EXPECT: uniform 32
// AUCS-EXPECT: clean

__global__ void lanes_locked_sum(int *out) {
  __shared__ int lock;
  __shared__ int sum;
  if (threadIdx.x == 0) {
    lock = 0;
    sum = 0;
  }
  __syncthreads();
  if (threadIdx.x < 8) {
    bool done = false;
    while (!done) {
      if (atomicCAS(&lock, 0, 1) == 0) {
        __threadfence_block();
        sum = sum + (int)threadIdx.x;
        __threadfence_block();
        atomicExch(&lock, 0);
        done = true;
      }
    }
  }
  __syncthreads();
  if (threadIdx.x == 0)
    out[0] = sum;
}
