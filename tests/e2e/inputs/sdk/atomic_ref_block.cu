// A lock shared by every block, built on
// cuda::atomic_ref<int, cuda::thread_scope_block>: the block scope does not
// reach the other blocks, so two blocks can hold the lock at once.
#include <cuda/atomic>

__global__ void ref_block_locked(int *lock, int *count) {
  if (threadIdx.x == 0) {
    cuda::atomic_ref<int, cuda::thread_scope_block> l(*lock);
    int expected = 0;
    while (!l.compare_exchange_strong(expected, 1, cuda::memory_order_acquire,
                                      cuda::memory_order_relaxed))
      expected = 0;
    count[0] = count[0] + 1;
    l.store(0, cuda::memory_order_release);
  }
}
