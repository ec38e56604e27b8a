// Write/write race between two statements: the first thread initialises
// the shared owner slot and counter, and the last thread, meant to claim the
// block afterwards, writes the owner slot in the same barrier interval (a
// barrier is missing between the two). The barrier after them orders both
// stores before the reads. Expected: one race between the two owner stores.
// AUCS-LAUNCH: --grid 1 --block 32
// AUCS-EXPECT: divergent 15 16 19
// AUCS-EXPECT: uniform 20 21
// AUCS-EXPECT: race 15 19

__global__ void init_owner(int *out) {
  __shared__ int s_owner, s_count;
  unsigned tid = threadIdx.x;
  if (tid == 0) {
    s_owner = -1;
    s_count = 0;
  }
  if (tid == blockDim.x - 1)
    s_owner = tid;
  __syncthreads();
  out[tid] = s_owner + s_count;
}
// Static (aucs detect --static, same launch): the two owner stores race; the
// witness replays it.
// AUCS-EXPECT-STATIC: confirmed 15 19
