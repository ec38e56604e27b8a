// Loops whose trip count depends on the thread (a triangular prefix sum and
// a data-dependent count): their bodies run a different number of times in
// each thread, so they are divergent. The code after each loop runs once in
// every thread and is uniform.
// AUCS-EXPECT: divergent 12 13 18
// AUCS-EXPECT: uniform 15 19

__global__ void prefix(int *out, const int *in, const int *count, int n) {
  unsigned tid = threadIdx.x;
  int sum = 0;
  for (unsigned k = 0; k <= tid; k++) {
    sum += in[k];
    out[n + tid * n + k] = sum;
  }
  out[tid] = sum;
  int c = count[tid];
  for (int j = 0; j < c; j++)
    out[2 * n + j] = j;
  __syncthreads();
}
// Detection, one block, n = 64: every thread with count[tid] > j stores
// into out[2n + j] (a write/write race of line 18 with itself), which is
// also where thread 1 stores its prefix sums (out[n + n + k], k <= 1).
// count[] holds small values (--fill small): random 32-bit counts would make
// the loop run for billions of steps. The final barrier has nothing after
// it, so it orders nothing: redundant.
// AUCS-LAUNCH: --grid 1 --block 64 --arg n=64 --fill small
// AUCS-EXPECT: race 18 18
// AUCS-EXPECT: race 13 18
// AUCS-EXPECT: redundant-barrier 19
// Static (aucs detect --static, same launch): the count loop is data-
// dependent (never proven); its write/write race and the race with the
// prefix stores replay from witnesses.
// AUCS-EXPECT-STATIC: never-proven
// AUCS-EXPECT-STATIC: confirmed 13 18
// AUCS-EXPECT-STATIC: confirmed 18 18
