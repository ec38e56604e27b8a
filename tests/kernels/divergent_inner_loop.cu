// A uniform row loop around a per-thread inner loop (a ragged sparse row):
// the inner body is divergent, but the code after the inner loop, still in
// the outer loop, runs once per row in every thread and may hold a barrier.
// AUCS-EXPECT: divergent 16
// AUCS-EXPECT: uniform 18 19

__global__ void ragged_rows(float *out, const float *val, const int *len,
                            int rows) {
  unsigned tid = threadIdx.x;
  for (int r = 0; r < rows; r++) {
    unsigned e = r * blockDim.x + tid;
    float s = 0.0f;
    int m = len[e];
    for (int k = 0; k < m; k++) {
      s += val[e * 8 + k];
      out[rows * blockDim.x + e * 8 + k] = s;
    }
    out[e] = s;
    __syncthreads();
  }
}
// Detection: len[] holds arbitrary values (the detector fills unwritten
// memory with pseudo-random ones), so the inner trip count is unbounded;
// rows = 0 checks the kernel without running the row loop.
// AUCS-LAUNCH: --grid 1 --block 64 --arg rows=0
// AUCS-EXPECT: clean
// Static (aucs detect --static, same launch): rows = 0: the row loop never
// runs, every remaining pair is affine and disjoint.
// AUCS-EXPECT-STATIC: proof race-free
