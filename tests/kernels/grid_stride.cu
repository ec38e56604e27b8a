// A grid-stride loop: each thread starts at its global index, so when n is
// not a multiple of the grid size some threads run one iteration more than
// others. The body is divergent; the code after the loop is uniform.
// AUCS-EXPECT: divergent 10
// AUCS-EXPECT: uniform 11 12

__global__ void saxpy(float *y, const float *x, float a, int n, int *done) {
  int stride = blockDim.x * gridDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    y[i] = a * x[i] + y[i];
  __syncthreads();
  done[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}
// Detection: every thread touches only its own elements of y, x and done,
// so the barrier never orders a conflicting pair, whatever the launch.
// AUCS-EXPECT: redundant-barrier 11
// Static (aucs detect --static, no launch fixed): proved race-free within
// the stated bounds, which include a grid of fewer than 2^31 threads along
// x (beyond that blockIdx.x * blockDim.x + threadIdx.x wraps around and two
// threads do meet). Two threads' i = gid + k * stride are ordered by their
// k, then by their gid, without the solver multiplying symbols.
// AUCS-EXPECT-STATIC: proof race-free
