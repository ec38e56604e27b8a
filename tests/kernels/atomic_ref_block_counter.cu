// cuda::atomic_ref<unsigned, cuda::thread_scope_block> used within its
// scope: each block counts its own threads in its own slot, and after a
// barrier thread 0 reads its block's total (a plain load: the barrier
// orders it after the atomics). A block-scoped atomic is enough when no
// other block touches the slot. Expected: clean. Needs the
// CUDA SDK's libcu++ (skipped without it).
// AUCS-SDK: libcu++
// AUCS-LAUNCH: --grid 2 --block 64 --fill zero
// AUCS-EXPECT: uniform 18
// AUCS-EXPECT: clean
#include <cuda/atomic>

__global__ void ref_block_count(unsigned *slots, unsigned *out) {
  cuda::atomic_ref<unsigned, cuda::thread_scope_block> c(slots[blockIdx.x]);
  if (threadIdx.x % 2 == 0)
    c.fetch_add(1u, cuda::memory_order_relaxed);
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = slots[blockIdx.x];
}
