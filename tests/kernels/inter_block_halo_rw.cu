// Inter-block read/write race: an in-place smoothing step where each block
// updates its own part of the array, but the first thread of a block also
// reads the last element of the previous block's part, which that block
// overwrites. Within a block each thread reads and writes only its own
// element. Expected: an inter-block race between the halo load and the
// store.
// AUCS-LAUNCH: --grid 2 --block 64
// AUCS-EXPECT: uniform 16
// AUCS-EXPECT: divergent 15
// AUCS-EXPECT: inter-block-race 15 16

__global__ void smooth_inplace(float *a, float *left) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0 && blockIdx.x > 0)
    left[blockIdx.x] = a[i - 1];
  a[i] = 0.5f * a[i];
}
// Static (aucs detect --static, same launch): the halo load and the in-place
// store race between blocks; the witness replays it.
// AUCS-EXPECT-STATIC: confirmed 15 16
