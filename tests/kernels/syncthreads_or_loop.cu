// A relaxation loop that runs until no thread changes anything: the exit
// test is __syncthreads_or, a block-wide vote whose result every thread
// shares, so the loop body is uniform although the update inside it is not.
// AUCS-EXPECT: uniform 17 22 25
// AUCS-EXPECT: divergent 19

__global__ void relax(int *dist, const int *w, int *rounds) {
  __shared__ int d[256];
  unsigned tid = threadIdx.x;
  d[tid] = dist[tid];
  __syncthreads();
  int changed;
  int r = 0;
  do {
    changed = 0;
    int nd = d[(tid + 1) % blockDim.x] + w[tid];
    __syncthreads();
    if (nd < d[tid]) {
      d[tid] = nd;
      changed = 1;
    }
    rounds[blockIdx.x * 64 + r] = r;
    r++;
  } while (__syncthreads_or(changed));
  dist[tid] = d[tid];
}
// Detection, one block: every thread stores r into rounds[blockIdx.x * 64
// + r], a write/write race of line 22 with itself; r is the iteration,
// the same in every thread that writes one element: a benign race, a
// warning. The barriers at 11, 17 and 24 each order a neighbour's load
// against a store.
// AUCS-LAUNCH: --grid 1 --block 64
// AUCS-EXPECT: benign-race 22 22
// Static (aucs detect --static, same launch): rounds[blockIdx.x * 64 + r]
// races with itself; the witness replays it.
// AUCS-EXPECT-STATIC: confirmed 22 22
