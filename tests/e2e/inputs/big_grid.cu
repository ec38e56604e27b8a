// Every thread of a large grid writes its own float, a kilobyte apart (a
// page of the interpreter's memory per thread); the last block's thread 0
// also writes the first element, which thread 0 of block 0 owns.
__global__ void spread(float *out, int n) {
  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i * 256] = 1.0f;
}

__global__ void spread_last(float *out, int n) {
  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i * 256] = 1.0f;
  if (blockIdx.x == gridDim.x - 1 && threadIdx.x == 0)
    out[0] = 2.0f;
}
