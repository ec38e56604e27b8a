// Write/write race on shared memory, one statement with itself: every thread
// records "the block is done" by storing its own index into one shared
// variable. The stores are unordered and store different values, so the
// value thread 0 reads after the barrier depends on the schedule. Expected:
// one race of the store with itself (two threads on one statement).
// AUCS-LAUNCH: --grid 1 --block 64
// AUCS-EXPECT: uniform 14 15
// AUCS-EXPECT: divergent 17
// AUCS-EXPECT: race 14 14

__global__ void last_writer(int *out, const int *in) {
  __shared__ int s_last;
  unsigned tid = threadIdx.x;
  s_last = tid + in[tid];
  __syncthreads();
  if (tid == 0)
    out[0] = s_last;
}
// Static (aucs detect --static, same launch): the store races with itself;
// the witness replays it.
// AUCS-EXPECT-STATIC: confirmed 14 14
