// A uniform time-step loop with a divergent if in its body: only the if's
// body is divergent; the rest of the loop body, with its barriers, is
// uniform.
// AUCS-EXPECT: divergent 16 18
// AUCS-EXPECT: uniform 19 20 21 23

__global__ void smooth(float *buf, float *log, int steps) {
  __shared__ float s[256];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + tid;
  s[tid] = buf[i];
  __syncthreads();
  for (int t = 0; t < steps; t++) {
    float v = s[tid];
    if (tid > 0 && tid + 1 < blockDim.x)
      buf[i] = 0.5f * v + 0.25f * (s[tid - 1] + s[tid + 1]);
    if (tid == 0)
      log[blockIdx.x * steps + t] = v;
    __syncthreads();
    s[tid] = buf[i];
    __syncthreads();
  }
  buf[i] = s[tid];
}
// Detection: the barrier at line 12 orders the tile stores before the
// neighbour loads, line 19 the neighbour loads before the next tile
// stores, line 21 those stores before the next step's loads. Race-free.
// AUCS-LAUNCH: --grid 2 --block 64 --arg steps=3
// AUCS-EXPECT: clean
// Static (aucs detect --static, same launch): buf and log are distinct
// buffers; at -O2 the rotated loop's exit test bounds t below steps. Every
// pair is proven at both levels.
// AUCS-EXPECT-STATIC: proof race-free
