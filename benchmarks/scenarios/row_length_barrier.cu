// Scenario (kaldi row loop style): each thread walks a row whose length
// differs per thread, publishing a running sum that its neighbour reads
// after a barrier inside the loop: the barrier is divergent. aucs
// uniformizes the loop and keeps a barrier between the write and the read.
// BUG: barrier-divergence in a loop over a row of per-thread length
// EXPECT: fixed
// LAUNCH: --grid 1 --block 64 --fill small
__global__ void rows(float *out, const float *m, const int *len) {
  __shared__ float acc[64];
  unsigned t = threadIdx.x;
  float sum = 0;
  for (int k = 0; k < len[t]; k++) {
    sum += m[t * 64 + k];
    acc[t] = sum;
    __syncthreads();
    out[t * 64 + k] = acc[(t + 1) % 64];
    __syncthreads();
  }
}
