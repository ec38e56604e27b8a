// Dynamic shared memory carved into two arrays with the wrong offset: b
// should start blockDim.x floats after a, but starts half-way through a, so
// thread t's write to b[t] and thread t + blockDim.x / 2's write to a[...]
// hit the same bytes. Expected: a write/write race between the two stores.
// AUCS-LAUNCH: --grid 1 --block 64
// AUCS-EXPECT: uniform 15 16 17 18
// AUCS-EXPECT: race 15 16

extern __shared__ float dyn[];

__global__ void two_arrays(float *out, const float *x, const float *y) {
  float *a = dyn;
  float *b = dyn + blockDim.x / 2;
  unsigned tid = threadIdx.x;
  a[tid] = x[tid];
  b[tid] = y[tid];
  __syncthreads();
  out[tid] = a[blockDim.x - 1 - tid] * b[tid];
}
// Static (aucs detect --static, same launch): a[] and b[] overlap; the
// witness replays the race.
// AUCS-EXPECT-STATIC: confirmed 15 16
