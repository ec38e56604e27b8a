// Early return of the threads past the end of the data. Everything after the
// return runs only in the threads that stayed, so it is divergent, and the
// barrier there is a barrier-divergence bug.
// AUCS-EXPECT: uniform 9
// AUCS-EXPECT: divergent 12 13 14

__global__ void guarded(int *out, const int *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[n + blockIdx.x] = n;
  if (i >= n)
    return;
  out[i] = in[i] * 2;
  __syncthreads();
  out[i] += in[i + 1];
}
// Detection, n = 100 over two blocks of 64: every thread of a block stores
// n into out[n + blockIdx.x] (a write/write race of line 9 with itself),
// and in block 1 the threads past n return while the rest wait at line 13.
// AUCS-LAUNCH: --grid 2 --block 64 --arg n=100
// AUCS-EXPECT: race 9 9
// AUCS-EXPECT: barrier-divergence 13
// Static (aucs detect --static, same launch): line 9 races with itself
// (every thread writes out[n + blockIdx.x]); the witness replays it.
// AUCS-EXPECT-STATIC: confirmed 9 9
