// Race-free: grid-stride loop summing an array of any length n. Each thread
// walks i, i + stride, ... and keeps a private sum; the threads then combine
// their sums with one atomicAdd each into a global total (atomics do not
// race, across blocks either). No barrier. No launch is fixed: the result
// must hold for every grid, block and n the search tries. Expected: clean.
// AUCS-EXPECT: divergent 14
// AUCS-EXPECT: uniform 15
// AUCS-EXPECT: clean

__global__ void grid_sum(float *total, const float *x, int n) {
  float sum = 0.0f;
  int stride = blockDim.x * gridDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    sum += x[i];
  atomicAdd(total, sum);
}
// Static (aucs detect --static, same launch): x and total are distinct
// buffers and the atomics do not conflict: no pair is left to ask.
// AUCS-EXPECT-STATIC: proof race-free
