// Hillis-Steele inclusive scan in place with one barrier per step instead of
// two: thread t reads s[t - off] and writes s[t] in the same interval, while
// thread t - off writes s[t - off]. Expected: a race of the update line with
// itself (the neighbour's read against this thread's write).
// AUCS-LAUNCH: --grid 1 --block 64
// AUCS-EXPECT: uniform 13 18
// AUCS-EXPECT: divergent 17
// AUCS-EXPECT: race 17 17

__global__ void scan_one_barrier(int *out, const int *in) {
  __shared__ int s[64];
  unsigned tid = threadIdx.x;
  s[tid] = in[tid];
  __syncthreads();
  for (unsigned off = 1; off < blockDim.x; off *= 2) {
    if (tid >= off)
      s[tid] += s[tid - off];
    __syncthreads();
  }
  out[tid] = s[tid];
}
// Static (aucs detect --static, same launch): the update line races with
// itself; the witness replays it.
// AUCS-EXPECT-STATIC: confirmed 17 17
