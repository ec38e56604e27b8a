// Input for tests/test_module.c: a block-wide reversal through shared
// memory, correct as written. test_module checks the line of each access.
__global__ void reverse(int *data, int n) {
  __shared__ int tile[256];
  int tid = threadIdx.x;
  int idx = blockIdx.x * blockDim.x + tid;
  if (idx < n)
    tile[tid] = data[idx];
  __syncthreads();
  if (idx < n)
    data[idx] = tile[blockDim.x - 1 - tid];
}
