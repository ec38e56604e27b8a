// A block reduction over a 2-D block (32 x 8) whose last warp finishes with
// __syncwarp between the steps, under `if (tid < 32)` with tid the linear
// thread id threadIdx.y * blockDim.x + threadIdx.x. For this block shape
// the branch keeps or drops whole warps, so every lane of warp 0 meets at
// each __syncwarp: race-free, and with the launch given the static checker
// proves it (the __syncwarp in a warp-uniform block orders the lanes).
// AUCS-LAUNCH: --grid 2 --block 32,8
// AUCS-EXPECT: uniform 16 17
// AUCS-EXPECT: divergent 25 27
// AUCS-EXPECT: clean
// AUCS-EXPECT-STATIC: proof race-free

__global__ void sum_2d(const float *in, float *out) {
  __shared__ float s[256];
  unsigned tid = threadIdx.y * blockDim.x + threadIdx.x;
  s[tid] = in[blockIdx.x * 256 + tid];
  __syncthreads();
  for (unsigned k = 128; k >= 32; k >>= 1) {
    if (tid < k)
      s[tid] += s[tid + k];
    __syncthreads();
  }
  if (tid < 32) {
    for (unsigned k = 16; k > 0; k >>= 1) {
      float v = s[tid + k];
      __syncwarp();
      s[tid] += v;
      __syncwarp();
    }
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}
