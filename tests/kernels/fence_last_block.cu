// Last-block reduction: every block stores its partial sum, fences with
// __threadfence(), and its thread 0 counts the block in with atomicInc; the
// block that draws the last ticket sums every partial. The fence before the
// device-scoped atomic (a release) and the last block's atomic followed by
// a barrier (an acquire) order the partial stores before the final reads.
// Expected: clean.
// AUCS-LAUNCH: --grid 4 --block 64
// AUCS-EXPECT: uniform 23
// AUCS-EXPECT: clean

__device__ unsigned done_blocks;

__global__ void last_block_sum(const float *in, float *partial, float *out) {
  __shared__ bool is_last;
  unsigned t = threadIdx.x;
  if (t == 0)
    partial[blockIdx.x] = in[blockIdx.x];
  __threadfence();
  if (t == 0) {
    unsigned ticket = atomicInc(&done_blocks, gridDim.x);
    is_last = ticket == gridDim.x - 1;
  }
  __syncthreads();
  if (is_last && t == 0) {
    float s = 0;
    for (unsigned b = 0; b < gridDim.x; b++)
      s += partial[b];
    out[0] = s;
  }
}
