// Interleaved pairwise sums: each round adds the slot `stride` away into
// the thread's own slot; the barrier at the end of the round is missing, so
// a thread of the next round reads or writes a slot another thread of this
// round still updates. The repair is that barrier, not an atomic.
__global__ void rounds(int *out, const int *in) {
  __shared__ int s[64];
  unsigned t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  for (unsigned stride = 1; stride < 64; stride *= 2) {
    unsigned i = 2 * stride * t;
    if (i < 64)
      s[i] += s[i + stride];
  }
  __syncthreads();
  if (t == 0)
    out[blockIdx.x] = s[0];
}
