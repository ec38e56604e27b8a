// The last-block reduction of fence_last_block.cu without its
// __threadfence(): the atomic that counts the block in is relaxed, so
// nothing publishes the partial store to the last block. Expected: an
// inter-block race between the partial store and the last block's read.
// AUCS-LAUNCH: --grid 4 --block 64
// AUCS-EXPECT: uniform 22
// AUCS-EXPECT: missing-fence 16 26

__device__ unsigned done_blocks;

__global__ void last_block_nofence(const float *in, float *partial,
                                   float *out) {
  __shared__ bool is_last;
  unsigned t = threadIdx.x;
  if (t == 0)
    partial[blockIdx.x] = in[blockIdx.x];
  // no __threadfence() here
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
