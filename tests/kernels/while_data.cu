// while loops that read data. Following a linked list from a uniform start
// reads the same cells in every thread, so the loop is uniform; following it
// from each thread's own start gives each thread its own trip count.
// AUCS-EXPECT: uniform 14 24
// AUCS-EXPECT: divergent 21

__global__ void chase(int *out, const int *__restrict__ next, int start,
                      int n) {
  unsigned tid = threadIdx.x;
  int k = start;
  int hops = 0;
  while (next[k] >= 0) {
    k = next[k];
    out[blockIdx.x * n + hops] = k;
    hops++;
  }
  int j = tid;
  int steps = 0;
  while (next[j] >= 0) {
    j = next[j];
    out[gridDim.x * n + tid * n + steps] = j;
    steps++;
  }
  out[tid] = steps + hops;
}
// Detection, one block: when the uniform chase takes a step, every thread
// stores into out[hops] (a write/write race of line 14 with itself), and
// thread hops stores out[tid] there after the loops (line 24).
// AUCS-LAUNCH: --grid 1 --block 64 --arg start=0 --arg n=64
// AUCS-EXPECT: race 14 14
// AUCS-EXPECT: race 14 24
// Static (aucs detect --static, same launch): the list walk is data-
// dependent (never proven); both races replay from witnesses.
// AUCS-EXPECT-STATIC: never-proven
// AUCS-EXPECT-STATIC: confirmed 14 14
// AUCS-EXPECT-STATIC: confirmed 14 24
