// Warp-level code: lane and warp numbers derive from threadIdx (or the
// laneid register), and shuffles return each lane its own value, so every
// branch on them diverges. The shuffle loop itself has a constant bound.
// AUCS-EXPECT: divergent 16 20 23 27 29
// AUCS-EXPECT: uniform 14 17 30

__global__ void warp_sums(int *out, const int *in) {
  __shared__ int partial[32];
  unsigned tid = threadIdx.x;
  unsigned lane = tid % 32;
  unsigned warp = tid / 32;
  int v = in[blockIdx.x * blockDim.x + tid];
  for (int off = 16; off > 0; off /= 2)
    v += __shfl_down_sync(0xffffffffu, v, off);
  if (lane == 0)
    partial[warp] = v;
  __syncthreads();
  if (warp == 0) {
    int p = lane < blockDim.x / 32 ? partial[lane] : 0;
    out[gridDim.x + blockIdx.x * 32 + lane] = p;
  }
  if (v > 100)
    out[2 * gridDim.x * 32 + tid] = v;
  unsigned hw;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(hw));
  if (hw < 16)
    out[3 * gridDim.x * 32 + tid] = 1;
  if (__nvvm_read_ptx_sreg_laneid() == 5)
    out[blockIdx.x] = 5;
  out[4 * gridDim.x * 32 + tid] = lane;
}
// Detection, one block of one warp: the regions of the stores are
// disjoint; only lane 0 writes partial[] and only lane 0 reads it back, so
// the barrier orders nothing.
// AUCS-LAUNCH: --grid 1 --block 32
// AUCS-EXPECT: redundant-barrier 17
// Static (aucs detect --static, same launch): in is read before the
// barrier and out written after it, at disjoint affine offsets; laneid is
// the linear thread index modulo 32, so lane 5 is one thread: proved.
// AUCS-EXPECT-STATIC: proof race-free
