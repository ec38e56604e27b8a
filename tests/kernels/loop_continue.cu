// A uniform loop whose body some threads skip with continue: continue goes
// to the increment, which every thread reaches, so the loop itself stays
// uniform and only the code after the continue is divergent.
// AUCS-EXPECT: uniform 12 13 19
// AUCS-EXPECT: divergent 16 17

__global__ void masked_rows(float *out, const float *in, const int *mask,
                            int rows) {
  unsigned tid = threadIdx.x;
  for (int r = 0; r < rows; r++) {
    unsigned e = r * blockDim.x + tid;
    __syncthreads();
    out[e] = 0.0f;
    if (mask[e] == 0)
      continue;
    out[e] = in[e] * 2.0f;
    out[rows * blockDim.x + e] = in[e];
  }
  out[2 * rows * blockDim.x + tid] = 1.0f;
}
// Detection, one block: every element of out is written by one thread,
// so the barrier at the top of the loop orders nothing.
// AUCS-LAUNCH: --grid 1 --block 64 --arg rows=3
// AUCS-EXPECT: redundant-barrier 12
// Static (aucs detect --static, same launch): out, in and mask are distinct
// buffers; the data-dependent continue only guards private rows.
// AUCS-EXPECT-STATIC: proof race-free
