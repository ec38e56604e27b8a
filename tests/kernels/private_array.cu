// A per-thread array in local memory filled with tid-dependent values and
// read back at a uniform index: the value read differs between threads, so
// the branch on it diverges. A local array filled with uniform values gives
// a uniform value.
// AUCS-EXPECT: divergent 18
// AUCS-EXPECT: uniform 20 21

__global__ void local_table(int *out, const int *in, int n) {
  unsigned tid = threadIdx.x;
  int mine[8];
  int shared_cfg[8];
  for (int j = 0; j < 8; j++) {
    mine[j] = in[tid * 8 + j];
    shared_cfg[j] = in[j] + n;
  }
  int k = n & 7;
  if (mine[k] > 0)
    out[tid] = mine[k];
  if (shared_cfg[k] > 0) {
    out[blockDim.x + tid] = shared_cfg[k];
    __syncthreads();
  }
}
// Detection: each thread stores its own elements, so the barrier under
// shared_cfg[k] > 0 orders nothing (whatever in holds).
// AUCS-LAUNCH: --grid 1 --block 64 --arg n=3
// AUCS-EXPECT: redundant-barrier 21
// Static (aucs detect --static, same launch): the local arrays are each
// thread's own (allocas are not shared memory), and the two stores to out
// are at tid and blockDim.x + tid: proven.
// AUCS-EXPECT-STATIC: proof race-free
