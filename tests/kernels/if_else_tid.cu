// if/else on the parity of the thread: both arms are divergent, the join
// after them is uniform.
// AUCS-EXPECT: uniform 9 17 18
// AUCS-EXPECT: divergent 12 15

__global__ void odd_even(float *even, float *odd, float *all, float s) {
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + tid;
  all[i] = s;
  if (tid % 2 == 0) {
    float v = all[i] * s;
    even[i / 2] = v;
  } else {
    float w = all[i] + s;
    atomicAdd(&odd[i / 2], w);
  }
  __syncthreads();
  all[i] = 2.0f * s;
}
// Detection: all[i] is touched only by thread i; even[i / 2] by one even
// thread; odd[] only by atomics. The barrier orders nothing.
// AUCS-LAUNCH: --grid 2 --block 64 --arg s=1.5
// AUCS-EXPECT: redundant-barrier 17
// Static (aucs detect --static, same launch): even, odd and all are
// distinct buffers; every pair is proven.
// AUCS-EXPECT-STATIC: proof race-free
