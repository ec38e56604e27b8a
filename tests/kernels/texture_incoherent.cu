// The texture cache is not coherent within a launch: this in-place smoothing
// reads its neighbours through the texture bound to `data` (the launch line
// maps it: --texture field=data) while other threads overwrite `data`, so a
// fetch may return the old value or the new one. A texture-incoherent
// finding between the store and the fetch of a written element.
// AUCS-LAUNCH: --grid 2 --block 32 --arg n=64 --texture field=data
// AUCS-EXPECT: uniform 14 15
// AUCS-EXPECT: texture-incoherent 15 14

texture<float, 1, cudaReadModeElementType> field;

__global__ void smooth_in_place(float *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float right = tex1Dfetch(field, i + 1 < n ? i + 1 : i);
  data[i] = 0.5f * (tex1Dfetch(field, i) + right);
}
