// Race-free kernel taking aggregates: a struct of sizes passed by value
// (byval in the IR) and a struct of scale factors. The launch fixes the
// block; the struct's contents are arbitrary, so the kernel uses them only
// as data (a uniform branch on a flag, a scale factor), never for indexing.
// The tile is filled, all wait, and read mirrored: the barrier orders it.
// Expected: clean.
// AUCS-LAUNCH: --grid 2 --block 64
// AUCS-EXPECT: uniform 23 24
// AUCS-EXPECT-O0: uniform 26 28
// AUCS-EXPECT: clean

struct opts {
  int flags;
  float gain;
  float bias;
  int pad[5];
};

__global__ void scale_mirror(float *out, const float *in, struct opts o) {
  __shared__ float tile[64];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + tid;
  tile[tid] = in[i] * o.gain;
  __syncthreads();
  if (o.flags & 1)
    out[i] = tile[63 - tid] + o.bias;
  else
    out[i] = tile[63 - tid];
}
// Static (aucs detect --static, same launch): distinct pointer arguments
// are distinct buffers: every pair is proven.
// AUCS-EXPECT-STATIC: proof race-free
