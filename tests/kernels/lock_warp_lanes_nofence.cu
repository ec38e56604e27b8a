// lock_warp_lanes.cu without its fences: the relaxed atomicCAS and
// atomicExch order nothing, so a lane may read the sum before the previous
// holder's store is visible. Expected: missing-fence on the sum's update.
// AUCS-LAUNCH: --grid 1 --block 32 --fill zero
// AUCS-EXPECT: divergent 21
// AUCS-EXPECT: uniform 27
// AUCS-EXPECT: missing-fence 21 21

__global__ void lanes_unfenced_sum(int *out) {
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
        sum = sum + (int)threadIdx.x;
        atomicExch(&lock, 0);
        done = true;
      }
    }
  }
  __syncthreads();
  if (threadIdx.x == 0)
    out[0] = sum;
}
