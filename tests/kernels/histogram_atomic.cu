// Race-free: a 32-bin histogram, privatised per block in shared memory.
// The bins are zeroed, all wait (orders the zeroing before the atomic
// increments), every thread increments its value's bin with atomicAdd (atomics
// do not race with each other), all wait (orders the increments before the
// merge), and the first 32 threads add their bin to the global histogram with
// atomicAdd, which every block does concurrently: atomics again, no race.
// Expected: clean.
// AUCS-LAUNCH: --grid 2 --block 64
// AUCS-EXPECT: uniform 19 18 20
// AUCS-EXPECT: divergent 17 22
// AUCS-EXPECT: clean

__global__ void histogram32(unsigned *hist, const unsigned *in) {
  __shared__ unsigned s_hist[32];
  unsigned tid = threadIdx.x;
  if (tid < 32)
    s_hist[tid] = 0;
  __syncthreads();
  atomicAdd(&s_hist[in[blockIdx.x * blockDim.x + tid] % 32], 1u);
  __syncthreads();
  if (tid < 32)
    atomicAdd(&hist[tid], s_hist[tid]);
}
// Static (aucs detect --static, same launch): hist and in are distinct
// buffers, and the atomics on s_hist do not conflict with each other.
// AUCS-EXPECT-STATIC: proof race-free
