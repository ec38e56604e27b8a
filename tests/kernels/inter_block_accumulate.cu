// Inter-block read-modify-write: thread 0 of every block adds the block's
// partial sum to a global total with a plain += instead of atomicAdd. The
// partial sum itself is computed with shared-memory atomics and is correct.
// Expected: an inter-block race of the total's update with itself; nothing
// within a block.
// AUCS-LAUNCH: --grid 2 --block 64
// AUCS-EXPECT: uniform 16 17 18
// AUCS-EXPECT: divergent 20
// AUCS-EXPECT: inter-block-race 20 20

__global__ void total_plain(float *total, const float *in) {
  __shared__ float s_sum;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0)
    s_sum = 0.0f;
  __syncthreads();
  atomicAdd(&s_sum, in[i]);
  __syncthreads();
  if (threadIdx.x == 0)
    *total += s_sum;
}
// Static (aucs detect --static, same launch): *total += s_sum races between
// blocks; the witness replays it.
// AUCS-EXPECT-STATIC: confirmed 20 20
