// The same struct tensors, but each thread reads its right neighbour's
// tile slot after the barrier: the barrier orders the tile's stores before
// those loads, so it is needed; it is never reported redundant and `aucs
// fix` never deletes it (e2e/fix_struct). The struct fields are one value
// for every thread, so the static checker proves every pair race-free.
// AUCS-EXPECT: uniform 19 20 21 22 25
// AUCS-EXPECT: divergent 24 27
// AUCS-EXPECT: clean
// AUCS-EXPECT-STATIC: proof race-free

struct Tensor {
  float *data;
  int rows, cols;
};

__global__ void shift_staged(struct Tensor out, struct Tensor in) {
  __shared__ float tile[1024];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + tid;
  unsigned n = (unsigned)(in.rows * in.cols);
  unsigned next = (tid + 1) % blockDim.x;
  tile[tid] = 0.0f;
  if (i < n)
    tile[tid] = in.data[i];
  __syncthreads();
  if (i < n)
    out.data[i] = tile[next];
}
