// Lane 0 of each warp adds to a shared total under a lock of block scope
// (atomicCAS_block, atomicExch_block), with __threadfence_block() after
// the acquire and before the release: every holder is in the same block,
// so the block scope reaches it. Expected: clean.
// AUCS-LAUNCH: --grid 1 --block 128 --fill zero
// AUCS-EXPECT: divergent 22
// AUCS-EXPECT: uniform 26
// AUCS-EXPECT: clean

__global__ void warps_locked_total(int *out) {
  __shared__ int lock;
  __shared__ int total;
  if (threadIdx.x == 0) {
    lock = 0;
    total = 0;
  }
  __syncthreads();
  if (threadIdx.x % 32 == 0) {
    while (atomicCAS_block(&lock, 0, 1) != 0)
      ;
    __threadfence_block();
    total = total + 1;
    __threadfence_block();
    atomicExch_block(&lock, 0);
  }
  __syncthreads();
  if (threadIdx.x == 0)
    out[0] = total;
}
