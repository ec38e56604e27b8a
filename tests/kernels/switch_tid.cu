// A switch on the thread index: each case runs in a quarter of the threads.
// A switch on blockIdx picks the same case in every thread of a block.
// AUCS-EXPECT: divergent 11 14 17 20
// AUCS-EXPECT: uniform 23 26 29 34

__global__ void by_quarter(int *a, float *b, int *c, int *d, int *e) {
  unsigned tid = threadIdx.x;
  unsigned long long i = blockIdx.x * blockDim.x + tid;
  switch (tid % 4) {
  case 0:
    a[i] = 10;
    break;
  case 1:
    b[i] = 1.5f;
    break;
  case 2:
    atomicAdd(&c[i / 4], 12);
    break;
  default:
    d[i] = e[i] + 13;
    break;
  }
  e[i] = tid;
  switch (blockIdx.x % 3) {
  case 0:
    a[i] += 1;
    break;
  case 1:
    __syncthreads();
    break;
  default:
    break;
  }
  d[i] = e[i] * 2;
}
// Detection, two blocks: element i of each array is touched by thread i
// only (c[i / 4] by one thread, atomically); block 1 passes the barrier at
// line 29, which orders nothing.
// AUCS-LAUNCH: --grid 2 --block 64
// AUCS-EXPECT: redundant-barrier 29
// Static (aucs detect --static, same launch): the five array arguments are
// distinct buffers; every pair is proven.
// AUCS-EXPECT-STATIC: proof race-free
