// Redundant barrier: each thread stages its element in shared memory, waits
// at a barrier, and reads back only its own element. No other thread touches
// that element, so the barrier never orders a conflicting pair: it costs a
// block-wide wait for nothing. Expected: a redundant barrier; no race.
// AUCS-LAUNCH: --grid 2 --block 64
// AUCS-EXPECT: uniform 13 14 15
// AUCS-EXPECT: redundant-barrier 14

__global__ void square_staged(float *out, const float *in) {
  __shared__ float s[64];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + tid;
  s[tid] = in[i];
  __syncthreads();
  out[i] = s[tid] * s[tid];
}
// Static (aucs detect --static, same launch): out and in are distinct
// buffers; every pair is proven.
// AUCS-EXPECT-STATIC: proof race-free
