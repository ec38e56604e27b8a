// The warp hand-off of flag_handoff_warps.cu without its fences: the
// volatile flag alone does not order the data (the writer's store of data
// may become visible after the flag, the reader's load may be served
// before it). Expected: missing-fence between the data store and load
// (the flag's own volatile accesses are morally strong: no race).
// AUCS-LAUNCH: --grid 1 --block 64
// AUCS-EXPECT: uniform 15
// AUCS-EXPECT: missing-fence 19 21

__global__ void handoff_warps_nofence(int *out) {
  __shared__ int data;
  __shared__ volatile int flag;
  if (threadIdx.x == 0)
    flag = 0;
  __syncthreads();
  if (threadIdx.x == 32) {
    while (flag == 0)
      ;
    out[0] = data;
  } else if (threadIdx.x == 0) {
    data = 42;
    flag = 1;
  }
}
