// Race-free: Hillis-Steele inclusive scan in place, with the two barriers it
// needs per step: every thread first reads its partner s[t - off] into a
// register, all wait, then every thread updates its own element, all wait.
// The first barrier orders the partner reads before the partners' updates,
// the second the updates before the next step's reads. Expected: clean.
// AUCS-LAUNCH: --grid 2 --block 128
// AUCS-EXPECT: uniform 14 18 20 22
// AUCS-EXPECT: clean

__global__ void scan_inclusive(int *out, const int *in) {
  __shared__ int s[128];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + tid;
  s[tid] = in[i];
  __syncthreads();
  for (unsigned off = 1; off < blockDim.x; off *= 2) {
    int v = tid >= off ? s[tid - off] : 0;
    __syncthreads();
    s[tid] += v;
    __syncthreads();
  }
  out[i] = s[tid];
}
// Static (aucs detect --static, same launch): out and in are distinct
// buffers; the scan's shared pairs are proven.
// AUCS-EXPECT-STATIC: proof race-free
