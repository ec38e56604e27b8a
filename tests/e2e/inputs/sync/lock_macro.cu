// The block-scoped lock of lock_block.cu behind macros: the atomics'
// columns point at the macros' uses, so the widening is IR only.
#define LOCK(p) while (atomicCAS_block(p, 0, 1) != 0)
#define UNLOCK(p) atomicExch_block(p, 0)
__global__ void tally_macro(int *lock, int *total, const int *in) {
  if (threadIdx.x == 0) {
    LOCK(lock);
    __threadfence();
    total[0] = total[0] + in[blockIdx.x];
    __threadfence();
    UNLOCK(lock);
  }
}
