// An arg-max over a block, then every thread stores the block's winner:
// `if (valid) out_idx[j * gridDim.x + blockIdx.x] = s_idx[0];` without a
// `tid == 0` guard. The threads of a block race on one global word, but
// each stores the value the reduction left in s_idx[0], read after the
// last barrier from memory nobody writes any more: a benign race
// (GPUVerify tolerates such write-write races), reported as a warning.
// The reduction itself is race-free.
// AUCS-LAUNCH: --grid 2 --block 256
// AUCS-EXPECT: uniform 18 19 22 23 29
// AUCS-EXPECT: divergent 26 27
// AUCS-EXPECT: benign-race 33 33
// AUCS-EXPECT-STATIC: confirmed 33 33

__global__ void argmax_rows(int *out_idx, const float *in, int n, int j,
                            int valid) {
  __shared__ float s_val[256];
  __shared__ int s_idx[256];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + tid;
  float v = i < (unsigned)n ? in[i] : -1.0f;
  s_val[tid] = v;
  s_idx[tid] = (int)i;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s && s_val[tid + s] > s_val[tid]) {
      s_val[tid] = s_val[tid + s];
      s_idx[tid] = s_idx[tid + s];
    }
    __syncthreads();
  }
  // every thread, not only thread 0: the same value from each
  if (valid)
    out_idx[j * gridDim.x + blockIdx.x] = s_idx[0];
}
