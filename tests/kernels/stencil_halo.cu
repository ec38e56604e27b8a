// Race-free: 1D three-point stencil with a shared tile and halo. Every
// thread loads its centre element, the first and last thread of the block
// also load the left and right halo (clamped at the ends of the array), all
// wait, then every thread combines three tile elements. Neighbouring blocks
// read each other's input elements but only read them. Expected: clean.
// AUCS-LAUNCH: --grid 2 --block 64 --arg n=128
// AUCS-EXPECT: uniform 15 20 21
// AUCS-EXPECT: divergent 17 19
// AUCS-EXPECT: clean

__global__ void stencil3(float *out, const float *in, int n) {
  __shared__ float tile[66];
  unsigned tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x + tid;
  tile[tid + 1] = in[i];
  if (tid == 0)
    tile[0] = i > 0 ? in[i - 1] : 0.0f;
  if (tid == blockDim.x - 1)
    tile[tid + 2] = i + 1 < n ? in[i + 1] : 0.0f;
  __syncthreads();
  out[i] = 0.25f * tile[tid] + 0.5f * tile[tid + 1] + 0.25f * tile[tid + 2];
}
// Static (aucs detect --static, same launch): out and in are distinct
// buffers; the tile pairs are proven.
// AUCS-EXPECT-STATIC: proof race-free
