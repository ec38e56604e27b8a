// Inter-block race: the output index forgot blockIdx, so thread t of every
// block writes out[t]. Threads of one block write different elements (no
// race within a block), but two blocks write the same ones, and no
// __syncthreads() can order different blocks. Expected: an inter-block race
// of the store with itself.
// AUCS-LAUNCH: --grid 2 --block 64
// AUCS-EXPECT: uniform 12
// AUCS-EXPECT: inter-block-race 12 12

__global__ void scale_noblock(float *out, const float *in, float a) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[threadIdx.x] = a * in[i];
}
// Static (aucs detect --static, same launch): out[threadIdx.x] races between
// blocks; the witness replays it.
// AUCS-EXPECT-STATIC: confirmed 12 12
