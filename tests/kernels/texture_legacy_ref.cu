// Legacy texture references (texture<T, dim, mode> at file scope), which
// CUDA 12 removed from its headers: aucs includes its aucs_texture.h for a
// file that mentions them. A 1-D reference fills a shared tile, a 2-D float4
// reference gives a per-pixel weight; the barrier orders the tile.
// AUCS-LAUNCH: --grid 2 --block 64
// AUCS-EXPECT: uniform 16 19
// AUCS-EXPECT: divergent 18
// AUCS-EXPECT: clean

texture<float, 1, cudaReadModeElementType> signal;
texture<float4, 2> weights;

__global__ void weighted_diff(float *out) {
  __shared__ float tile[65];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  tile[t] = tex1Dfetch(signal, i);
  if (t == 0)
    tile[64] = tex1Dfetch(signal, i + 64);
  __syncthreads();
  float4 w = tex2D(weights, t + 0.5f, blockIdx.x + 0.5f);
  out[i] = w.x * (tile[t + 1] - tile[t]);
}
