// Branches on kernel arguments, and on a value loaded from an argument
// pointer at a uniform address: the same for every thread of the block, so
// every block is uniform (the load assumes a race-free kernel).
// AUCS-EXPECT: uniform 12 15 17 19 20 21

__global__ void scale(float *out, const float *in, int n, float alpha,
                      int flags, const int *cfg) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i];
  if (flags & 1) {
    v = v * alpha;
    out[n + i] = v;
  }
  if (alpha != 0.0f)
    out[i] = v / alpha;
  else
    atomicAdd(&out[i], v);
  if (cfg[0] > 4) {
    out[2 * n + i] = v;
    __syncthreads();
    out[3 * n + i] = v;
  }
}
// Detection, n = blockDim: every thread has its own element in each of the
// four regions of out, so the barrier under cfg[0] > 4 never orders
// anything (whatever cfg holds).
// AUCS-LAUNCH: --grid 1 --block 64 --arg n=64 --arg alpha=2.0 --arg flags=1
// AUCS-EXPECT: redundant-barrier 20
// Static (aucs detect --static, same launch): out, in and cfg are distinct
// buffers; every pair is proven for this launch.
// AUCS-EXPECT-STATIC: proof race-free
