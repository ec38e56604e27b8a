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
