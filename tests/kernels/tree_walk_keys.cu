// A b+tree search, one query per block: each thread of the block compares
// the query with its key interval [keys[t], keys[t+1]) of the current node
// and the thread whose interval holds it records the child to descend to.
// With sorted keys at most one interval holds the query: no race. With
// unsorted keys several threads write slot[q]: a race that only the buffer
// contents decide (docs/inputs.md, "Data-dependent findings": a warning with the
// fill, an error with the user's --buffer-data).
// tree_stage copies keys into shared memory and reads a neighbour's slot
// without a barrier: a race whose addresses come from the thread index
// only, whatever the keys (the branch on nkeys is the same for every
// thread): an error with the fill too.
// AUCS-EXPECT: divergent 28
// AUCS-EXPECT: uniform 29 40

struct node {
  int keys[33];
  int child[33];
  int nkeys;
};

__global__ void tree_find(const struct node *nodes, const int *queries,
                          int *slot, int depth) {
  __shared__ int cur;
  int t = threadIdx.x, q = blockIdx.x;
  for (int d = 0; d < depth; d++) {
    const struct node *n = &nodes[d == 0 ? 0 : cur];
    if (n->keys[t] <= queries[q] && queries[q] < n->keys[t + 1])
      slot[q] = n->child[t];
    __syncthreads();
    if (t == 0)
      cur = slot[q];
    __syncthreads();
  }
}

__global__ void tree_stage(const struct node *nodes, int *out) {
  __shared__ int s[32];
  int t = threadIdx.x;
  if (nodes[0].nkeys != 12345) {
    s[t] = nodes[0].keys[t];
    out[t] = s[(t + 1) % 32];
  }
}
// AUCS-LAUNCH: --grid 1 --block 32 --arg depth=3
// AUCS-EXPECT: race 28 28
// AUCS-EXPECT: race 40 41
