// Race-free: block sum with warp shuffles. Each warp reduces its values in
// registers with __shfl_down_sync (no memory, nothing to race), lane 0 of
// each warp writes its warp's sum to shared memory, all wait (orders those
// writes before warp 0 reads them), and warp 0 reduces the partial sums with
// shuffles again; thread 0 writes the block's result. Expected: clean.
// AUCS-LAUNCH: --grid 2 --block 128
// AUCS-EXPECT: uniform 20
// AUCS-EXPECT-O0: uniform 17
// AUCS-EXPECT: divergent 19 26
// AUCS-EXPECT: clean

__global__ void block_sum_shfl(float *out, const float *in) {
  __shared__ float partial[32];
  unsigned tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
  float v = in[blockIdx.x * blockDim.x + tid];
  for (int off = 16; off > 0; off /= 2)
    v += __shfl_down_sync(0xffffffffu, v, off);
  if (lane == 0)
    partial[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < blockDim.x / 32 ? partial[lane] : 0.0f;
    for (int off = 16; off > 0; off /= 2)
      v += __shfl_down_sync(0xffffffffu, v, off);
    if (lane == 0)
      out[blockIdx.x] = v;
  }
}
// Static (aucs detect --static, same launch): out and in are distinct
// buffers; the partial sums are proven.
// AUCS-EXPECT-STATIC: proof race-free
