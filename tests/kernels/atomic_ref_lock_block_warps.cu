// Lane 0 of each warp adds to a shared total under a lock built on
// libcu++'s cuda::atomic_ref<int, cuda::thread_scope_block>: taken with an
// acquire compare-exchange, released with a release store. Every holder is
// in one block, so the block scope reaches it and the acquire/release
// orders need no fence. Expected: clean. Needs the CUDA SDK's libcu++
// (skipped without it).
//
// AUCS-SDK: libcu++
// AUCS-LAUNCH: --grid 1 --block 128 --fill zero
// AUCS-EXPECT: divergent 29
// AUCS-EXPECT: uniform 32
// AUCS-EXPECT: clean
#include <cuda/atomic>

__global__ void ref_block_total(int *out) {
  __shared__ int lock;
  __shared__ int total;
  if (threadIdx.x == 0) {
    lock = 0;
    total = 0;
  }
  __syncthreads();
  if (threadIdx.x % 32 == 0) {
    cuda::atomic_ref<int, cuda::thread_scope_block> l(lock);
    int expected = 0;
    while (!l.compare_exchange_strong(expected, 1, cuda::memory_order_acquire,
                                      cuda::memory_order_relaxed))
      expected = 0;
    total = total + 1;
    l.store(0, cuda::memory_order_release);
  }
  __syncthreads();
  if (threadIdx.x == 0)
    out[0] = total;
}
