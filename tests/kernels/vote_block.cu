// Block-wide votes: __syncthreads_count and __syncthreads_and return the
// same value in every thread, so branches on them are uniform, unlike a warp
// vote, whose result differs between warps.
// AUCS-EXPECT: uniform 12 13 16
// AUCS-EXPECT: divergent 18

__global__ void majority(int *out, const int *flags) {
  unsigned tid = threadIdx.x;
  int f = flags[blockIdx.x * blockDim.x + tid];
  int votes = __syncthreads_count(f);
  if (votes > (int)blockDim.x / 2) {
    out[blockIdx.x * blockDim.x + tid] = votes;
    __syncthreads();
  }
  if (__syncthreads_and(f != 0))
    out[blockIdx.x] = 1;
  if (__any_sync(0xffffffffu, f > 3))
    out[gridDim.x + blockIdx.x * blockDim.x + tid] = 2;
}
// Detection, one block: every thread stores 1 into out[blockIdx.x] (a
// write/write race of line 16 with itself, of one value: benign, a
// warning). The plain barrier at line 13
// is redundant: the pair it would order (line 12 against line 18, out[t])
// is ordered by __syncthreads_and too; the counting barriers are not
// (their results are used).
// AUCS-LAUNCH: --grid 1 --block 64
// AUCS-EXPECT: benign-race 16 16
// AUCS-EXPECT: redundant-barrier 13
// Static (aucs detect --static, same launch): out[blockIdx.x] = 1 races with
// itself; the witness replays it.
// AUCS-EXPECT-STATIC: confirmed 16 16
