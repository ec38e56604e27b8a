// A return inside a uniform loop: the threads that find a negative value
// leave the kernel, so the rest of the loop and everything after it run in
// only some threads. The barrier in the loop is a divergence bug.
// AUCS-EXPECT: uniform 9
// AUCS-EXPECT: divergent 14 15 17

__global__ void until_negative(float *out, const float *in, int n) {
  unsigned tid = threadIdx.x;
  out[tid] = 0.0f;
  for (int r = 0; r < n; r++) {
    float v = in[r * blockDim.x + tid];
    if (v < 0.0f)
      return;
    out[tid] += v;
    __syncthreads();
  }
  out[blockDim.x + tid] = 1.0f;
}
// Detection: a thread that loads a negative value returns while the others
// wait at the barrier in the loop.
// AUCS-LAUNCH: --grid 1 --block 64 --arg n=4
// AUCS-EXPECT: barrier-divergence 15
// Static (aucs detect --static, same launch): out and in are distinct
// buffers; each thread's writes stay in its own elements.
// AUCS-EXPECT-STATIC: proof race-free
