// Write/write race on global memory: a 2:1 downsampling that forgot to let
// only even threads store, so threads 2k and 2k + 1 both write out[k] in
// the same interval. Expected: a race of the store with itself.
// AUCS-LAUNCH: --grid 1 --block 64
// AUCS-EXPECT: uniform 10
// AUCS-EXPECT: race 10 10

__global__ void downsample(float *out, const float *in) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i / 2] = 0.5f * (in[i] + in[i ^ 1]);
}
// Static (aucs detect --static, same launch): threads 2k and 2k + 1 write
// out[k]; the witness replays it.
// AUCS-EXPECT-STATIC: confirmed 10 10
