// atomic_ref_lock_device.cu with relaxed orders: the compare-exchange that
// takes the lock has no acquire semantics and the store that releases it
// no release semantics, and nothing fences, so the counter's update is
// not ordered between holders. Expected: missing-fence on it. Needs the
// CUDA SDK's libcu++ (skipped without it).
//
// AUCS-SDK: libcu++
// AUCS-LAUNCH: --grid 3 --block 32 --fill zero
// AUCS-EXPECT: divergent 20
// AUCS-EXPECT: missing-fence 20 20
#include <cuda/atomic>

__global__ void ref_relaxed_count(int *lock, int *count) {
  if (threadIdx.x == 0) {
    cuda::atomic_ref<int, cuda::thread_scope_device> l(*lock);
    int expected = 0;
    while (!l.compare_exchange_strong(expected, 1, cuda::memory_order_relaxed,
                                      cuda::memory_order_relaxed))
      expected = 0;
    count[0] = count[0] + 1;
    l.store(0, cuda::memory_order_relaxed);
  }
}
