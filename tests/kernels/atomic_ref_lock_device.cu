// A spin lock shared by every block, built on libcu++'s
// cuda::atomic_ref<int, cuda::thread_scope_device>: taken with an acquire
// compare-exchange, released with a release store. The device scope
// reaches every block, so the plain update of the counter inside the lock
// is ordered between blocks. Expected: clean. Needs the CUDA SDK's
// libcu++ (skipped without it).
//
// AUCS-SDK: libcu++
// AUCS-LAUNCH: --grid 3 --block 32 --fill zero
// AUCS-EXPECT: divergent 21
// AUCS-EXPECT: clean
#include <cuda/atomic>

__global__ void ref_locked_count(int *lock, int *count) {
  if (threadIdx.x == 0) {
    cuda::atomic_ref<int, cuda::thread_scope_device> l(*lock);
    int expected = 0;
    while (!l.compare_exchange_strong(expected, 1, cuda::memory_order_acquire,
                                      cuda::memory_order_relaxed))
      expected = 0;
    count[0] = count[0] + 1;
    l.store(0, cuda::memory_order_release);
  }
}
